import { checkLookahead, type LookaheadReport } from "./checkLookahead.js";
import { checkPurity } from "./checkPurity.js";
import { sampleRows } from "./sampleRows.js";
import { gridParams } from "./sweepGrid.js";
import { SWEEP_METRICS } from "./sweepMetrics.js";
import { evaluateStrategyVariants, type StrategyFunction, type StrategyPlan } from "./strategyVariant.js";

/** Variants a strategy sweep evaluates a second time to check the function is pure. */
export const PURITY_SAMPLE = 3;

/**
 * The checks of a strategy function's sweep (sweepStrategy runs them after the sweep): a second
 * evaluation on this thread of a seeded sample of PURITY_SAMPLE finished rows (the first row among
 * them), compared with the table ({@link checkPurity}: a stateful or random function is refused by
 * name); and the lookahead probe of given rows, for assessSweep ({@link checkLookahead} on the sweep's data
 * with those rows' parameters). A composite strategy is replayed causally by construction: not probed.
 * @throws StrategyNotPureError when a sampled variant gives other numbers the second time
 * @internal
 */
export function strategyChecks(plan: StrategyPlan, fn: StrategyFunction, table: Readonly<Record<string, Float64Array>>, where: string): { lookahead(rows: readonly number[]): LookaheadReport } {
  const variant = table["variant"] as Float64Array;
  const rows = [...new Set([0, ...sampleRows(variant.length, PURITY_SAMPLE - 1, 0x5eed)])].filter((r) => r < variant.length);
  const again = (row: number): Float64Array => {
    const v = variant[row] as number;
    const out = new Float64Array(SWEEP_METRICS.length);
    evaluateStrategyVariants(plan, fn, v, v + 1, out, v, 1, where);
    return out;
  };
  const metrics = (row: number): Float64Array => Float64Array.from(SWEEP_METRICS, (m) => (table[m] as Float64Array)[row] as number);
  checkPurity(rows, again, metrics, SWEEP_METRICS, (row) => gridParams(plan.grid, variant[row] as number), where);
  return {
    lookahead: (probe) => checkLookahead(fn, plan.columns, { params: probe.map((row) => gridParams(plan.grid, variant[row] as number)) }),
  };
}
