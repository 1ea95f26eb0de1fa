/**
 * `npm run bench -- sweep`: a composite sweep of 128 variants (32 random weight
 * vectors x 4 thresholds) over 500k seeded one-minute bars (the backtest bench's
 * generator), 5 bps fee + 2 bps slippage, per-bar funding:
 *   (a) ours: sweepComposite on the calling thread (workers 0) and on a pool of
 *       every core (workers = availableParallelism());
 *   (b) numpy: the same sweep vectorised (test/bench/sweep_numpy.py under Debian's
 *       /usr/bin/python3: components scored once, one vectorised pass per variant);
 *   (c) native: the engine's own arithmetic for the same sweep written in C
 *       (test/bench/sweep_native.c, a yardstick, compiled with `cc -O3 -march=native
 *       -ffp-contract=off` when a C compiler is present, skipped with a note otherwise),
 *       on one thread and on every core (pthreads): what native code does with this work
 *       here. It must agree with ours (final equity to 1e-12 relative, trades equal).
 * Prints bar-evaluations per second (variants x bars / wall seconds, best of REPS)
 * and the ratio to numpy; the runs must agree (total return within 1e-9 relative,
 * trades equal). Targets (issue 20): >= 2e8 bar-evaluations/s on the calling thread,
 * >= 3e8 on 2 workers (>= 5x numpy). Wall time (the pool's point is parallelism), and
 * process CPU time beside it (all threads: on a shared machine the rate per CPU-second is
 * the one that holds), with the load average. BENCH_SWEEP_BARS, BENCH_SWEEP_REPS override size and reps.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { randomSimplex, sweepComposite, type SweepResult } from "../../src/index.js";
import { FEE_BPS, SLIPPAGE_BPS, generateBars, writeBars } from "./backtestData.js";

const here = dirname(fileURLToPath(import.meta.url));
const N = Math.round(Number(process.env["BENCH_SWEEP_BARS"] ?? 5e5));
const REPS = Number(process.env["BENCH_SWEEP_REPS"] ?? 3);
const weights = randomSimplex(32, { seed: 2024 });
const thresholds = [0.05, 0.1, 0.15, 0.2];
const VARIANTS = weights.length * thresholds.length;
const PPY = 525_600;
const PYTHON = "/usr/bin/python3";

const bars = generateBars(N, 42);
const input = { close: bars.close, imbalance: bars.imbalance, funding: bars.funding, basis_spread: bars.basis_spread, momentum_5m: bars.momentum_5m, gas: bars.gas };
const options = { weights, thresholds, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, barFunding: bars.funding_bar, periodsPerYear: PPY };

async function timed(workers: number): Promise<{ seconds: number; cpuSeconds: number; result: SweepResult }> {
  let best = Number.POSITIVE_INFINITY;
  let bestCpu = Number.POSITIVE_INFINITY;
  let result: SweepResult | undefined;
  for (let r = 0; r < REPS; r++) {
    const t0 = performance.now();
    const u0 = process.cpuUsage();
    result = await sweepComposite(input, { ...options, workers });
    const u = process.cpuUsage(u0);
    best = Math.min(best, (performance.now() - t0) / 1e3);
    bestCpu = Math.min(bestCpu, (u.user + u.system) / 1e6);
  }
  return { seconds: best, cpuSeconds: bestCpu, result: result as SweepResult };
}

const evals = VARIANTS * N;
const fmt = (s: number): string => `${(evals / s / 1e6).toFixed(0)} M/s`;
console.log(`sweep: ${VARIANTS} variants x ${N} bars = ${evals.toExponential(2)} bar-evaluations; ${cpus().length} cpus, load ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
const single = await timed(0);
const cores = availableParallelism();
const pool = await timed(cores);
console.log(`ours, calling thread:      ${single.seconds.toFixed(2)} s  ${fmt(single.seconds)}   (process CPU ${single.cpuSeconds.toFixed(2)} s: ${fmt(single.cpuSeconds)} per CPU-second; target >= 200 M/s)`);
console.log(`ours, ${cores} worker threads:    ${pool.seconds.toFixed(2)} s  ${fmt(pool.seconds)}   (process CPU ${pool.cpuSeconds.toFixed(2)} s, every thread: ${fmt(pool.cpuSeconds)} per CPU-second; target >= 300 M/s)`);

const dir = mkdtempSync(join(tmpdir(), "milab-sweep-bench-"));
try {
  const file = join(dir, "bars.f64");
  writeBars(file, bars);
  nativeRows(dir, file);
  const spec = join(dir, "variants.json");
  writeFileSync(spec, JSON.stringify({ weights, thresholds, cost: (FEE_BPS + SLIPPAGE_BPS) / 1e4, periodsPerYear: PPY }));
  const res = spawnSync(PYTHON, [join(here, "sweep_numpy.py"), file, String(N), spec, String(REPS)], { encoding: "utf8", maxBuffer: 64 << 20 });
  // numpy again on process CPU time: on a shared machine the ratio per CPU-second is the one that holds
  const cpuRes = spawnSync(PYTHON, [join(here, "sweep_numpy.py"), file, String(N), spec, String(REPS)], { encoding: "utf8", maxBuffer: 64 << 20, env: { ...process.env, BENCH_CLOCK: "cpu" } });
  if (res.status !== 0) {
    console.log(`numpy: skipped (${PYTHON} with numpy failed: ${(res.stderr || "").trim().split("\n").pop()})`);
  } else {
    const np = JSON.parse(res.stdout.trim().split("\n").pop() as string) as { seconds: number; totalReturn: number[]; trades: number[]; sharpeRatio: number[] };
    console.log(`numpy, one process:        ${np.seconds.toFixed(2)} s  ${fmt(np.seconds)}`);
    console.log(`ratio to numpy: calling thread ${(np.seconds / single.seconds).toFixed(2)}x, ${cores} workers ${(np.seconds / pool.seconds).toFixed(2)}x   (target >= 5x on 2 workers)`);
    if (cpuRes.status === 0) {
      const npCpu = (JSON.parse(cpuRes.stdout.trim().split("\n").pop() as string) as { seconds: number }).seconds;
      console.log(`per CPU-second: numpy ${npCpu.toFixed(2)} s ${fmt(npCpu)}, ours calling thread ${fmt(single.cpuSeconds)}: ${(npCpu / single.cpuSeconds).toFixed(2)}x numpy   (one-thread target >= 200 M/s)`);
    }
    const c = pool.result.columns;
    let worst = 0;
    let tradesDiffer = 0;
    for (let v = 0; v < VARIANTS; v++) {
      const a = c["totalReturn"]?.[v] as number;
      const b = np.totalReturn[v] as number;
      worst = Math.max(worst, Math.abs(a - b) / Math.max(1e-12, Math.abs(1 + a)));
      if (c["trades"]?.[v] !== np.trades[v]) tradesDiffer++;
    }
    console.log(`agreement with numpy: worst |Δ final equity| / equity ${worst.toExponential(1)}, trades differ on ${tradesDiffer} of ${VARIANTS} variants`);
    if (worst > 1e-9 || tradesDiffer > 0) {
      console.log("FAIL: the sweep and numpy disagree");
      process.exitCode = 1;
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * (c) the sweep in C (sweep_native.c): compiled here, run on one thread and on every core, its
 * agreement with ours printed (final equity to 1e-12 relative, trades equal: else the bench fails).
 */
