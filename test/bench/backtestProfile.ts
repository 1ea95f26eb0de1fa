/**
 * Where ours' time goes in the backtest benchmark (test/bench/backtest.bench.ts):
 * `npx tsx test/bench/backtestProfile.ts [N] [REPS]` (default 2e6 bars, 10 runs).
 * Times each stage of replayComposite + backtest on the benchmark's bars, best of
 * REPS in process CPU time, and the user / system split with minor page faults per
 * run (fresh typed arrays are page-faulted on first touch: system time).
 * The backtest's stages are then re-run in isolation (same inputs), so they need
 * not add up exactly to the whole run.
 */
import { backtest } from "../../src/backtest/index.js";
import { checkPrices } from "../../src/backtest/execution.js";
import { KernelState } from "../../src/backtest/kernel/KernelState.js";
import { NO_SERIES, runKernel } from "../../src/backtest/kernel/runKernel.js";
import { targetPositions } from "../../src/backtest/targetPositions.js";
import { replayComposite } from "../../src/signals/index.js";
import { FEE_BPS, SLIPPAGE_BPS, THRESHOLD, generateBars } from "./backtestData.js";

const n = Math.round(Number(process.argv[2] ?? 2e6));
const reps = Number(process.argv[3] ?? 10);
const c = generateBars(n, 42);
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
};
const best: Record<string, number> = {};
const keep = (name: string, ms: number): void => {
  best[name] = Math.min(best[name] ?? Number.POSITIVE_INFINITY, ms);
};
let user = Number.POSITIVE_INFINITY;
let system = Number.POSITIVE_INFINITY;
let faults = Number.POSITIVE_INFINITY;
let check = 0;
for (let r = 0; r < reps; r++) {
  // the whole run, as the benchmark times it
  const u0 = process.cpuUsage();
  const f0 = process.resourceUsage().minorPageFault;
  let t = cpu();
  const rep = replayComposite(
    { imbalance: c.imbalance, funding: c.funding, basis_spread: c.basis_spread, momentum_5m: c.momentum_5m, gas: c.gas },
    { threshold: THRESHOLD },
  );
  keep("replayComposite (scores, composite, label)", cpu() - t);
  t = cpu();
  const b = backtest({ close: c.close, signal: rep.label, funding: c.funding_bar, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, initialCash: 1 });
  keep("backtest (equity, trades)", cpu() - t);
  t = cpu();
  check += b.returns.length;
  keep("returns (first access)", cpu() - t);
  const u = process.cpuUsage(u0);
  if ((u.user + u.system) / 1e3 < user + system) {
    user = u.user / 1e3;
    system = u.system / 1e3;
    faults = process.resourceUsage().minorPageFault - f0;
  }
}
for (let r = 0; r < reps; r++) {
  // the backtest's stages in isolation
  const rep = replayComposite(
    { imbalance: c.imbalance, funding: c.funding, basis_spread: c.basis_spread, momentum_5m: c.momentum_5m, gas: c.gas },
    { threshold: THRESHOLD },
  );
  let t = cpu();
  checkPrices("close", c.close, "profile");
  keep("  backtest: checkPrices (close)", cpu() - t);
  t = cpu();
  const { positions } = targetPositions({ signal: rep.label }, n, "profile");
  keep("  backtest: targetPositions (label -> weight)", cpu() - t);
  t = cpu();
  const coin = { close: c.close, open: undefined, funding: c.funding_bar, spreadBps: undefined };
  const st = new KernelState(1, { n, initialCash: 1, costBps: FEE_BPS + SLIPPAGE_BPS, nextOpen: false, whole: false, everyBar: true }, undefined);
  const equity = new Float64Array(n);
  runKernel(st, [coin], [positions], 0, 0, n, { ...NO_SERIES, equity });
  keep("  backtest: runKernel (the engine loop)", cpu() - t);
  check += equity.length;
}
if (check === 0) console.log("(no bars)");
console.log(`${n} bars, best of ${reps} runs (process CPU time, ms):`);
for (const [name, ms] of Object.entries(best)) console.log(`${name.padEnd(48)} ${ms.toFixed(1).padStart(8)}`);
console.log(`fastest whole run (replay + backtest + returns): user ${user.toFixed(1)} ms, system ${system.toFixed(1)} ms, ${faults} minor page faults`);
