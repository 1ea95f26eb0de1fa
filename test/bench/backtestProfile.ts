/**
 * Where ours' time goes in the backtest benchmark (test/bench/backtest.bench.ts):
 * `npx tsx test/bench/backtestProfile.ts [N] [REPS]` (default 2e6 bars, 10 runs).
 * Times the whole run as the benchmark does (replayComposite as backtest's signal, fused into
 * the kernel's generated loop: equity and trades), the first access to the other series, then
 * each stage of the block pipeline (what runs when the composite cannot be fused, e.g. with
 * delayBars or sizing) in isolation over the same blocks (composite -> label, label -> target,
 * the kernel), best of REPS in process CPU time, and the user / system split with minor
 * page faults of the fastest whole run (fresh typed arrays are page-faulted on first
 * touch: system time). Stages re-run in isolation need not add up exactly to the whole.
 *
 * Then the fused run taken apart (one pass of the same generated loop each, best of REPS): with
 * the equity column written into a reused buffer instead of a fresh one (the fresh column's page
 * faults and GC), with no equity column (the trade ledger only), with no ledger either (round trips
 * only counted), without the price check, and with the run accumulators (sums of returns and of
 * their squares, drawdown, exposure: what a summary reads).
 */
import { backtest } from "../../src/backtest/index.js";
import { prepareBacktest, runPass } from "../../src/backtest/backtest.js";
import { TradeLog } from "../../src/backtest/TradeLog.js";
import { KernelState } from "../../src/backtest/kernel/KernelState.js";
import { kernelCoin, NO_SERIES, runKernel } from "../../src/backtest/kernel/runKernel.js";
import { resolveTargets, targetPositions, TargetStream, targetsInto } from "../../src/backtest/targetPositions.js";
import { replayComposite } from "../../src/signals/index.js";
import { FEE_BPS, SLIPPAGE_BPS, THRESHOLD, generateBars } from "./backtestData.js";

const n = Math.round(Number(process.argv[2] ?? 2e6));
const reps = Number(process.argv[3] ?? 10);
const BLOCK = 2048;
const c = generateBars(n, 42);
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
};
const best: Record<string, number> = {};
const keep = (name: string, ms: number): void => {
  best[name] = Math.min(best[name] ?? Number.POSITIVE_INFINITY, ms);
};
const replay = () =>
  replayComposite({ imbalance: c.imbalance, funding: c.funding, basis_spread: c.basis_spread, momentum_5m: c.momentum_5m, gas: c.gas }, { threshold: THRESHOLD });
