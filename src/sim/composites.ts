import type { Coin } from "../domain/coins.js";
import { DEFAULT_SCORERS } from "../signals/scorers.js";
import { COMPONENT_NAMES, DEFAULT_WEIGHTS, type ComponentName } from "../signals/weights.js";
import { labelOf, type SignalLabel } from "../signals/classifySignal.js";
import { signalConfidence } from "../signals/signalConfidence.js";
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
 * (docs/DESIGN.md): DEFAULT_SCORERS on the component values, then the sum of
 * DEFAULT_WEIGHTS x score in COMPONENT_NAMES order, label at |score| >= 0.1.
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
  const n = market.minutes;
  const scores = {} as Record<ComponentName, Float64Array>;
  for (const name of COMPONENT_NAMES) {
    const v = values[name];
    const s = new Float64Array(n);
    const f = DEFAULT_SCORERS[name];
    for (let i = 0; i < n; i++) {
      const x = v[i] as number;
      s[i] = Number.isNaN(x) ? Number.NaN : f(x);
    }
    scores[name] = s;
  }
  const composite = new Float64Array(n);
  const confidence = new Float64Array(n);
  const row: Record<string, number> = {};
  for (let i = 0; i < n; i++) {
    let sum = 0;
    let used = 0;
    for (const name of COMPONENT_NAMES) {
      const s = scores[name][i] as number;
      row[name] = s;
      if (Number.isNaN(s)) continue;
      sum += DEFAULT_WEIGHTS[name] * s;
      used += DEFAULT_WEIGHTS[name];
    }
    const c = Math.abs(used - 1) < 1e-12 ? sum : used > 0 ? sum / used : Number.NaN;
    composite[i] = c;
    confidence[i] = signalConfidence(row, DEFAULT_WEIGHTS, c);
  }
  const vol24h = realizedVol(market.coins[coin].close, { window: VOL_WINDOWS["24h"] });
  const regimes = classifyVolRegimes(vol24h);
  const result: SimComposite = {
    values,
    scores,
    composite,
    confidence,
    vol24h,
    label: (i) => labelOf(composite[i] as number, 0.1),
    volRegime: (i) => VOL_REGIMES[regimes[i] ?? -1] ?? "normal",
  };
  perMarket.set(coin, result);
  return result;
}
