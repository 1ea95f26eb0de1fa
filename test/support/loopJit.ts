/**
 * Child script of test/backtest/loopJit.test.ts (bundled, run under `node --trace-opt --trace-deopt`:
 * test/support/v8Trace.ts): every kind of generated loop a user's process meets, called the way users call
 * them: optionally (`warm` as the first argument) a short warm-up backtest on a 4,096-bar prefix first,
 * then the fused backtest of a composite replay (equity), the path users write (a loop over the
 * replay's `.label`, then `backtest({ position })`), a column of signal labels, a latency run (the
 * block pipeline's span loop) and a sweep, each several times over N seeded bars (the second
 * argument, default 30k). Prints "phase <name>" before each, so that the test can tell from V8's
 * trace which loop was optimised or deoptimised when.
 */
import { backtest } from "../../src/backtest/index.js";
import { randomSimplex, sweepComposite } from "../../src/research/index.js";
import { replayComposite } from "../../src/signals/index.js";
import { FEE_BPS, SLIPPAGE_BPS, THRESHOLD, generateBars, type BenchColumns } from "../bench/backtestData.js";

const warm = process.argv[2] === "warm";
const n = Number(process.argv[3] ?? 30_000);
const all = generateBars(n, 42);
const prefix = (c: BenchColumns, m: number): BenchColumns => Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v.subarray(0, m)])) as unknown as BenchColumns;
const replay = (c: BenchColumns) => replayComposite({ imbalance: c.imbalance, funding: c.funding, basis_spread: c.basis_spread, momentum_5m: c.momentum_5m, gas: c.gas }, { threshold: THRESHOLD });
const costs = { feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, initialCash: 1 };
let check = 0;
if (warm) {
  console.log("phase warm-up");
  const c = prefix(all, 4096);
  check += backtest({ close: c.close, signal: replay(c), funding: c.funding_bar, ...costs }).equity[4095] as number;
}
console.log("phase fused");
for (let r = 0; r < 4; r++) check += backtest({ close: all.close, signal: replay(all), funding: all.funding_bar, ...costs }).equity[n - 1] as number;
console.log("phase users");
for (let r = 0; r < 4; r++) {
  const label = replay(all).label;
  const position = new Float64Array(label.length);
  for (let i = 0; i < label.length; i++) position[i] = label[i] as number;
  check += backtest({ close: all.close, position, funding: all.funding_bar, ...costs }).equity[n - 1] as number;
}
console.log("phase labels");
const labels = Array.from(replay(all).label, (l) => (l > 0 ? "buy" : l < 0 ? "sell" : "neutral"));
for (let r = 0; r < 3; r++) check += backtest({ close: all.close, signal: labels, funding: all.funding_bar, ...costs }).equity[n - 1] as number;
console.log("phase delayed");
for (let r = 0; r < 3; r++) check += backtest({ close: all.close, signal: replay(all), funding: all.funding_bar, delayBars: 1, ...costs }).equity[n - 1] as number;
console.log("phase sweep");
const input = { close: all.close, imbalance: all.imbalance, funding: all.funding, basis_spread: all.basis_spread, momentum_5m: all.momentum_5m, gas: all.gas };
for (let r = 0; r < 2; r++) {
  const s = await sweepComposite(input, { weights: randomSimplex(8, { seed: 2024 }), thresholds: [0.05, 0.1, 0.15, 0.2], ...costs, barFunding: all.funding_bar, periodsPerYear: 525_600, workers: 0 });
  check += s.columns["totalReturn"]?.[0] ?? 0;
}
console.log(`phase end ${Number.isFinite(check)}`);
