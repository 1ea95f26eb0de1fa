/**
 * `npm run bench -- yardsticks`: issue 32's fair yardsticks, side by side in one
 * run, every side in fresh processes (BENCH_PROCS, 5 a side), the sides'
 * order rotated from round to round, each process timing REPS runs after its first call, which
 * is timed apart on both sides (numba's JIT compile, ours' compile of the generated loops):
 * - ours (the library), numba (Debian's python3-numba, test/bench/yardsticks_numba.py,
 *   the engine's arithmetic in @njit loops, compile time reported apart) and
 *   C (`cc -O3 -march=native -ffp-contract=off`: backtest_native.c, sweep_native.c);
 * - figures: the backtest's equity column (a fresh column per call, the default, and the caller's
 *   column reused, `into`) and its summary row at 2e6 bars, the
 *   users' path (replay labels, their own loop, `backtest({ position })`; fresh columns, and the
 *   guide's loop at one length: the label, position and equity columns reused through `into`), the
 *   128-variant sweep at 5e5 bars on one thread and two (wall), and the
 *   guide's SMA cross through `sweepStrategy` over a 20 x 20 grid at 5e5 bars, as written per variant
 *   (sma) and written the guide's way for a grid, each rolling mean once per length (smashared: numba
 *   given the same sharing, and its per-variant form beside it);
 * - every side's numbers are checked against ours bit for bit: the 16 MB equity
 *   column byte for byte, the summary's four numbers, the sweep's 768 and the
 *   grid's 2,400 numbers (a difference fails the bench);
 * - each figure: best run over all processes and the median of the processes'
 *   median runs, process CPU time (wall for the two-thread sweep), and the load
 *   average while that side's processes ran.
 * numpy's figures stay in backtest.bench.ts and sweep.bench.ts. No -ffast-math
 * anywhere (it drops the NaN tests for missing prices and funding).
 * Env: BENCH_PROCS (5), BENCH_BARS (2e6), BENCH_SWEEP_BARS (5e5), BENCH_REPS (5; sweeps 3),
 * BENCH_ONLY (comma list of figures: equity,summary,userpath,sweep,sma,smashared).
 * Needs /usr/bin/python3 with numba (`apt-get install python3-numba`) and gcc; a missing one is skipped with a note.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { randomSimplex } from "../../src/index.js";
import { FEE_BPS, SLIPPAGE_BPS, generateBars, writeBars } from "./backtestData.js";
import { median } from "./median.js";

const here = dirname(fileURLToPath(import.meta.url));
// backtestWorker.ts times its first call apart and runs REPS calls after it, as yardsticks_numba.py does
// (numba's JIT compile is in its first call; V8's compile of the generated loops and their priming in ours).
process.env["BENCH_FIRST_APART"] = "1";
const PROCS = Number(process.env["BENCH_PROCS"] ?? 5);
const N = Math.round(Number(process.env["BENCH_BARS"] ?? 2e6));
const NS = Math.round(Number(process.env["BENCH_SWEEP_BARS"] ?? 5e5));
const REPS = Number(process.env["BENCH_REPS"] ?? 5);
const SWEEP_REPS = Number(process.env["BENCH_REPS"] ?? 3);
const only = process.env["BENCH_ONLY"]?.split(",");
const want = (f: string): boolean => only === undefined || only.includes(f);
const PYTHON = "/usr/bin/python3";
const PPY = 525_600;
const dir = mkdtempSync(join(tmpdir(), "milab-yardsticks-"));

const numbaOk = spawnSync(PYTHON, ["-c", "import numba, numpy"], { encoding: "utf8" }).status === 0;
if (!numbaOk) console.log(`note: ${PYTHON} with numba not found: the numba columns are skipped (apt-get install python3-numba)`);
const cc = (src: string, exe: string, extra: string[] = []): boolean => {
  const r = spawnSync("cc", ["-O3", "-march=native", "-ffp-contract=off", ...extra, "-o", exe, join(here, src), "-lm"], { encoding: "utf8" });
  if (r.status !== 0) console.log(`note: cc failed for ${src}: the C column is skipped (apt-get install gcc) ${(r.stderr ?? "").trim().split("\n")[0] ?? ""}`);
  return r.status === 0;
};
const cBacktest = join(dir, "backtest_native");
const cSweep = join(dir, "sweep_native");
const cOk = cc("backtest_native.c", cBacktest) && cc("sweep_native.c", cSweep, ["-pthread"]);

interface Proc {
  best: number;
  median: number;
  compile?: number;
  /** The median of the process's runs' minor page faults, when its JSON line lists them (`faults`). */
  faults?: number;
  load: number;
  out: Record<string, unknown>;
}
interface Side {
  name: string;
  cmd: string;
  args: string[];
  env?: Record<string, string>;
  /** The process's run times from its JSON line: [best, median, numba's compile]. */
  times: (o: Record<string, unknown>) => [number, number, number | undefined];
}