function nativeRows(dir: string, file: string): void {
  const exe = join(dir, "sweep_native");
  // -ffp-contract=off: no fused multiply-adds, so C rounds as JavaScript does (the engine's numbers).
  const cc = spawnSync("cc", ["-O3", "-march=native", "-ffp-contract=off", "-pthread", "-o", exe, join(here, "sweep_native.c"), "-lm"], { encoding: "utf8" });
  if (cc.status !== 0) {
    console.log(`native: skipped (no C compiler (cc) or it failed; apt-get install gcc) ${(cc.stderr ?? "").trim().split("\n")[0] ?? ""}`);
    return;
  }
  // The spec: k vectors thresholds initialCash costBps periodsPerYear, each vector as its count and
  // (component, weight) pairs in its key order (component j = the bars' column j + 1), the thresholds.
  const names = ["imbalance", "funding", "basis_spread", "momentum_5m", "gas"];
  const lines = [`${names.length} ${weights.length} ${thresholds.length} 10000 ${FEE_BPS + SLIPPAGE_BPS} ${PPY}`];
  for (const w of weights) lines.push(`${Object.keys(w).length} ${Object.entries(w).map(([c, x]) => `${names.indexOf(c)} ${String(x)}`).join(" ")}`);
  lines.push(thresholds.map(String).join(" "));
  const spec = join(dir, "native.spec");
  writeFileSync(spec, `${lines.join("\n")}\n`);
  const c = single.result.columns;
  for (const threads of [1, cores]) {
    const res = spawnSync(exe, [file, String(N), spec, String(REPS), String(threads)], { encoding: "utf8", maxBuffer: 64 << 20 });
    if (res.status !== 0) {
      console.log(`native, ${threads} thread(s): failed (${(res.stderr || "").trim()})`);
      process.exitCode = 1;
      continue;
    }
    const nat = JSON.parse(res.stdout.trim()) as { seconds: number; cpuSeconds: number; totalReturn: number[]; trades: number[] };
    let worst = 0;
    let tradesDiffer = 0;
    for (let v = 0; v < VARIANTS; v++) {
      // final equity / initial cash (0 for a ruined variant: equal is 0 apart)
      const a = 1 + (c["totalReturn"]?.[v] as number);
      const b = 1 + (nat.totalReturn[v] as number);
      worst = Math.max(worst, a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b)));
      if (c["trades"]?.[v] !== nat.trades[v]) tradesDiffer++;
    }
    const what = threads === 1 ? `native C, one thread:      ${nat.seconds.toFixed(2)} s  ${fmt(nat.seconds)}   (process CPU time)` : `native C, ${threads} threads:       ${nat.seconds.toFixed(2)} s  ${fmt(nat.seconds)}   (wall; CPU of all threads ${nat.cpuSeconds.toFixed(2)} s)`;
    console.log(`${what}; agrees with ours: worst |Δ final equity| / equity ${worst.toExponential(1)}, trades differ on ${tradesDiffer} of ${VARIANTS}`);
    if (threads === 1) console.log(`native C, one thread, is ${(single.cpuSeconds / nat.seconds).toFixed(2)}x ours per CPU-second`);
    if (worst > 1e-12 || tradesDiffer > 0) {
      console.log("FAIL: the sweep and its native yardstick disagree");
      process.exitCode = 1;
    }
  }
}
