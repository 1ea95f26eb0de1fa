/**
 * Where a sweep variant's time goes, per stage of its one pass over 500k bars
 * (`npx tsx test/bench/sweepProfile.ts`): the composite's labels streamed from the
 * replay (`signalInto`: five score columns fused per block, then labelled), the target
 * rule (`targetsInto`), the missing-price carry, and the backtest kernel (`runKernel`,
 * accumulators only). Process CPU time per bar, best of several runs of one variant,
 * block by block exactly as the sweep runs them.
 */
import { kernelCoin, KernelState, NO_SERIES, runKernel } from "../../src/backtest/kernel/index.js";
import { carryOnMissingPrice, resolveTargets, TargetStream, targetsInto } from "../../src/backtest/targetPositions.js";
import { replayComposite } from "../../src/signals/replayComposite.js";
import { generateBars } from "./backtestData.js";

const n = Number(process.env["BENCH_SWEEP_BARS"] ?? 5e5);
const bars = generateBars(n, 42);
const scores = replayComposite({ imbalance: bars.imbalance, funding: bars.funding, basis_spread: bars.basis_spread, momentum_5m: bars.momentum_5m, gas: bars.gas }).scores;
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
};
const BLOCK = 2048;
const buf = new Float64Array(BLOCK);
const best: Record<string, number> = { signal: Infinity, targets: Infinity, carry: Infinity, kernel: Infinity };
const coin = kernelCoin({ close: bars.close, funding: bars.funding_bar });
for (let rep = 0; rep < 7; rep++) {
  const t: Record<string, number> = { signal: 0, targets: 0, carry: 0, kernel: 0 };
  const replay = replayComposite(scores, { weights: { imbalance: 0.3, funding: 0.2, basis_spread: 0.2, momentum_5m: 0.2, gas: 0.1 }, from: "scores", threshold: 0.1 });
  // the rule reads the labels the replay just wrote into the buffer (as runPass does with the replay as signal)
  const labels = { length: n, signalInto: (): void => undefined };
  const rule = resolveTargets({ signal: labels }, n, "sweepProfile");
  const st = new KernelState(1, { n, initialCash: 1, costBps: 7, nextOpen: false, whole: false, everyBar: true }, undefined);
  const stream = new TargetStream();
  for (let lo = 0; lo < n; lo += BLOCK) {
    const hi = Math.min(n, lo + BLOCK);
    let c = cpu();
    replay.signalInto(buf, lo, hi);
    t["signal"]! += cpu() - c;
    c = cpu();
    targetsInto(rule, stream, lo, hi, buf, lo);
    t["targets"]! += cpu() - c;
    c = cpu();
    carryOnMissingPrice(buf, bars.close, lo, hi, lo, stream);
    t["carry"]! += cpu() - c;
    c = cpu();
    runKernel(st, [coin], [buf], lo, lo, hi, NO_SERIES);
    t["kernel"]! += cpu() - c;
  }
  if (rep > 0) for (const k of Object.keys(best)) best[k] = Math.min(best[k]!, t[k]!);
}
const total = Object.values(best).reduce((a, b) => a + b, 0);
console.log(`one variant over ${n} bars, best of 6 (process CPU time):`);
for (const [k, ms] of Object.entries(best)) console.log(`  ${k.padEnd(8)} ${((ms * 1e6) / n).toFixed(1).padStart(6)} ns/bar  ${((100 * ms) / total).toFixed(0).padStart(3)}%`);
console.log(`  total    ${((total * 1e6) / n).toFixed(1).padStart(6)} ns/bar = ${(n / total / 1e3).toFixed(1)} M bar-evaluations per CPU-second`);