const spawnJson = (cmd: string, args: string[], env: Record<string, string> = {}): Record<string, unknown> => {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 256 << 20, env: { ...process.env, TZ: "UTC", ...env } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status}): ${(r.stderr || r.stdout).trim().split("\n").slice(-3).join(" | ")}`);
  return JSON.parse(r.stdout.trim().split("\n").pop() as string) as Record<string, unknown>;
};
/** PROCS rounds, the sides rotated; the first round's outputs are kept for the checks. */
function rounds(sides: Side[]): Map<string, Proc[]> {
  const out = new Map<string, Proc[]>(sides.map((s) => [s.name, []]));
  for (let r = 0; r < PROCS; r++) {
    for (let j = 0; j < sides.length; j++) {
      const s = sides[(r + j) % sides.length] as Side;
      const load = loadavg()[0] as number;
      const o = spawnJson(s.cmd, s.args, r === 0 ? (s.env ?? {}) : {});
      const [best, med, compile] = s.times(o);
      const f = o["faults"];
      const faults = Array.isArray(f) && f.length > 0 ? median(f as number[]) : undefined;
      (out.get(s.name) as Proc[]).push({ best, median: med, ...(compile === undefined ? {} : { compile }), ...(faults === undefined ? {} : { faults }), load, out: o });
    }
  }
  return out;
}
const ms = (s: number): string => (s >= 1 ? `${s.toFixed(2)} s` : `${(s * 1000).toFixed(1)} ms`);
const stats = (ps: Proc[]): { best: number; median: number; load: string; compile?: string; faults?: number } => {
  const compiles = ps.flatMap((p) => (p.compile === undefined ? [] : [p.compile]));
  const faults = ps.flatMap((p) => (p.faults === undefined ? [] : [p.faults]));
  return {
    best: Math.min(...ps.map((p) => p.best)),
    median: median(ps.map((p) => p.median)),
    load: `${Math.min(...ps.map((p) => p.load)).toFixed(1)}-${Math.max(...ps.map((p) => p.load)).toFixed(1)}`,
    ...(compiles.length === 0 ? {} : { compile: `${ms(Math.min(...compiles))} / ${ms(median(compiles))}` }),
    ...(faults.length === 0 ? {} : { faults: median(faults) }),
  };
};
let failed = false;
const verdicts: string[] = [];
function table(title: string, results: Map<string, Proc[]>, unit: (s: number) => string, check: Map<string, string>): void {
  console.log(`\n${title} (${PROCS} fresh processes a side; best run / median of the processes' median runs)`);
  console.log("| side | best | median | first call apart: JIT compile + one run (best / median) | page faults a run (median) | load 1-min while run | same numbers as ours |");
  console.log("|---|---|---|---|---|---|---|");
  for (const [name, ps] of results) {
    const s = stats(ps);
    console.log(`| ${name} | ${unit(s.best)} | ${unit(s.median)} | ${s.compile ?? "-"} | ${s.faults === undefined ? "-" : Math.round(s.faults)} | ${s.load} | ${check.get(name) ?? "-"} |`);
  }
}
const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;
const workerArgs = (...a: string[]): string[] => ["--import", "tsx", "--expose-gc", ...a];
/** Ours' backtest workers time a process's first call (V8's compile and one run) apart, as numba's (BENCH_FIRST_APART, set below). */
const tsTimes = (o: Record<string, unknown>): [number, number, number | undefined] => [o["seconds"] as number, o["medianSeconds"] as number, o["firstSeconds"] as number | undefined];
const pyTimes = (o: Record<string, unknown>): [number, number, number] => [o["seconds"] as number, o["medianSeconds"] as number, o["compileSeconds"] as number];
const sweepTimes = (o: Record<string, unknown>): [number, number, number | undefined] => {
  const t = o["times"] as number[];
  return [Math.min(...t), median(t), o["compileSeconds"] as number | undefined];
};

