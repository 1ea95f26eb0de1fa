/**
 * Where one backtest call's time goes (issue 32): `npx tsx test/bench/callProfile.ts [equity|userpath] [N] [CALLS]`.
 * In one process, CALLS calls of the bench's call (backtestWorker.ts's `ours` or `ours-loop`), each
 * with its process CPU time and minor page faults (userpath: also the guide's loop at one length, the
 * label, position and equity columns reused through `into`); then the call's parts timed alone over the same
 * data, CALLS times each: the price check over every close (checkPrices), a fresh n-length column
 * touched (its page faults), the replay's label column (userpath), the user's own loop, and the
 * engine's pass alone into a reused column (the generated loop with nothing else). Prints best and
 * median per line (ms of process CPU) and the load. No timing is asserted anywhere.
 */
import { loadavg } from "node:os";
import { backtest } from "../../src/backtest/index.js";
import { prepareBacktest, runPass } from "../../src/backtest/backtest.js";
import { checkPrices } from "../../src/backtest/execution.js";
import { replayComposite } from "../../src/signals/index.js";
import { FEE_BPS, SLIPPAGE_BPS, THRESHOLD, generateBars } from "./backtestData.js";
import { median } from "./median.js";

const kind = process.argv[2] ?? "equity";
const n = Math.round(Number(process.argv[3] ?? 2e6));
const CALLS = Number(process.argv[4] ?? 10);
const c = generateBars(n, 42);
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
};
const faults = (): number => process.resourceUsage().minorPageFault;
const cols = { imbalance: c.imbalance, funding: c.funding, basis_spread: c.basis_spread, momentum_5m: c.momentum_5m, gas: c.gas };
const base = { close: c.close, funding: c.funding_bar, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, initialCash: 1 };
const lines: string[] = [];
function time(name: string, f: () => unknown): void {
  const ms: number[] = [];
  const fs: number[] = [];
  for (let k = 0; k < CALLS; k++) {
    const f0 = faults();
    const t0 = cpu();
    f();
    ms.push(cpu() - t0);
    fs.push(faults() - f0);
  }
  lines.push(`${name.padEnd(58)} best ${Math.min(...ms).toFixed(1).padStart(6)} ms  median ${median(ms).toFixed(1).padStart(6)} ms  faults median ${median(fs)}  (calls: ${ms.map((x) => x.toFixed(0)).join(" ")})`);
}
let sink = 0;
const userPosition = (label: ArrayLike<number>): Float64Array => {
  const position = new Float64Array(label.length);
  for (let i = 0; i < label.length; i++) position[i] = label[i] as number;
  return position;
};
if (kind === "equity") {
  time("whole call: backtest({ signal: replay }).equity", () => (sink += backtest({ ...base, signal: replayComposite(cols, { threshold: THRESHOLD }) }).equity[n - 1] as number));
  const into = { equity: new Float64Array(n) };
  time("whole call, into: { equity } reused", () => (sink += backtest({ ...base, signal: replayComposite(cols, { threshold: THRESHOLD }), into }).equity[n - 1] as number));
  const p = prepareBacktest({ ...base, signal: replayComposite(cols, { threshold: THRESHOLD }) }, "backtest");
  time("  prepareBacktest (options, lengths, rule)", () => prepareBacktest({ ...base, signal: replayComposite(cols, { threshold: THRESHOLD }) }, "backtest"));
  const eq = new Float64Array(n);
  const out = { base: 0, equity: eq, returns: undefined, turnover: undefined, exposure: undefined, fees: undefined, fundingPaid: undefined, units: undefined, weights: undefined };
  time("  runPass, price check inside, reused column", () => runPass(p.rule, p.coin, p.settings, 0, out, undefined, "backtest"));
  time("  runPass, no price check, reused column (the loop)", () => runPass(p.rule, p.coin, p.settings, 0, out, undefined, undefined));
} else {
  time("whole call: replay .label, own loop, backtest({ position })", () => {
    const label = replayComposite(cols, { threshold: THRESHOLD }).label;
    sink += backtest({ ...base, position: userPosition(label) }).equity[n - 1] as number;
  });
  const own = { label: new Int8Array(n), position: new Float64Array(n), equity: new Float64Array(n) };
  time("whole call, the guide's loop: into: { label }, own position, into: { equity }", () => {
    const label = replayComposite(cols, { threshold: THRESHOLD, into: { label: own.label } }).label;
    for (let i = 0; i < n; i++) own.position[i] = label[i] as number;
    sink += backtest({ ...base, position: own.position, into: { equity: own.equity } }).equity[n - 1] as number;
  });
  time("  replay .label (fresh column)", () => (sink += replayComposite(cols, { threshold: THRESHOLD }).label[n - 1] as number));
  const label = replayComposite(cols, { threshold: THRESHOLD }).label;
  time("  replay .label, into: { label } (the caller's column)", () => (sink += replayComposite(cols, { threshold: THRESHOLD, into: { label: own.label } }).label[n - 1] as number));
  time("  the user's loop (fresh position column)", () => (sink += userPosition(label)[n - 1] as number));
  const position = userPosition(label);
  time("  backtest({ position }).equity", () => (sink += backtest({ ...base, position }).equity[n - 1] as number));
  const into = { equity: new Float64Array(n) };
  time("  backtest({ position, into }).equity", () => (sink += backtest({ ...base, position, into }).equity[n - 1] as number));
  const p = prepareBacktest({ ...base, position }, "backtest");
  time("    prepareBacktest", () => prepareBacktest({ ...base, position }, "backtest"));
  const out = { base: 0, equity: into.equity, returns: undefined, turnover: undefined, exposure: undefined, fees: undefined, fundingPaid: undefined, units: undefined, weights: undefined };
  time("    runPass, no price check, reused column (the loop)", () => runPass(p.rule, p.coin, p.settings, 0, out, undefined, undefined));
}
time("checkPrices(close) alone", () => checkPrices("close", c.close, "backtest"));
time("a fresh n-length Float64Array, every page touched", () => {
  const a = new Float64Array(n);
  for (let i = 0; i < n; i += 512) a[i] = 1;
  sink += a[0] as number;
});
console.log(`${kind}, ${n} bars, ${CALLS} calls each, process CPU ms; load ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
for (const l of lines) console.log(l);
if (sink === 0.5) console.log(sink);
