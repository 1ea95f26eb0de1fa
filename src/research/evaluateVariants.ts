import type { KernelState } from "../backtest/kernel/index.js";
import { VARIANTS_PER_PASS, variantsPass } from "./variantPass.js";
import type { SweepPlan } from "./SweepPlan.js";
import { sharpeFromSums } from "./sweepMetrics.js";

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
 * the gross weight held at each close. The one rule of every sweep's metrics.
 * @internal
 */
export function variantMetricsInto(st: KernelState, n: number, initialCash: number, periodsPerYear: number, out: Float64Array, at: number, stride: number): void {
  out[at] = n > 0 ? st.equity / initialCash - 1 : Number.NaN;
  out[stride + at] = sharpeFromSums(st.sumReturns, st.sumSquaredReturns, n - 1, periodsPerYear);
  out[2 * stride + at] = n > 0 ? st.maxDrawdown : Number.NaN;
  out[3 * stride + at] = st.trades;
  out[4 * stride + at] = st.turnover;
  out[5 * stride + at] = n > 0 ? st.grossExposure / n : Number.NaN;
}