console.log(`yardsticks: ${cpus().length} cpus, load ${loadavg().map((x) => x.toFixed(1)).join(" ")}; ours = the library (tsx), numba = ${numbaOk ? "Debian python3-numba" : "skipped"}, C = ${cOk ? "cc -O3 -march=native -ffp-contract=off" : "skipped"}`);
try {
  const file = join(dir, "bars.f64");
  writeBars(file, generateBars(N, 42));
  const same = (a: string, b: string): boolean => Buffer.compare(readFileSync(a), readFileSync(b)) === 0;

  // ---- 1. the equity column, 2e6 bars
  if (want("equity")) {
    const d = (k: string): string => join(dir, `equity-${k}.f64`);
    const sides: Side[] = [{ name: "ours: backtest({ signal: replay })", cmd: process.execPath, args: workerArgs(join(here, "backtestWorker.ts"), "ours", file, String(N), String(REPS)), env: { BENCH_DUMP: d("ours") }, times: tsTimes }];
    sides.push({ name: "ours, into: { equity } (the caller's column reused)", cmd: process.execPath, args: workerArgs(join(here, "backtestWorker.ts"), "ours-into", file, String(N), String(REPS)), env: { BENCH_DUMP: d("ours-into") }, times: tsTimes });
    if (numbaOk) sides.push({ name: "numba", cmd: PYTHON, args: [join(here, "yardsticks_numba.py"), "equity", file, String(N), String(REPS)], env: { BENCH_DUMP: d("numba") }, times: pyTimes });
    if (cOk) sides.push({ name: "C", cmd: cBacktest, args: [file, String(N), String(REPS)], env: { BENCH_DUMP: d("c") }, times: tsTimes });
    const res = rounds(sides);
    const check = new Map<string, string>();
    for (const [name, k] of [["ours, into: { equity } (the caller's column reused)", "ours-into"], ["numba", "numba"], ["C", "c"]] as const) {
      if (!res.has(name)) continue;
      const ok = same(d("ours"), d(k));
      check.set(name, ok ? `equity column byte for byte (${N * 8} bytes)` : "NO: the equity columns differ");
      if (!ok) failed = true;
    }
    table(`backtest, ${N} bars, equity column (process CPU time)`, res, ms, check);
    const o = stats(res.get(sides[0]?.name as string) as Proc[]);
    const nb = res.has("numba") ? stats(res.get("numba") as Proc[]) : undefined;
    if (nb !== undefined) verdicts.push(`equity row: ours median ${ratio(o.median, nb.median)} numba's median (target <= 1.6x), ${ratio(o.median, o.best)} our best (target <= 1.25x)`);
    const oi = stats(res.get(sides[1]?.name as string) as Proc[]);
    if (nb !== undefined) verdicts.push(`equity row, into: ours median ${ratio(oi.median, nb.median)} numba's median, ${ratio(oi.median, oi.best)} its best (the same targets, a reused column)`);
  }

  // ---- 2. the summary row
  if (want("summary")) {
    const sides: Side[] = [{ name: "ours: outputs: [\"metrics\"]", cmd: process.execPath, args: workerArgs(join(here, "backtestWorker.ts"), "ours-summary", file, String(N), String(REPS)), times: tsTimes }];
    if (numbaOk) sides.push({ name: "numba", cmd: PYTHON, args: [join(here, "yardsticks_numba.py"), "summary", file, String(N), String(REPS)], times: pyTimes });
    if (cOk) sides.push({ name: "C", cmd: cBacktest, args: [file, String(N), String(REPS), "summary"], times: tsTimes });
    const res = rounds(sides);
    const ours = (res.get(sides[0]?.name as string) as Proc[])[0]?.out as Record<string, unknown>;
    const check = new Map<string, string>();
    for (const name of ["numba", "C"]) {
      const o = res.get(name)?.[0]?.out;
      if (o === undefined) continue;
      const ok = ["totalReturn", "maxDrawdown", "sharpe", "trades"].every((k) => Object.is(Number(o[k]), Number(ours[k])));
      check.set(name, ok ? `all four numbers (Sharpe ${String(ours["sharpe"])}, trades ${String(ours["trades"])})` : `NO: ${JSON.stringify(o)}`);
      if (!ok) failed = true;
    }
    table(`backtest, ${N} bars, summary row: total return, max drawdown, Sharpe, trades (process CPU time)`, res, ms, check);
    const o = stats(res.get(sides[0]?.name as string) as Proc[]);
    if (res.has("numba")) verdicts.push(`summary row: ours median ${ratio(o.median, stats(res.get("numba") as Proc[]).median)} numba's median`);
  }

  // ---- 3. the users' path
  if (want("userpath")) {
    const d = (k: string): string => join(dir, `user-${k}.f64`);
    const sides: Side[] = [{ name: "ours: replay .label, own loop, backtest({ position })", cmd: process.execPath, args: workerArgs(join(here, "backtestWorker.ts"), "ours-loop", file, String(N), String(REPS)), env: { BENCH_DUMP: d("ours") }, times: tsTimes }];
    const intoName = "ours, the guide's loop at one length: into: { label }, own position column, into: { equity }";
    sides.push({ name: intoName, cmd: process.execPath, args: workerArgs(join(here, "backtestWorker.ts"), "ours-loop-into", file, String(N), String(REPS)), env: { BENCH_DUMP: d("ours-into") }, times: tsTimes });
    if (numbaOk) sides.push({ name: "numba", cmd: PYTHON, args: [join(here, "yardsticks_numba.py"), "userpath", file, String(N), String(REPS)], env: { BENCH_DUMP: d("numba") }, times: pyTimes });
    const res = rounds(sides);
    const check = new Map<string, string>();
    const intoOk = same(d("ours"), d("ours-into"));
    check.set(intoName, intoOk ? "equity column byte for byte" : "NO: the equity columns differ");
    if (!intoOk) failed = true;
    if (res.has("numba")) {
      const ok = same(d("ours"), d("numba"));
      check.set("numba", ok ? "equity column byte for byte" : "NO: the equity columns differ");
      if (!ok) failed = true;
      const nb = stats(res.get("numba") as Proc[]).median;
      verdicts.push(`users' path: ours median ${ratio(stats(res.get(sides[0]?.name as string) as Proc[]).median, nb)} numba's median (target <= 2x)`);
      verdicts.push(`users' path, the guide's loop (into): ours median ${ratio(stats(res.get(intoName) as Proc[]).median, nb)} numba's median (target <= 2x)`);
    }
    table(`the users' path, ${N} bars, equity column (process CPU time)`, res, ms, check);
  }

  // ---- 4. the sweep, 32 weight vectors x 4 thresholds at NS bars; 5. the SMA-cross grid
  const sweepFile = join(dir, "sweep.f64");
  if (want("sweep") || want("sma") || want("smashared")) writeBars(sweepFile, generateBars(NS, 42));
  const spec = { seed: 2024, vectors: 32, thresholds: [0.05, 0.1, 0.15, 0.2], fast: Array.from({ length: 20 }, (_, i) => 5 + i), slow: Array.from({ length: 20 }, (_, i) => 30 + 10 * i), periodsPerYear: PPY };
  const specPath = join(dir, "spec.json");
  writeFileSync(specPath, JSON.stringify(spec));
  const names = ["imbalance", "funding", "basis_spread", "momentum_5m", "gas"];
  const weights = randomSimplex(spec.vectors, { seed: spec.seed });
  const pySpecPath = join(dir, "spec-numba.json");
  writeFileSync(pySpecPath, JSON.stringify({ vectors: weights.map((w) => Object.entries(w).map(([c, x]) => [names.indexOf(c), x])), thresholds: spec.thresholds, initialCash: 10000, costBps: FEE_BPS + SLIPPAGE_BPS, periodsPerYear: PPY, fast: spec.fast, slow: spec.slow }));
  const cSpecPath = join(dir, "spec-c.txt");
  writeFileSync(cSpecPath, `${[`${names.length} ${weights.length} ${spec.thresholds.length} 10000 ${FEE_BPS + SLIPPAGE_BPS} ${PPY}`, ...weights.map((w) => `${Object.keys(w).length} ${Object.entries(w).map(([c, x]) => `${names.indexOf(c)} ${String(x)}`).join(" ")}`), spec.thresholds.map(String).join(" ")].join("\n")}\n`);
  /** Every metric of every variant as numbers: ours and numba as [variant][metric] decimal strings, C as metric -> list. */
  const grid = (o: Record<string, unknown>): number[][] => {
    if (Array.isArray(o["metrics"])) return (o["metrics"] as string[][]).map((row) => row.map((x) => (x === "nan" ? Number.NaN : x === "inf" ? Infinity : x === "-inf" ? -Infinity : Number(x))));
    const ms6 = ["totalReturn", "sharpeRatio", "maxDrawdown", "trades", "turnover", "exposure"].map((k) => o[k] as number[]);
    return (ms6[0] as number[]).map((_, v) => ms6.map((m) => m[v] as number));
  };
  const compareGrid = (a: number[][], b: number[][]): string => {
    let bad = 0;
    let count = 0;
    for (let v = 0; v < Math.max(a.length, b.length); v++) for (let m = 0; m < 6; m++, count++) if (!Object.is(a[v]?.[m], b[v]?.[m])) bad++;
    if (bad > 0) failed = true;
    return bad === 0 ? `all ${count} numbers` : `NO: ${bad} of ${count} differ`;
  };
  const evals = (spec.vectors * spec.thresholds.length * NS) / 1e6;
  const rate = (s: number): string => `${ms(s)} = ${(evals / s).toFixed(0)} M bar-evals/s`;
  if (want("sweep")) {
    const sides: Side[] = [{ name: "ours: sweepComposite, calling thread", cmd: process.execPath, args: workerArgs(join(here, "yardstickSweepWorker.ts"), "sweep", sweepFile, String(NS), String(SWEEP_REPS), specPath), times: sweepTimes }];
    if (numbaOk) sides.push({ name: "numba", cmd: PYTHON, args: [join(here, "yardsticks_numba.py"), "sweep", sweepFile, String(NS), String(SWEEP_REPS), pySpecPath], times: sweepTimes });
    if (cOk) sides.push({ name: "C", cmd: cSweep, args: [sweepFile, String(NS), cSpecPath, String(SWEEP_REPS), "1"], times: (o) => [o["seconds"] as number, o["seconds"] as number, undefined] });
    const res = rounds(sides);
    const ours = grid((res.get(sides[0]?.name as string) as Proc[])[0]?.out as Record<string, unknown>);
    const check = new Map<string, string>();
    for (const name of ["numba", "C"]) {
      const o = res.get(name)?.[0]?.out;
      if (o !== undefined) check.set(name, compareGrid(grid(o), ours));
    }
    table(`sweep, ${spec.vectors * spec.thresholds.length} variants x ${NS} bars, one thread (process CPU time)`, res, rate, check);
    const o = stats(res.get(sides[0]?.name as string) as Proc[]);
    verdicts.push(`sweep, one thread: ours best ${(evals / o.best).toFixed(0)} M/s, median ${(evals / o.median).toFixed(0)} M/s (target >= 150)`);
    const sides2: Side[] = [{ name: "ours: sweepComposite, 2 workers", cmd: process.execPath, args: workerArgs(join(here, "yardstickSweepWorker.ts"), "sweep2", sweepFile, String(NS), String(SWEEP_REPS), specPath), times: sweepTimes }];
    if (numbaOk) sides2.push({ name: "numba, parallel=True (prange over weight vectors)", cmd: PYTHON, args: [join(here, "yardsticks_numba.py"), "sweep2", sweepFile, String(NS), String(SWEEP_REPS), pySpecPath], times: sweepTimes });
    if (cOk) sides2.push({ name: "C, 2 threads", cmd: cSweep, args: [sweepFile, String(NS), cSpecPath, String(SWEEP_REPS), "2"], times: (o) => [o["seconds"] as number, o["seconds"] as number, undefined] });
    const res2 = rounds(sides2);
    const check2 = new Map<string, string>();
    for (const [name, ps] of res2) check2.set(name, compareGrid(grid((ps[0] as Proc).out), ours));
    table(`sweep, two threads (wall time)`, res2, rate, check2);
    const o2 = stats(res2.get(sides2[0]?.name as string) as Proc[]);
    verdicts.push(`sweep, two threads: ours best ${(evals / o2.best).toFixed(0)} M/s, median ${(evals / o2.median).toFixed(0)} M/s (target >= 250)`);
  }
  if (want("sma")) {
    const sides: Side[] = [{ name: "ours: sweepStrategy(smaCross into out), calling thread", cmd: process.execPath, args: workerArgs(join(here, "yardstickSweepWorker.ts"), "sma", sweepFile, String(NS), String(SWEEP_REPS), specPath), times: sweepTimes }];
    if (numbaOk) sides.push({ name: "numba", cmd: PYTHON, args: [join(here, "yardsticks_numba.py"), "sma", sweepFile, String(NS), String(SWEEP_REPS), pySpecPath], times: sweepTimes });
    const res = rounds(sides);
    const check = new Map<string, string>();
    const o = res.get("numba")?.[0]?.out;
    if (o !== undefined) check.set("numba", compareGrid(grid(o), grid((res.get(sides[0]?.name as string) as Proc[])[0]?.out as Record<string, unknown>)));
    table(`SMA-cross grid, ${spec.fast.length} x ${spec.slow.length} variants x ${NS} bars, the guide's smaCross (process CPU time)`, res, ms, check);
    if (res.has("numba")) verdicts.push(`SMA grid: ours median ${ratio(stats(res.get(sides[0]?.name as string) as Proc[]).median, stats(res.get("numba") as Proc[]).median)} numba's median CPU (target <= 1.1x)`);
  }
  if (want("smashared")) {
    // The grid's documented way (docs/guide.md): each rolling mean once per length (`shared`), a compare per variant;
    // numba given the same sharing (a mean per unique window, as vectorbt computes them). The same numbers as the plain grid.
    const sides: Side[] = [{ name: "ours: sweepStrategy(smaCrossShared: means once per length, `shared`), calling thread", cmd: process.execPath, args: workerArgs(join(here, "yardstickSweepWorker.ts"), "sma-shared", sweepFile, String(NS), String(SWEEP_REPS), specPath), times: sweepTimes }];
    if (numbaOk) sides.push({ name: "numba, means once per window", cmd: PYTHON, args: [join(here, "yardsticks_numba.py"), "sma-shared", sweepFile, String(NS), String(SWEEP_REPS), pySpecPath], times: sweepTimes });
    if (numbaOk) sides.push({ name: "numba, smaCross per variant (the sma figure's)", cmd: PYTHON, args: [join(here, "yardsticks_numba.py"), "sma", sweepFile, String(NS), String(SWEEP_REPS), pySpecPath], times: sweepTimes });
    const res = rounds(sides);
    const ours = grid((res.get(sides[0]?.name as string) as Proc[])[0]?.out as Record<string, unknown>);
    const check = new Map<string, string>();
    for (const s of sides.slice(1)) {
      const o = res.get(s.name)?.[0]?.out;
      if (o !== undefined) check.set(s.name, compareGrid(grid(o), ours));
    }
    table(`SMA-cross grid, ${spec.fast.length} x ${spec.slow.length} variants x ${NS} bars, rolling means shared across variants (process CPU time)`, res, ms, check);
    const o = stats(res.get(sides[0]?.name as string) as Proc[]);
    for (const s of sides.slice(1)) verdicts.push(`SMA grid, shared means: ours median ${ratio(o.median, stats(res.get(s.name) as Proc[]).median)} the median of ${s.name} (target <= 1.1x); best ${ratio(o.best, stats(res.get(s.name) as Proc[]).best)}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log("");
for (const v of verdicts) console.log(v);
console.log(`load average at the end: ${loadavg().map((x) => x.toFixed(1)).join(" ")} on ${cpus().length} cores`);
if (failed) {
  console.log("a yardstick's numbers DIFFER from ours (or a run failed): see above");
  process.exit(1);
}
