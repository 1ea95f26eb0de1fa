import { COINS, type Coin } from "../../domain/coins.js";
import { simulateComposites } from "../../sim/composites.js";
import { marketRegime, type MarketRegime } from "../../signals/marketRegime.js";
import { regimeStatistics } from "../../signals/regimeStatistics.js";
import { TREND_LABELS, trendLabels } from "../../signals/trendLabels.js";
import type { ReplayContext } from "../ReplayContext.js";
import { riskWarnings } from "./composite.js";
import { finite } from "./snapshot.js";

const EVALUATION_INTERVAL_SEC = 300;
const LOOKBACK = 7 * 1440;
const REGIMES: readonly MarketRegime[] = ["risk_off", "neutral", "risk_on"];

function fundingRegime(f: number): string {
  return f >= 0.00005 ? "long_crowded" : f <= -0.00005 ? "short_crowded" : "balanced";
}

/** Market regime of minute i from the four coins' composites, vol regimes and funding. */
function regimeAt(ctx: ReplayContext, i: number): { regime: MarketRegime; confidence: number } {
  return marketRegime(
    COINS.map((coin) => {
      const c = simulateComposites(ctx.market, coin);
      return { composite: c.composite[i] as number, volRegime: c.volRegime(i), funding: c.values.funding[i] as number };
    }),
  );
}

/** GET /v3/signals/regime: per-coin trend regimes (observed) and, documented, the market regime. */
export function regime(ctx: ReplayContext, variant: string, coins: readonly Coin[] = COINS): unknown {
  const { market, index } = ctx;
  const from = Math.max(0, index - LOOKBACK);
  const regimes = coins.map((coin) => {
    const closes = market.coins[coin].close.subarray(from, index + 1);
    const labels = trendLabels(closes, { window: 240 });
    // Evaluate at the service's interval: one label every 5 minutes.
    const sampled = labels.filter((_, k) => (from + k) % 5 === 0);
    const stats = regimeStatistics(sampled, { states: 2 });
    const c = simulateComposites(market, coin);
    const vol24 = c.vol24h[index] as number;
    return {
      coin,
      confidence_score: finite(Math.min(1, Math.abs(c.composite[index] as number) / 0.3 + 0.5 * (stats.persistence || 0))),
      features_used: 7,
      funding_regime: fundingRegime(c.values.funding[index] as number),
      persistence_probability: finite(stats.persistence),
      regime_label: TREND_LABELS[labels[labels.length - 1] === 1 ? 1 : 0],
      risk_warnings: riskWarnings(ctx, coin, index),
      vol_24h: finite(vol24),
      vol_regime: c.volRegime(index),
    };
  });
  const body: Record<string, unknown> = {
    timestamp: ctx.iso(index),
    evaluation_interval_sec: EVALUATION_INTERVAL_SEC,
    model_type: "rule_based_trend_v1",
    regime_floor: "high",
    regimes,
  };
  if (variant === "documented") {
    const now = regimeAt(ctx, index);
    const codes: number[] = [];
    for (let i = Math.max(0, index - 1440); i <= index; i += 5) codes.push(REGIMES.indexOf(regimeAt(ctx, i).regime));
    const stats = regimeStatistics(codes, { states: 3 });
    const row = stats.transition[REGIMES.indexOf(now.regime)] ?? [];
    body["regime"] = now.regime;
    body["confidence"] = now.confidence;
    body["duration_hours"] = (stats.duration * EVALUATION_INTERVAL_SEC) / 3600;
    body["transition_probs"] = Object.fromEntries(REGIMES.map((r, k) => [r, finite(row[k] ?? Number.NaN)]));
  }
  return body;
}
