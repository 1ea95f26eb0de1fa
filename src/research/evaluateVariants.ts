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
    for (let v = a; v < b; v++) {
      const st = sts[v - a] as (typeof sts)[number];
      const at = v - base; // columns in SWEEP_METRICS order

      out[at] = n > 0 ? st.equity / plan.initialCash - 1 : Number.NaN;
      out[stride + at] = sharpeFromSums(st.sumReturns, st.sumSquaredReturns, n - 1, plan.periodsPerYear);
      out[2 * stride + at] = n > 0 ? st.maxDrawdown : Number.NaN;
      out[3 * stride + at] = st.trades;
      out[4 * stride + at] = st.turnover;
      out[5 * stride + at] = n > 0 ? st.grossExposure / n : Number.NaN;
    }
  }
}
