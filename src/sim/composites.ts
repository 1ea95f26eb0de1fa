import type { Coin } from "../domain/coins.js";
import { DEFAULT_WEIGHTS, type ComponentName } from "../signals/weights.js";
import { labelName, type SignalLabel } from "../signals/classifySignal.js";
import { replayComposite } from "../signals/replayComposite.js";
import { realizedVol, VOL_WINDOWS } from "../signals/realizedVol.js";
import { classifyVolRegimes, VOL_REGIMES, type VolRegime } from "../signals/volRegime.js";
import { metricSeries } from "./catalog.js";
import type { SimMarket } from "./market.js";

/** The simulated service's composite for one coin, one row per minute. */
export interface SimComposite {
  readonly values: Readonly<Record<ComponentName, Float64Array>>;
  readonly scores: Readonly<Record<ComponentName, Float64Array>>;
  readonly composite: Float64Array;
  readonly confidence: Float64Array;
  /** Annualised 24h realized vol, percent. */
  readonly vol24h: Float64Array;
  label(i: number): SignalLabel;
  volRegime(i: number): VolRegime;
}

const cache = new WeakMap<SimMarket, Map<Coin, SimComposite>>();

/**
 * Composite of every minute for a coin, computed exactly as the service model
 * (docs/DESIGN.md) by the library's replayComposite: DEFAULT_SCORERS on the component
 * values, then the sum of DEFAULT_WEIGHTS x score in weight order, label at
 * |score| >= 0.1, the library's confidence.
 * The first five minutes have no momentum: their composite renormalises over
 * the other four components. Borrowed from the library, not an independent
 * reference: agreement of a replay with these composites is a round trip.
 */
export function simulateComposites(market: SimMarket, coin: Coin): SimComposite {
  let perMarket = cache.get(market);
  if (perMarket === undefined) {
    perMarket = new Map();
    cache.set(market, perMarket);
  }
  const hit = perMarket.get(coin);
  if (hit !== undefined) return hit;
  const p = coin.toLowerCase();
  const values: Record<ComponentName, Float64Array> = {
    imbalance: metricSeries(market, `${p}_imbalance`),
    funding: metricSeries(market, `${p}_funding_rate`),
    basis_spread: metricSeries(market, `${p}_basis_bps`),
    momentum_5m: metricSeries(market, `${p}_momentum_5m_pct`),
    gas: market.baseFeeGwei,
  };
  // The library's own model (replayComposite: its scorers, composite, label and confidence rules):
  // this simulator borrows those rules, so it is no evidence that they are right.
  const replay = replayComposite(values, { weights: DEFAULT_WEIGHTS });
  const scores = replay.scores as Readonly<Record<ComponentName, Float64Array>>;
  const composite = replay.composite;
  const confidence = replay.confidence;
  const labels = replay.label;
  const vol24h = realizedVol(market.coins[coin].close, { window: VOL_WINDOWS["24h"] });
  const regimes = classifyVolRegimes(vol24h);
  const result: SimComposite = {
    values,
    scores,
    composite,
    confidence,
    vol24h,
    label: (i) => labelName(labels[i] ?? 0),
    volRegime: (i) => VOL_REGIMES[regimes[i] ?? -1] ?? "normal",
  };
  perMarket.set(coin, result);
  return result;
}
