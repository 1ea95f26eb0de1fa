/**
 * Where a `sweepStrategy` of a user function spends its time (issue 32): `npx tsx test/bench/strategyProfile.ts [BARS] [REPS]`.
 * The yardsticks' SMA-cross grid (fast 5..24 x slow 30..220 step 10: 400 variants, the guide's smaCross written
 * into `out`) over BARS seeded closes (default 5e5), on the calling thread. Times, in process CPU (best and
 * median of REPS, default 3): the whole sweep; then its per-variant parts alone over the same 400 variants:
 * the user's function into one reused column; the engine's pass of that column (backtest({ position,
 * outputs: ["metrics"] }): the same generated loop with the run accumulators, prices checked in the loop);
 * the zeroing of the targets column (strategyVariant's targetsBuffer); and the input-mutation check (a byte
 * comparison of every data column with a pristine copy, changedColumn), once per block of 8 variants as the sweep
 * runs it (evaluateStrategyVariants: 50 blocks at 5e5 bars; after every call it was 400).
 * Prints each part's share of the whole. No timing is asserted anywhere.
 */
import { loadavg } from "node:os";
import { backtest } from "../../src/backtest/index.js";
import { sweepStrategy } from "../../src/research/index.js";
import { FEE_BPS, SLIPPAGE_BPS, generateBars } from "./backtestData.js";
import { smaCross } from "../support/smaCross.js";
import { median } from "./median.js";

const n = Math.round(Number(process.argv[2] ?? 5e5));
const REPS = Number(process.argv[3] ?? 3);
const bars = generateBars(n, 42);
const FAST = Array.from({ length: 20 }, (_, i) => 5 + i);
const SLOW = Array.from({ length: 20 }, (_, i) => 30 + 10 * i);
const PPY = 525_600;
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const parts: [string, number[]][] = [];
async function time(name: string, f: () => unknown): Promise<void> {
  const ts: number[] = [];
  for (let r = 0; r < REPS; r++) {
    const t0 = cpu();
    await f();
    ts.push(cpu() - t0);
  }
  parts.push([name, ts]);
}
const grid = FAST.flatMap((fast) => SLOW.map((slow) => ({ fast, slow })));
let sink = 0;
await time("sweepStrategy, whole (400 variants)", () =>
  sweepStrategy(smaCross, { data: { close: bars.close }, grid: { fast: FAST, slow: SLOW }, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, funding: bars.funding_bar, periodsPerYear: PPY, workers: 0 }),
);
const out = new Float64Array(n);
const columns = Object.freeze({ close: bars.close });
await time("  the user's function x 400 (into one column)", () => {
  for (const p of grid) sink += smaCross(columns, p, out)[n - 1] as number;
});
const positions = grid.map((p) => Float64Array.from(smaCross(columns, p, out)));
await time("  the engine's pass x 400 (backtest metrics of each column)", () => {
  for (const position of positions) sink += backtest({ close: bars.close, position, funding: bars.funding_bar, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, initialCash: 1, periodsPerYear: PPY, outputs: ["metrics"] }).metrics.totalReturn;
});
await time("  zeroing the targets column x 400", () => {
  for (let v = 0; v < grid.length; v++) out.fill(0);
});
const pristine = Float64Array.from(bars.close);
await time("  the mutation check x 50 (once per block of 8; byte compare of close)", () => {
  const a = new Uint8Array(bars.close.buffer, bars.close.byteOffset, bars.close.byteLength);
  const b = new Uint8Array(pristine.buffer);
  for (let v = 0; v < grid.length; v += 8) sink += Buffer.compare(a, b);
});
console.log(`sweepStrategy(smaCross), ${grid.length} variants x ${n} bars, process CPU s, best / median of ${REPS}; load ${loadavg().map((x) => x.toFixed(1)).join(" ")}`);
const whole = median(parts[0]?.[1] as number[]);
for (const [name, ts] of parts) console.log(`${name.padEnd(62)} best ${Math.min(...ts).toFixed(3)}  median ${median(ts).toFixed(3)}  (${((100 * median(ts)) / whole).toFixed(1)} % of the whole's median)`);
if (sink === 0.5) console.log(sink);
