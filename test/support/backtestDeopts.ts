/**
 * Child script of test/backtest/fusedJit.test.ts (bundled, run under `node --trace-deopt`: test/support/v8Trace.ts):
 * the backtest bench's fused summary run (a composite replay as the signal, `outputs: ["metrics"]`)
 * ten times over 200k seeded bars, printing "run k" before run k, so that the test can read from
 * V8's trace when the generated loop was deoptimised.
 */
import { backtest } from "../../src/backtest/index.js";
import { replayComposite } from "../../src/signals/index.js";
import { FEE_BPS, SLIPPAGE_BPS, THRESHOLD, generateBars } from "../bench/backtestData.js";

const c = generateBars(200_000, 42);
for (let k = 1; k <= 10; k++) {
  console.log(`run ${k}`);
  const signal = replayComposite({ imbalance: c.imbalance, funding: c.funding, basis_spread: c.basis_spread, momentum_5m: c.momentum_5m, gas: c.gas }, { threshold: THRESHOLD });
  backtest({ close: c.close, signal, funding: c.funding_bar, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, initialCash: 1, periodsPerYear: 525_600, outputs: ["metrics"] });
}
