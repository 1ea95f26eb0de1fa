/**
 * `npm run bench -- backtest`: the composite replay + backtest on identical
 * seeded one-minute bars, three ways:
 *   (a) ours:  replayComposite (src/signals) + backtest (src/backtest) over typed arrays;
 *   (b) danfo: the same written straightforwardly with danfo Series operations;
 *   (c) pandas / numpy: the same vectorised under Debian's /usr/bin/python3
 *       (test/bench/backtest_pandas.py; skipped with a note when pandas is absent);
 *   (d) floor: not the library, the strategy hand-written in TypeScript as two loops over
 *       blocks with everything in locals (backtestWorker.ts): what the language does here
 *       at best, so "ours / floor" is the price of the general engine;
 *   (e) native: the floor in C (backtest_native.c), compiled with `cc -O3 -march=native`
 *       when a C compiler is present (skipped with a note otherwise): what native code does
 *       on this machine, the yardstick for the speed targets.
 * Two rows per size: "equity" (above: every side builds the equity column; ours also the trade
 * ledger) and "summary": every side computes the same four numbers, total return, max drawdown,
 * the annualised Sharpe ratio of the per-bar returns (ddof 1, 525,600 bars a year) and the
 * trades (positions opened), with no per-bar output asked for: ours is `backtest({ ...,
 * outputs: ["metrics"] }).metrics` (one pass, run accumulators only), pandas / numpy compute them
 * the way a quant writes it (equity by cumprod, drawdown from its running maximum, mean / std),
 * the floor and native C keep the accumulators in their accounting loop (the "hand-fused
 * loop"). danfo is not run for the summary.
 * Strategy: default composite weights and scorers, label at |composite| >= 0.1,
 * position = label (buy +1, sell -1, neutral flat), held from the close,
 * 5 bps fee + 2 bps slippage on |w_i - w_{i-1}|, per-bar funding, equity from 1.
 * Each run is its own process (peak memory = its own, over the loaded data);
 * times are the best of several repetitions (the machine may be shared).
 * The runs must agree: final equity and sum of equity within 1e-9 relative.
 *
 * Times are process CPU time (user + system) by default, robust when the machine
 * is shared; BENCH_CLOCK=wall measures wall-clock time instead.
 * Environment: BENCH_SIZES="1e4,1e5" to choose sizes (default 1e4,1e5,1e6,2e6,1e7),
 * BENCH_DANFO_MAX (default 2e6) the largest size danfo is run at, BENCH_TRADES=1 to have ours
 * record the trade ledger in its pass (`outputs: ["equity", "trades"]`, what its default did before
 * the ledger became lazy).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateBars, writeBars } from "./backtestData.js";

interface RunResult {
  readonly impl: string;
  readonly totalReturn?: number;
  readonly maxDrawdown?: number;
  readonly sharpe?: number;
  readonly trades?: number;
  readonly n: number;
  readonly seconds: number;
  /** The median run (the worker's; absent from the native one). */
  readonly medianSeconds?: number;
  readonly replaySeconds?: number;
  readonly backtestSeconds?: number;
  readonly peakBytes: number;
  readonly final: number;
  readonly checksum: number;
}

const here = dirname(fileURLToPath(import.meta.url));
const sizes = (process.env["BENCH_SIZES"] ?? "1e4,1e5,1e6,2e6,1e7").split(",").map((s) => Math.round(Number(s)));
const danfoMax = Number(process.env["BENCH_DANFO_MAX"] ?? 2e6);
const PYTHON = "/usr/bin/python3";
const dir = mkdtempSync(join(tmpdir(), "milab-bench-"));

const pythonOk = spawnSync(PYTHON, ["-c", "import pandas, numpy"], { encoding: "utf8" }).status === 0;
if (!pythonOk) console.log(`note: ${PYTHON} with pandas and numpy not found: the pandas/numpy columns are skipped (apt-get install python3-pandas)`);
const nativeExe = join(dir, "backtest_native");
const cc = spawnSync("cc", ["-O3", "-march=native", "-ffp-contract=off", "-o", nativeExe, join(here, "backtest_native.c"), "-lm"], { encoding: "utf8" });
const nativeOk = cc.status === 0;
if (!nativeOk) console.log(`note: no C compiler (cc) or it failed: the native column is skipped (apt-get install gcc) ${(cc.stderr ?? "").trim().split("\n")[0] ?? ""}`);