let user = Number.POSITIVE_INFINITY;
let system = Number.POSITIVE_INFINITY;
let faults = Number.POSITIVE_INFINITY;
let check = 0;
for (let r = 0; r < reps; r++) {
  const u0 = process.cpuUsage();
  const f0 = process.resourceUsage().minorPageFault;
  let t = cpu();
  const b = backtest({ close: c.close, signal: replay(), funding: c.funding_bar, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, initialCash: 1 });
  keep("replay + backtest (default: equity; trades on first read)", cpu() - t);
  const u = process.cpuUsage(u0);
  if ((u.user + u.system) / 1e3 < user + system) {
    user = u.user / 1e3;
    system = u.system / 1e3;
    faults = process.resourceUsage().minorPageFault - f0;
  }
  t = cpu();
  check += b.returns.length + b.exposure.length;
  keep("  + other series (first access: one more pass)", cpu() - t);
}
const labels = new Float64Array(BLOCK);
const targets = new Float64Array(BLOCK);
const all = new Float64Array(n);
for (let r = 0; r < reps; r++) {
  const rep = replay();
  let t = cpu();
  for (let lo = 0; lo < n; lo += BLOCK) rep.signalInto(labels, lo, Math.min(n, lo + BLOCK));
  keep("  stage: composite -> label (signalInto)", cpu() - t);
  const rule = resolveTargets({ signal: rep }, n, "profile");
  const stream = new TargetStream();
  t = cpu();
  for (let lo = 0; lo < n; lo += BLOCK) targetsInto(rule, stream, lo, Math.min(n, lo + BLOCK), targets, lo);
  keep("  stage: label -> target (targetsInto, incl. signalInto)", cpu() - t);
  targetsInto(rule, new TargetStream(), 0, n, all, 0);
  const st = new KernelState(1, { n, initialCash: 1, costBps: FEE_BPS + SLIPPAGE_BPS, nextOpen: false, whole: false, everyBar: true }, undefined);
  t = cpu();
  runKernel(st, [kernelCoin({ close: c.close, funding: c.funding_bar })], [all], 0, 0, n, NO_SERIES);
  keep("  stage: runKernel (accumulators only)", cpu() - t);
  check += st.trades;
}
// The fused run taken apart: the same pass, each time with one thing less.
const reused = new Float64Array(n);
const prepared = () => prepareBacktest({ close: c.close, signal: replay(), funding: c.funding_bar, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, initialCash: 1 }, "profile");
const parts: Record<string, () => void> = {
  "fused pass: fresh equity + ledger + price check (outputs [equity, trades])": () => {
    const p = prepared();
    runPass(p.rule, p.coin, p.settings, 0, { ...NO_SERIES, equity: new Float64Array(n) }, new TradeLog(FEE_BPS, SLIPPAGE_BPS), "profile");
  },
  "  equity into a reused buffer": () => {
    const p = prepared();
    runPass(p.rule, p.coin, p.settings, 0, { ...NO_SERIES, equity: reused }, new TradeLog(FEE_BPS, SLIPPAGE_BPS), "profile");
  },
  "  no equity column (ledger only)": () => {
    const p = prepared();
    runPass(p.rule, p.coin, p.settings, 0, NO_SERIES, new TradeLog(FEE_BPS, SLIPPAGE_BPS), "profile");
  },
  "  no equity, no ledger": () => {
    const p = prepared();
    runPass(p.rule, p.coin, p.settings, 0, NO_SERIES, undefined, "profile");
  },
  "  no equity, no ledger, no price check": () => {
    const p = prepared();
    runPass(p.rule, p.coin, p.settings, 0, NO_SERIES, undefined, undefined);
  },
  "  accumulators, no equity, no ledger (a summary)": () => {
    const p = prepared();
    runPass(p.rule, p.coin, { ...p.settings, accumulate: true }, 0, NO_SERIES, undefined, "profile");
  },
  "backtest({ ..., outputs: [\"metrics\"] }).metrics (summary only)": () => {
    const r = backtest({ close: c.close, signal: replay(), funding: c.funding_bar, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, initialCash: 1, periodsPerYear: 525_600, outputs: ["metrics"] });
    check += r.metrics.trades;
  },
  "every series and trades: default outputs, then the others read (two passes)": () => {
    const r = backtest({ close: c.close, signal: replay(), funding: c.funding_bar, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, initialCash: 1 });
    check += r.equity.length + r.returns.length + r.trades.length;
  },
  "every series and trades up front: outputs lists them all (one pass)": () => {
    const r = backtest({
      close: c.close,
      signal: replay(),
      funding: c.funding_bar,
      feeBps: FEE_BPS,
      slippageBps: SLIPPAGE_BPS,
      initialCash: 1,
      outputs: ["equity", "returns", "exposure", "holdings", "turnover", "fees", "fundingPaid", "trades"],
    });
    check += r.equity.length + r.returns.length + r.trades.length;
  },
  "users' path: targetPositions(replay) -> backtest({ position: targets }) (fused)": () => {
    const targets = targetPositions({ signal: replay() }, n);
    check += backtest({ close: c.close, position: targets, funding: c.funding_bar, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, initialCash: 1 }).equity.length;
  },
  "users' path: a loop over replay.label -> backtest({ position }) (not fusable)": () => {
    const label = replay().label;
    const position = new Float64Array(n);
    for (let i = 0; i < n; i++) position[i] = label[i] as number;
    check += backtest({ close: c.close, position, funding: c.funding_bar, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, initialCash: 1 }).equity.length;
  },
};
for (let r = 0; r < reps; r++) {
  for (const [name, f] of Object.entries(parts)) {
    const t = cpu();
    f();
    keep(name, cpu() - t);
  }
}
if (check === 0) console.log("(no bars)");
console.log(`${n} bars, best of ${reps} runs (process CPU time, ms):`);
for (const [name, ms] of Object.entries(best)) console.log(`${name.padEnd(80)} ${ms.toFixed(1).padStart(8)}`);
console.log(`fastest whole run (replay + backtest): user ${user.toFixed(1)} ms, system ${system.toFixed(1)} ms, ${faults} minor page faults`);
