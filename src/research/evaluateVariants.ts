import type { KernelState } from "../backtest/kernel/index.js";
import { VARIANTS_PER_PASS, variantsPass } from "./variantPass.js";
import type { SweepPlan } from "./SweepPlan.js";
import { runMetrics } from "../backtest/BacktestMetrics.js";

/**
 * Evaluate variants lo..hi-1 of a plan and write their metrics into `out`, laid out
 * metric-major: metric m of variant v at `out[m * stride + (v - base)]`, metrics in
 * SWEEP_METRICS order. Each variant is computed on its own from the plan alone, so the
 * numbers do not depend on which thread runs which range.
 *
 * Up to VARIANTS_PER_PASS variants per pass of the engine (variantsPass: each score column
 * read once per bar, each weight vector's composite summed once, every variant's target rule
 * and one-coin kernel bar in one generated loop), with no per-bar series: the metrics come
 * from the kernel's run accumulators, as one `runPass` per variant would give them. Total return = final equity
 * / initial - 1; the Sharpe ratio from the sums of the returns and of their squares
 * (sharpeFromSums); max drawdown, round trips and summed turnover as the kernel counts them;
 * exposure = the mean over bars of the gross weight held at each close.
 * @internal
 */
export function evaluateVariants(plan: SweepPlan, lo: number, hi: number, out: Float64Array, base: number, stride: number): void {
  const n = plan.n;
  for (let a = lo; a < hi; a += VARIANTS_PER_PASS) {
    const b = Math.min(hi, a + VARIANTS_PER_PASS);
    const sts = variantsPass(plan, a, b);
    for (let v = a; v < b; v++) variantMetricsInto(sts[v - a] as KernelState, n, plan.initialCash, plan.periodsPerYear, out, v - base, stride);
  }
}

/**
 * A variant's metrics from its engine pass's final state, written at `out[m * stride + at]`
 * in SWEEP_METRICS order: total return = final equity / initial - 1; the Sharpe ratio from
 * the sums of the returns and of their squares (sharpeFromSums, n - 1 returns); max drawdown,
 * round trips and summed turnover as the kernel counts them; exposure = the mean over bars of
 * the gross weight held at each close: runMetrics, the one rule of a backtest's and every sweep variant's metrics.
 * @internal
 */
export function variantMetricsInto(st: KernelState, n: number, initialCash: number, periodsPerYear: number, out: Float64Array, at: number, stride: number): void {
  const m = runMetrics(st, n, initialCash, periodsPerYear);
  out[at] = m.totalReturn;
  out[stride + at] = m.sharpeRatio;
  out[2 * stride + at] = m.maxDrawdown;
  out[3 * stride + at] = m.trades;
  out[4 * stride + at] = m.turnover;
  out[5 * stride + at] = m.exposure;
}