function reps(n: number, budget: number): number {
  return Math.max(1, Math.min(15, Math.round(budget / n)));
}

function run(cmd: string, args: string[]): RunResult | string {
  const res = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 1 << 20, env: { ...process.env, TZ: "UTC" } });
  if (res.status !== 0) return `failed (${res.status}): ${(res.stderr || res.stdout).trim().split("\n").slice(-3).join(" | ")}`;
  const line = res.stdout.trim().split("\n").pop() ?? "";
  return JSON.parse(line) as RunResult;
}

function relDiff(a: number, b: number): number {
  return Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b), Number.MIN_VALUE);
}

const fmtN = (n: number) => {
  if (n < 1e6) return n >= 1e3 ? `${n / 1e3}k` : String(n);
  const e = Math.floor(Math.log10(n));
  return `${n / 10 ** e}e${e}`;
};
const ms = (s: number | undefined) => (s === undefined ? "-" : s >= 10 ? `${s.toFixed(1)} s` : `${(s * 1000).toFixed(s < 0.1 ? 1 : 0)} ms`);
const rate = (n: number, s: number | undefined) => (s === undefined ? "-" : `${((n / s) / 1e6).toFixed(1)} M`);
const mb = (b: number | undefined) => (b === undefined ? "-" : `${(b / 2 ** 20).toFixed(0)} MB`);
const ratio = (x: number | undefined, y: number) => (x === undefined ? "-" : `${(x / y).toFixed(1)}x`);

