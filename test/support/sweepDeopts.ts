/**
 * Child script of test/research/sweepJit.test.ts (bundled, run under `node --trace-opt --trace-deopt`:
 * test/support/v8Trace.ts): a composite sweep of 64 variants (16 random weight vectors x 4 thresholds,
 * the sweep bench's setup) over 200k seeded bars on the calling thread, twice, so that the
 * test can read from V8's trace how often the pass's generated loop was deoptimised.
 */
import { randomSimplex, sweepComposite } from "../../src/index.js";
import { FEE_BPS, SLIPPAGE_BPS, generateBars } from "../bench/backtestData.js";

const bars = generateBars(200_000, 42);
const input = { close: bars.close, imbalance: bars.imbalance, funding: bars.funding, basis_spread: bars.basis_spread, momentum_5m: bars.momentum_5m, gas: bars.gas };
const options = { weights: randomSimplex(16, { seed: 2024 }), thresholds: [0.05, 0.1, 0.15, 0.2], feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, barFunding: bars.funding_bar, periodsPerYear: 525_600, workers: 0 };
for (let r = 0; r < 2; r++) {
  const result = await sweepComposite(input, options);
  console.log(`sweep ${r}: ${result.columns["totalReturn"]?.length} variants`);
}
