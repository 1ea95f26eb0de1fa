/**
 * Child script of test/research/strategyCallJit.test.ts (bundled, run under `node --trace-opt --trace-deopt`: test/support/v8Trace.ts):
 * sweepStrategy of the guide's smaCross (test/support/smaCross.ts) over a 6 x 6 grid at 100k seeded bars on the
 * calling thread, twice, so that the test can read from V8's trace whether the user's function was deoptimised
 * by what the sweep hands it (its columns record and parameters). The function is its text rebuilt under the name
 * `smaCross`, as a worker thread rebuilds it (so its name in V8's trace is the same however the module was compiled).
 */
import { sweepStrategy } from "../../src/index.js";
import { FEE_BPS, SLIPPAGE_BPS, generateBars } from "../bench/backtestData.js";
import type { StrategyFunction } from "../../src/index.js";
import { smaCross as guide } from "./smaCross.js";

const smaCross = new Function(`const smaCross = ${guide.toString()}; return smaCross;`)() as StrategyFunction;
const bars = generateBars(100_000, 42);
for (let r = 0; r < 2; r++) {
  const result = await sweepStrategy(smaCross, {
    data: { close: bars.close },
    grid: { fast: [5, 8, 12, 16, 20, 24], slow: [30, 60, 90, 120, 160, 220] },
    feeBps: FEE_BPS,
    slippageBps: SLIPPAGE_BPS,
    funding: bars.funding_bar,
    periodsPerYear: 525_600,
    workers: 0,
  });
  console.log(`sweep ${r}: ${result.columns["totalReturn"]?.length} variants`);
}