const rows: string[][] = [];
const summaryRows: string[][] = [];
const summaryAt2e6: { pandas?: number; numpy?: number; floorVsNumpy?: number; nativeVsNumpy?: number } = {};
const at2e6: { pandas?: number; numpy?: number; danfo?: number; floorVsNumpy?: number; nativeVsNumpy?: number } = {};
const userRows: string[][] = [];
const userAt2e6: { loop?: [number, number]; fused?: [number, number] } = {};
const oursTimes: Array<[number, number]> = [];
const oursPeaks: Array<[number, number]> = [];
let allAgree = true;
const notes: string[] = [];
for (const n of sizes) {
  const file = join(dir, `bars-${n}.f64`);
  writeBars(file, generateBars(n, 42));
  const ours = run(process.execPath, ["--import", "tsx", "--expose-gc", join(here, "backtestWorker.ts"), "ours", file, String(n), String(reps(n, 2e7))]);
  if (typeof ours === "string") {
    console.log(`n=${n}: ours ${ours}`);
    allAgree = false;
    continue;
  }
  oursTimes.push([n, ours.seconds]);
  oursPeaks.push([n, ours.peakBytes]);
  const others: Record<string, RunResult | undefined> = {};
  if (pythonOk) {
    for (const impl of ["pandas", "numpy"]) {
      const r = run(PYTHON, [join(here, "backtest_pandas.py"), impl, file, String(n), String(reps(n, 2e7))]);
      if (typeof r === "string") notes.push(`n=${n}: ${impl} ${r}`);
      else others[impl] = r;
    }
  }
  {
    const r = run(process.execPath, ["--import", "tsx", "--expose-gc", join(here, "backtestWorker.ts"), "floor", file, String(n), String(reps(n, 2e7))]);
    if (typeof r === "string") notes.push(`n=${n}: floor ${r}`);
    else others["floor"] = r;
  }
  if (nativeOk) {
    const r = run(nativeExe, [file, String(n), String(reps(n, 2e7))]);
    if (typeof r === "string") notes.push(`n=${n}: native ${r}`);
    else others["native"] = r;
  }
  if (n <= danfoMax) {
    const r = run(process.execPath, ["--import", "tsx", "--expose-gc", join(here, "backtestWorker.ts"), "danfo", file, String(n), "1"]);
    if (typeof r === "string") notes.push(`n=${n}: danfo ${r}`);
    else others["danfo"] = r;
  }
  let worst = 0;
  for (const r of Object.values(others)) {
    if (r === undefined) continue;
    worst = Math.max(worst, relDiff(r.final, ours.final), relDiff(r.checksum, ours.checksum));
  }
  const agree = worst <= 1e-9;
  if (!agree) allAgree = false;
  const pd = others["pandas"];
  if (n === 2e6) {
    if (pd !== undefined) at2e6.pandas = pd.seconds / ours.seconds;
    if (others["numpy"] !== undefined) at2e6.numpy = others["numpy"].seconds / ours.seconds;
    if (others["danfo"] !== undefined) at2e6.danfo = others["danfo"].seconds / ours.seconds;
    if (others["numpy"] !== undefined && others["floor"] !== undefined) at2e6.floorVsNumpy = others["numpy"].seconds / others["floor"].seconds;
    if (others["numpy"] !== undefined && others["native"] !== undefined) at2e6.nativeVsNumpy = others["numpy"].seconds / others["native"].seconds;
  }
  rows.push([
    fmtN(n),
    ms(ours.seconds),
    `${ms(ours.replaySeconds)} + ${ms(ours.backtestSeconds)}`,
    rate(n, ours.seconds),
    mb(ours.peakBytes),
    ms(pd?.seconds),
    pd === undefined ? "-" : `${ms(pd.replaySeconds)} + ${ms(pd.backtestSeconds)}`,
    ms(others["numpy"]?.seconds),
    ms(others["danfo"]?.seconds),
    ms(others["floor"]?.seconds),
    ms(others["native"]?.seconds),
    ratio(pd?.seconds, ours.seconds),
    ratio(others["numpy"]?.seconds, ours.seconds),
    ratio(others["danfo"]?.seconds, ours.seconds),
    ratio(ours.seconds, others["floor"]?.seconds ?? Number.NaN),
    pd?.backtestSeconds === undefined ? "-" : ratio(pd.backtestSeconds, ours.backtestSeconds ?? Number.NaN),
    mb(pd?.peakBytes),
    mb(others["danfo"]?.peakBytes),
    `${agree ? "yes" : "NO"} (${worst.toExponential(0)})`,
  ]);
  // The path users write (replay, their own loop over .label, backtest({ position })) and the fused
  // call, best and median run each, against numpy's best and median: the first target.
  {
    const loop = run(process.execPath, ["--import", "tsx", "--expose-gc", join(here, "backtestWorker.ts"), "ours-loop", file, String(n), String(reps(n, 2e7))]);
    if (typeof loop === "string") notes.push(`n=${n}: ours-loop ${loop}`);
    else {
      const np = others["numpy"];
      const worstLoop = Math.max(relDiff(loop.final, ours.final), relDiff(loop.checksum, ours.checksum));
      if (!(worstLoop <= 1e-12)) allAgree = false;
      const best = (r: RunResult) => r.seconds;
      const mid = (r: RunResult) => r.medianSeconds ?? Number.NaN;
      userRows.push([
        fmtN(n),
        `${ms(loop.seconds)} / ${ms(loop.medianSeconds)}`,
        `${ms(ours.seconds)} / ${ms(ours.medianSeconds)}`,
        np === undefined ? "-" : `${ms(np.seconds)} / ${ms(np.medianSeconds)}`,
        np === undefined ? "-" : `${ratio(best(np), best(loop))} / ${ratio(mid(np), mid(loop))}`,
        np === undefined ? "-" : `${ratio(best(np), best(ours))} / ${ratio(mid(np), mid(ours))}`,
        `${worstLoop <= 1e-12 ? "yes" : "NO"} (${worstLoop.toExponential(0)})`,
      ]);
      if (n === 2e6 && np !== undefined) {
        userAt2e6.loop = [best(np) / best(loop), mid(np) / mid(loop)];
        userAt2e6.fused = [best(np) / best(ours), mid(np) / mid(ours)];
      }
    }
  }
  // The summary row: the same four numbers on every side, no per-bar output.
  const sum: Record<string, RunResult | undefined> = {};
  const oursSum = run(process.execPath, ["--import", "tsx", "--expose-gc", join(here, "backtestWorker.ts"), "ours-summary", file, String(n), String(reps(n, 2e7))]);
  if (typeof oursSum === "string") notes.push(`n=${n}: ours-summary ${oursSum}`);
  else sum["ours"] = oursSum;
  if (pythonOk) {
    for (const impl of ["pandas", "numpy"]) {
      const r = run(PYTHON, [join(here, "backtest_pandas.py"), `${impl}-summary`, file, String(n), String(reps(n, 2e7))]);
      if (typeof r === "string") notes.push(`n=${n}: ${impl}-summary ${r}`);
      else sum[impl] = r;
    }
  }
  {
    const r = run(process.execPath, ["--import", "tsx", "--expose-gc", join(here, "backtestWorker.ts"), "floor-summary", file, String(n), String(reps(n, 2e7))]);
    if (typeof r === "string") notes.push(`n=${n}: floor-summary ${r}`);
    else sum["floor"] = r;
  }
  if (nativeOk) {
    const r = run(nativeExe, [file, String(n), String(reps(n, 2e7)), "summary"]);
    if (typeof r === "string") notes.push(`n=${n}: native-summary ${r}`);
    else sum["native"] = r;
  }
  const os = sum["ours"];
  if (os !== undefined) {
    let worstSum = 0;
    let tradesAgree = true;
    for (const r of Object.values(sum)) {
      if (r === undefined) continue;
      for (const k of ["totalReturn", "maxDrawdown", "sharpe"] as const) worstSum = Math.max(worstSum, relDiff(r[k] ?? Number.NaN, os[k] ?? Number.NaN) || 0);
      if (r.trades !== os.trades) tradesAgree = false;
    }
    const agreeSum = worstSum <= 1e-9 && tradesAgree;
    if (!agreeSum) allAgree = false;
    if (n === 2e6) {
      if (sum["pandas"] !== undefined) summaryAt2e6.pandas = sum["pandas"].seconds / os.seconds;
      if (sum["numpy"] !== undefined) summaryAt2e6.numpy = sum["numpy"].seconds / os.seconds;
      if (sum["numpy"] !== undefined && sum["floor"] !== undefined) summaryAt2e6.floorVsNumpy = sum["numpy"].seconds / sum["floor"].seconds;
      if (sum["numpy"] !== undefined && sum["native"] !== undefined) summaryAt2e6.nativeVsNumpy = sum["numpy"].seconds / sum["native"].seconds;
    }
    summaryRows.push([
      fmtN(n),
      ms(os.seconds),
      rate(n, os.seconds),
      mb(os.peakBytes),
      ms(sum["pandas"]?.seconds),
      ms(sum["numpy"]?.seconds),
      ms(sum["floor"]?.seconds),
      ms(sum["native"]?.seconds),
      ratio(sum["pandas"]?.seconds, os.seconds),
      ratio(sum["numpy"]?.seconds, os.seconds),
      ratio(os.seconds, sum["floor"]?.seconds ?? Number.NaN),
      `${agreeSum ? "yes" : "NO"} (${worstSum.toExponential(0)}, trades ${os.trades}${tradesAgree ? "" : " differ"})`,
    ]);
  }
  rmSync(file, { force: true });
}
rmSync(dir, { recursive: true, force: true });

