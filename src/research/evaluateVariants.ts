import { maxDrawdown } from "../metrics/maxDrawdown.js";
import { sharpeRatio } from "../metrics/sharpeRatio.js";
import { tradeStatistics } from "../metrics/tradeStatistics.js";
import { runVariant, variantScratch } from "./runVariant.js";
import type { SweepPlan } from "./SweepPlan.js";
import { SWEEP_METRICS } from "./sweepMetrics.js";

/**
 * Evaluate variants lo..hi-1 of a plan and write their metrics into `out`, laid out
 * metric-major: metric m of variant v at `out[m * stride + (v - base)]`, metrics in
 * SWEEP_METRICS order. Each variant is computed on its own from the plan alone, so the
 * numbers do not depend on which thread runs which range.
 * Every metric is the library's: total return = final equity / initial - 1, `sharpeRatio`
 * and `maxDrawdown` of the backtest's returns, its round trips (`trades.length`), and from
 * `tradeStatistics` the summed turnover and the share of bars with a position (exposure), as
 * `performanceSummary` reports them.
 * @internal
 */
export function evaluateVariants(plan: SweepPlan, lo: number, hi: number, out: Float64Array, base: number, stride: number): void {
  const scratch = variantScratch(plan.n);
  const o = { periodsPerYear: plan.periodsPerYear };
  for (let v = lo; v < hi; v++) {
    const r = runVariant(plan, v, scratch);
    const e = r.equity;
    const returns = r.returns;
    const ts = tradeStatistics(r.trades, { positions: r.positions, turnover: r.turnover });
    const values = [
      e.length > 0 ? (e[e.length - 1] as number) / (e[0] as number) - 1 : Number.NaN,
      sharpeRatio(returns, o),
      maxDrawdown(returns),
      r.trades.length,
      ts.turnover,
      ts.exposure,
    ];
    for (let m = 0; m < SWEEP_METRICS.length; m++) out[m * stride + (v - base)] = values[m] as number;
  }
}
