/**
 * The users' path, phase by phase, inside the whole call (issue 32): `npx tsx test/bench/userpathPhases.ts [N] [CALLS]`.
 * In one process, CALLS calls of backtestWorker.ts's `ours-loop` (replayComposite's `.label` read, the
 * user's loop into their fresh Float64 position column, `backtest({ position }).equity`), each phase's
 * process CPU ms and minor page faults printed per call, so the faults of the library's columns (the
 * label, the equity) and of the user's own column can be told apart. With `--gc` (run under
 * `node --expose-gc --import tsx`) the collector runs between calls, outside the timing, as numpy frees
 * an array when its last reference goes: the calls then find freed memory to reuse, and what is left
 * is the loops. `userpathPhases_numba.py` times numba's same three parts. No timing is asserted anywhere.
 */
import { loadavg } from "node:os";
import { backtest } from "../../src/backtest/index.js";
import { replayComposite } from "../../src/signals/index.js";
import { FEE_BPS, SLIPPAGE_BPS, THRESHOLD, generateBars } from "./backtestData.js";
import { median } from "./median.js";

const args = process.argv.slice(2).filter((a) => a !== "--gc");
const collect = process.argv.includes("--gc") ? (globalThis as { gc?: () => void }).gc : undefined;
if (process.argv.includes("--gc") && collect === undefined) throw new Error("userpathPhases: --gc needs node --expose-gc");
const n = Math.round(Number(args[0] ?? 2e6));
const CALLS = Number(args[1] ?? 10);
const c = generateBars(n, 42);
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
};
const faults = (): number => process.resourceUsage().minorPageFault;
const cols = { imbalance: c.imbalance, funding: c.funding, basis_spread: c.basis_spread, momentum_5m: c.momentum_5m, gas: c.gas };
const base = { close: c.close, funding: c.funding_bar, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, initialCash: 1 };
const names = ["label", "user loop", "backtest", "whole"] as const;
const ms: number[][] = names.map(() => []);
const fs: number[][] = names.map(() => []);
let sink = 0;
for (let k = 0; k < CALLS; k++) {
  collect?.();
  const t = [cpu()];
  const f = [faults()];
  const label = replayComposite(cols, { threshold: THRESHOLD }).label;
  t.push(cpu());
  f.push(faults());
  const position = new Float64Array(label.length);
  for (let i = 0; i < label.length; i++) position[i] = label[i] as number;
  t.push(cpu());
  f.push(faults());
  sink += backtest({ ...base, position }).equity[n - 1] as number;
  t.push(cpu());
  f.push(faults());
  for (let p = 0; p < 3; p++) {
    (ms[p] as number[]).push((t[p + 1] as number) - (t[p] as number));
    (fs[p] as number[]).push((f[p + 1] as number) - (f[p] as number));
  }
  (ms[3] as number[]).push((t[3] as number) - (t[0] as number));
  (fs[3] as number[]).push((f[3] as number) - (f[0] as number));
}
console.log(`users' path by phase${collect ? " (gc() between calls, untimed)" : ""}, ${n} bars, ${CALLS} calls, process CPU ms / minor faults per call; load ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
names.forEach((name, p) => {
  const m = ms[p] as number[];
  const fl = fs[p] as number[];
  console.log(`${name.padEnd(10)} best ${Math.min(...m).toFixed(1).padStart(6)} median ${median(m).toFixed(1).padStart(6)} ms, faults median ${median(fl)}  (${m.map((x, i) => `${x.toFixed(0)}/${fl[i]}`).join(" ")})`);
});
if (sink === 0.5) console.log(sink);