const header = [
  "bars",
  "ours",
  "ours: replay + backtest",
  "ours bars/s",
  "ours peak",
  "pandas",
  "pandas: score + backtest",
  "numpy",
  "danfo",
  "floor (hand-written TS)",
  "native (floor in C)",
  "pandas/ours",
  "numpy/ours",
  "danfo/ours",
  "ours/floor",
  "backtest only: pandas/ours",
  "pandas peak",
  "danfo peak",
  "agree (max rel diff)",
];
console.log(`| ${header.join(" | ")} |`);
console.log(`|${header.map(() => "---").join("|")}|`);
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
const summaryHeader = [
  "bars",
  "ours (outputs: [\"metrics\"])",
  "ours bars/s",
  "ours peak",
  "pandas",
  "numpy",
  "floor (hand-fused TS)",
  "native (C)",
  "pandas/ours",
  "numpy/ours",
  "ours/floor",
  "agree (max rel diff)",
];
console.log("");
console.log("summary row: total return, max drawdown, annualised Sharpe, trades; no per-bar output on any side");
console.log(`| ${summaryHeader.join(" | ")} |`);
console.log(`|${summaryHeader.map(() => "---").join("|")}|`);
for (const r of summaryRows) console.log(`| ${r.join(" | ")} |`);
const userHeader = ["bars", "ours, the path users write: replay, a loop over .label, backtest({ position }) (best / median)", "ours, fused: backtest({ signal: replay }) (best / median)", "numpy (best / median)", "numpy/ours, users' path (best / median)", "numpy/ours, fused (best / median)", "users' path agrees with fused"];
console.log("");
console.log("the path users write (equity column, as the equity row), best and median run of each side");
console.log(`| ${userHeader.join(" | ")} |`);
console.log(`|${userHeader.map(() => "---").join("|")}|`);
for (const r of userRows) console.log(`| ${r.join(" | ")} |`);
for (const note of notes) console.log(note);
if (n2(oursTimes)) {
  const [[n1, t1], [nk, tk]] = [oursTimes[0] as [number, number], oursTimes[oursTimes.length - 1] as [number, number]];
  const slope = Math.log(tk / t1) / Math.log(nk / n1);
  const perBar = oursTimes.map(([n, t]) => `${fmtN(n)}: ${((t / n) * 1e9).toFixed(0)} ns`).join(", ");
  // Slope between consecutive sizes too: the end-to-end slope hides fixed costs at small sizes
  // and memory effects at large ones (arrays above 32 MB are fresh pages at every run).
  const steps = oursTimes.slice(1).map(([n, t], j) => {
    const [np, tp] = oursTimes[j] as [number, number];
    return `${fmtN(np)}->${fmtN(n)}: ${(Math.log(t / tp) / Math.log(n / np)).toFixed(2)}`;
  });
  const memPerBar = oursPeaks.map(([n, b]) => `${fmtN(n)}: ${(b / n).toFixed(0)} B`).join(", ");
  console.log(`peak memory per bar (ours, over the loaded data): ${memPerBar}`);
  console.log(`growth (ours): time per bar ${perBar}; log-log slope ${slope.toFixed(2)} from ${fmtN(n1)} to ${fmtN(nk)} (1.00 = linear); by step ${steps.join(", ")}`);
}
if (sizes.includes(2e6)) {
  const verdict = (x: number | undefined, target: number) => (x === undefined ? "not run" : `${x.toFixed(1)}x (target >= ${target}x: ${x >= target ? "met" : "NOT met"})`);
  console.log(`targets at 2e6 bars, equity row: vs pandas ${verdict(at2e6.pandas, 3)}; vs numpy ${verdict(at2e6.numpy, 5)}; vs danfo ${verdict(at2e6.danfo, 100)}`);
  const pair = (x: [number, number] | undefined, what: string) =>
    x === undefined ? `${what} not run` : `${what} ${x[0].toFixed(1)}x best (target >= 5x: ${x[0] >= 5 ? "met" : "NOT met"}), ${x[1].toFixed(1)}x median (target >= 3x: ${x[1] >= 3 ? "met" : "NOT met"})`;
  console.log(`targets at 2e6 bars vs numpy: ${pair(userAt2e6.loop, "the users' path")}; ${pair(userAt2e6.fused, "backtest({ signal })")}`);
  console.log(`targets at 2e6 bars, summary row: vs pandas ${verdict(summaryAt2e6.pandas, 3)}; vs numpy ${verdict(summaryAt2e6.numpy, 5)}`);
  if (summaryAt2e6.floorVsNumpy !== undefined) console.log(`summary row: the hand-fused floor (TS) is ${summaryAt2e6.floorVsNumpy.toFixed(1)}x numpy, native C ${summaryAt2e6.nativeVsNumpy?.toFixed(1) ?? "-"}x`);
  if (at2e6.floorVsNumpy !== undefined) console.log(`the floor, the fastest TypeScript found for this strategy (hand-written, not the library), is ${at2e6.floorVsNumpy.toFixed(1)}x numpy at 2e6 bars`);
  if (at2e6.nativeVsNumpy !== undefined) console.log(`the same floor in C (cc -O3 -march=native) is ${at2e6.nativeVsNumpy.toFixed(1)}x numpy at 2e6 bars`);
}
console.log(`times: best of several runs, ${process.env["BENCH_CLOCK"] === "wall" ? "wall clock" : "process CPU time (BENCH_CLOCK=wall for wall clock)"}, each implementation in its own process; peak = max RSS over the loaded data. danfo run up to ${fmtN(danfoMax)} bars.`);
console.log(`load average at the end: ${loadavg().map((x) => x.toFixed(1)).join(" ")} on ${cpus().length} cores (times are only comparable on an idle machine)`);
if (!allAgree) {
  console.log("the implementations DISAGREE (or a run failed): see above");
  process.exit(1);
}

function n2(x: readonly unknown[]): boolean {
  return x.length >= 2;
}
