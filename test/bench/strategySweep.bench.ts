/**
 * `npm run bench -- strategySweep`: issue 32's user-strategy row. An SMA-cross strategy function
 * written the documented way (docs/guide.md: targets written into the `out` column the sweep
 * passes) swept by `sweepStrategy` over a 20 x 20 grid (fast 5..100 step 5, slow 110..300 step 10)
 * x 500k seeded bars (the backtest bench's close, backtestData.ts), fees 5 + 2 bps, on the calling
 * thread; the same rule from rolling means computed once per length (`shared`); and the same
 * function allocating its own column per variant (the way it was written before), for comparison. Each side in BENCH_STRATEGY_PROCS fresh processes (default 3), process
 * CPU time of the sweep (best and median), the page faults it took (process.resourceUsage's
 * minorPageFault), and the load. Both sides' 2,400 numbers must be equal, bit for bit.
 *
 * One child: `tsx strategySweep.bench.ts child out|shared|alloc BARS` prints one JSON line.
 */
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { sweepStrategy } from "../../src/research/index.js";
import { FEE_BPS, SLIPPAGE_BPS, generateBars } from "./backtestData.js";
import { smaCross, smaCrossShared } from "../support/smaCross.js";
import { median } from "./median.js";

const FAST = Array.from({ length: 20 }, (_, k) => 5 + 5 * k);
const SLOW = Array.from({ length: 20 }, (_, k) => 110 + 10 * k);


/** The same function with a column of its own per variant. */
const smaCrossAlloc = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>): Float64Array => smaCross(c, p, new Float64Array((c["close"] as Float64Array).length));

function cpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

async function child(kind: string, n: number): Promise<void> {
  const bars = generateBars(n, 42);
  const data = { close: bars.close };
  const options = { data, grid: { fast: FAST, slow: SLOW }, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, periodsPerYear: 525_600, workers: 0 };
  const faults0 = process.resourceUsage().minorPageFault;
  const t0 = cpu();
  const r = await sweepStrategy(kind === "out" ? smaCross : kind === "shared" ? smaCrossShared : smaCrossAlloc, options);
  const seconds = cpu() - t0;
  const faults = process.resourceUsage().minorPageFault - faults0;
  const numbers: number[] = [];
  for (const m of ["totalReturn", "sharpeRatio", "maxDrawdown", "trades", "turnover", "exposure"]) numbers.push(...Array.from(r.columns[m] as Float64Array));
  let sum = 0;
  for (const x of numbers) sum += x;
  console.log(JSON.stringify({ seconds, faults, variants: r.length, checksum: sum, first: numbers.slice(0, 6), numbers: Buffer.from(Float64Array.from(numbers).buffer).toString("base64") }));
}

function main(): void {
  const n = Math.round(Number(process.env["BENCH_STRATEGY_BARS"] ?? 5e5));
  const procs = Number(process.env["BENCH_STRATEGY_PROCS"] ?? 3);
  const script = fileURLToPath(import.meta.url);
  const load0 = loadavg().map((x) => x.toFixed(1)).join(" ");
  console.log(`SMA-cross sweepStrategy: ${FAST.length} x ${SLOW.length} variants x ${n} bars, calling thread, ${procs} fresh processes a side (alternating); load ${load0}`);
  const runs: Record<string, { seconds: number; faults: number; numbers: string }[]> = { out: [], shared: [], alloc: [] };
  for (let p = 0; p < procs; p++) {
    for (const kind of p % 2 === 0 ? ["out", "shared", "alloc"] : ["alloc", "shared", "out"]) {
      const res = spawnSync(process.execPath, ["--import", "tsx", script, "child", kind, String(n)], { encoding: "utf8", maxBuffer: 64 << 20, env: { ...process.env, TZ: "UTC" } });
      if (res.status !== 0) throw new Error(`child ${kind} failed: ${res.stderr}`);
      runs[kind]?.push(JSON.parse(res.stdout.trim().split("\n").pop() as string) as { seconds: number; faults: number; numbers: string });
    }
  }
  for (const [kind, label] of [
    ["out", "the documented way (writes into `out`)"],
    ["shared", "rolling means once per length (`shared`)"],
    ["alloc", "a new column per variant"],
  ] as const) {
    const rs = runs[kind] ?? [];
    const secs = rs.map((r) => r.seconds);
    console.log(`${label.padEnd(40)} CPU best ${Math.min(...secs).toFixed(2)} s, median ${median(secs).toFixed(2)} s; page faults median ${median(rs.map((r) => r.faults))}`);
  }
  const all = [...(runs["out"] ?? []), ...(runs["shared"] ?? []), ...(runs["alloc"] ?? [])].map((r) => r.numbers);
  console.log(`every run's ${FAST.length * SLOW.length * 6} numbers equal, bit for bit: ${all.every((x) => x === all[0]) ? "yes" : "NO"}`);
  console.log(`load at the end: ${loadavg().map((x) => x.toFixed(1)).join(" ")} on 2 cores`);
  if (!all.every((x) => x === all[0])) process.exit(1);
}

if (process.argv[2] === "child") await child(process.argv[3] as string, Number(process.argv[4]));
else main();
