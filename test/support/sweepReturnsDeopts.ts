/**
 * Child script of test/research/returnsJit.test.ts (bundled, run under `node --trace-opt --trace-deopt`:
 * test/support/v8Trace.ts): what assessSweep does with a composite sweep, a sweep of 5 components' simplex
 * grid at 0.25 x 3 thresholds over 720 seeded bars (as `milab demo`'s what-if sweep, per coin), then every
 * variant's returns (`returnsOf`, one fused backtest pass each), printing "returns" before them and
 * "done k" after, so that the test can read from V8's trace what became of the one-account loop (variantLoop1).
 */
import { simplexGrid, sweepComposite } from "../../src/research/index.js";
import { generateBars } from "../bench/backtestData.js";

const c = generateBars(720, 7);
const names = ["imbalance", "funding", "basis_spread", "momentum_5m", "gas"] as const;
const columns: Record<string, Float64Array> = { close: c.close };
for (const n of names) columns[n] = c[n];
const sweep = await sweepComposite(columns, { weights: simplexGrid([...names], 0.1), thresholds: [0.05, 0.1, 0.2], feeBps: 4.5, slippageBps: 1, barFunding: c.funding_bar, periodsPerYear: 35_040 });
console.log("returns");
let total = 0;
for (let i = 0; i < sweep.total; i++) {
  total += sweep.returnsOf(i)[719] as number;
}
console.log(`done ${sweep.total} ${Number.isFinite(total)}`);
