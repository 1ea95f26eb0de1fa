import type { Coin } from "../../domain/coins.js";
import { simulateComposites } from "../../sim/composites.js";
import { COMPONENT_NAMES } from "../../signals/weights.js";
import type { ReplayContext } from "../ReplayContext.js";
import { finite } from "./snapshot.js";

/** The methodology sentence the live service publishes (its weights are parsed from it). */
export const METHODOLOGY =
  "Weighted composite of order-book imbalance (30%), funding (25%), basis (20%), 5-minute momentum (15%) and gas (10%); " +
  "each component is scored in [-1, 1]; |score| >= 0.1 is a buy or sell. Volatility and correlation adjust confidence and warnings.";

/** Risk warnings of one coin at minute i (null when none, as the live service sends). */
export function riskWarnings(ctx: ReplayContext, coin: Coin, i: number): string[] | null {
  const c = simulateComposites(ctx.market, coin);
  const out: string[] = [];
  if (c.volRegime(i) === "extreme") out.push(`${coin} 24h realized volatility is extreme`);
  const f = c.values.funding[i] as number;
  if (Math.abs(f) >= 0.0001) out.push(`${coin} funding is elevated (${(f * 100).toFixed(4)}% per hour)`);
  if ((c.values.gas[i] as number) > 5) out.push("Ethereum gas is spiking");
  return out.length > 0 ? out : null;
}

/** One coin's composite entry at minute i, observed shape. */
export function compositeEntry(ctx: ReplayContext, coin: Coin, i: number): Record<string, unknown> {
  const c = simulateComposites(ctx.market, coin);
  const components: Record<string, { score: number | null; value: number | null }> = {};
  for (const name of COMPONENT_NAMES) {
    components[name] = { score: finite(c.scores[name][i] as number), value: finite(c.values[name][i] as number) };
  }
  return {
    coin,
    composite_score: finite(c.composite[i] as number),
    regime: c.label(i),
    vol_regime: c.volRegime(i),
    confidence: finite(c.confidence[i] as number),
    risk_warnings: riskWarnings(ctx, coin, i),
    timestamp: ctx.iso(i),
    components,
  };
}

/** GET /v1/signals/composite. */
export function composite(ctx: ReplayContext, coins: readonly Coin[]): unknown {
  return { methodology: METHODOLOGY, signals: coins.map((c) => compositeEntry(ctx, c, ctx.index)) };
}
