/**
 * One timed run of the backtest benchmark in a fresh process (so peak memory is
 * its own): `tsx backtestWorker.ts IMPL FILE N REPS`, IMPL = "ours" | "ours-into" | "ours-loop" | "ours-loop-into" |
 * "ours-summary" | "floor" | "floor-summary" | "danfo".
 * Prints one JSON line: best seconds over REPS (and every run's, with its minor page faults), extra
 * peak memory over the loaded data, final equity and a checksum (sum of equity).
 */
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { backtest } from "../../src/backtest/index.js";
import { replayComposite } from "../../src/signals/index.js";
import { labelCode } from "../../src/signals/classifySignal.js";
import { scoreBasis, scoreFunding, scoreGas, scoreImbalance, scoreMomentum } from "../../src/signals/scorers.js";
import { BARS_PER_YEAR, FEE_BPS, SLIPPAGE_BPS, THRESHOLD, readBars, type BenchColumns, type BenchSummary } from "./backtestData.js";
import { median } from "./median.js";

const [impl, file, nArg, repsArg] = process.argv.slice(2);
const n = Number(nArg);
const reps = Number(repsArg ?? 1);
const cols = readBars(file as string, n);

const split = { replay: Number.POSITIVE_INFINITY, backtest: Number.POSITIVE_INFINITY };
const useCpu = process.env["BENCH_CLOCK"] !== "wall";
const withReturns = process.env["BENCH_RETURNS"] === "1";
const withTrades = process.env["BENCH_TRADES"] === "1";
/** Seconds on the chosen clock: process CPU time (user + system, default; robust on a shared machine) or wall time. */
function clock(): number {
  if (!useCpu) return Number(process.hrtime.bigint()) / 1e9;
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/**
 * (a) ours: replayComposite + backtest over typed arrays. The replay is passed as the
 * signal, so the backtest streams it: component values -> scores -> composite -> label
 * -> position -> fills -> equity block by block, with no n-length intermediate column.
 * It produces the equity curve (as numpy does); the trade ledger (which numpy does not build) is
 * recorded on first read of the trades since issue 20's lazy outputs (BENCH_TRADES=1 asks for it up
 * front, `outputs: ["equity", "trades"]`, the work this row did before);
 * per-bar returns and the other series are built on first access (BENCH_RETURNS=1
 * times that too).
 */
function ours(c: BenchColumns): Float64Array {
  const t0 = clock();
  const rep = replayComposite(
    { imbalance: c.imbalance, funding: c.funding, basis_spread: c.basis_spread, momentum_5m: c.momentum_5m, gas: c.gas },
    { threshold: THRESHOLD },
  );
  const t1 = clock();
  const r = backtest({ close: c.close, signal: rep, funding: c.funding_bar, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, initialCash: 1, ...(withTrades ? { outputs: ["equity", "trades"] as const } : {}) });
  if (withReturns && r.returns.length !== r.equity.length) throw new Error("returns and equity differ in length");
  const t2 = clock();
  split.replay = Math.min(split.replay, t1 - t0);
  split.backtest = Math.min(split.backtest, t2 - t1);
  return r.equity;
}

/**
 * (a, into) ours as (a), the equity written into the caller's column (`into: { equity }`, one column
 * reused from call to call, as a loop of backtests at one length is documented to do): the same pass
 * without a fresh 16 MB column per call (~3,900 page faults at 2e6 bars, see pageFaults.bench.ts).
 */
const intoEquity = { equity: new Float64Array(n) };
function oursInto(c: BenchColumns): Float64Array {
  const rep = replayComposite(
    { imbalance: c.imbalance, funding: c.funding, basis_spread: c.basis_spread, momentum_5m: c.momentum_5m, gas: c.gas },
    { threshold: THRESHOLD },
  );
  return backtest({ close: c.close, signal: rep, funding: c.funding_bar, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, initialCash: 1, into: intoEquity }).equity;
}

/**
 * (a') ours, the path users write (issue 20's first row): replayComposite, its label column
 * read (streamed: no score or composite column), a loop of their own turning labels into
 * positions (here the label itself: buy +1, sell -1, neutral flat), then `backtest({ position })`
 * (not fused: the engine cannot see where a position column came from). Equity as (a).
 */
function oursLoop(c: BenchColumns): Float64Array {
  const rep = replayComposite(
    { imbalance: c.imbalance, funding: c.funding, basis_spread: c.basis_spread, momentum_5m: c.momentum_5m, gas: c.gas },
    { threshold: THRESHOLD },
  );
  const label = rep.label;
  const position = new Float64Array(label.length);
  for (let i = 0; i < label.length; i++) position[i] = label[i] as number;
  return backtest({ close: c.close, position, funding: c.funding_bar, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, initialCash: 1 }).equity;
}

/**
 * (a'', into) the users' path as docs/guide.md documents it for a loop of calls at one length: the
 * label, position and equity columns allocated once and reused (`replayComposite(..., { into:
 * { label } })`, the user's loop writing into their own position column, `backtest({ position,
 * into: { equity } })`), the same numbers as (a') with no fresh column per call.
 */
const userLabel = new Int8Array(n);
const userPosition = new Float64Array(n);
const userEquity = new Float64Array(n);
function oursLoopInto(c: BenchColumns): Float64Array {
  const rep = replayComposite(
    { imbalance: c.imbalance, funding: c.funding, basis_spread: c.basis_spread, momentum_5m: c.momentum_5m, gas: c.gas },
    { threshold: THRESHOLD, into: { label: userLabel } },
  );
  const label = rep.label;
  for (let i = 0; i < label.length; i++) userPosition[i] = label[i] as number;
  return backtest({ close: c.close, position: userPosition, funding: c.funding_bar, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, initialCash: 1, into: { equity: userEquity } }).equity;
}

/**
 * (floor) Not the library: the fastest way found to write this benchmark's strategy in
 * TypeScript, as a yardstick for ours. Block by block (2048 bars): the labels in one row
 * loop (the library's scorers and label rule, inlined by the JIT), then one loop of the
 * engine's default-mode accounting (the kernel's arithmetic: the account value moved by
 * mark, funding and fee; units E x (w / p)), everything in local variables, equity written;
 * no trade ledger, no checks, no other mode. (One fused loop per bar measured ~1.6x slower.)
 * What ours costs above it is the price of the general engine.
 */
const FLOOR_BLOCK = 2048;
const floorBlock = new Float64Array(FLOOR_BLOCK);

/** The floor's first loop: the labels of bars lo..hi-1 into w[0 .. hi-lo) (the library's scorers and label rule, inlined by the JIT). */
function floorLabels(c: BenchColumns, lo: number, hi: number, w: Float64Array): void {
  const { imbalance, funding, basis_spread, momentum_5m, gas } = c;
  for (let i = lo; i < hi; i++) {
    const x =
      0.3 * scoreImbalance(imbalance[i] as number) +
      0.25 * scoreFunding(funding[i] as number) +
      0.2 * scoreBasis(basis_spread[i] as number) +
      0.15 * scoreMomentum(momentum_5m[i] as number) +
      0.1 * scoreGas(gas[i] as number);
    w[i - lo] = labelCode(x, THRESHOLD);
  }
}
function floor(c: BenchColumns): Float64Array {
  const n = c.close.length;
  const equity = new Float64Array(n);
  const { close, funding_bar } = c;
  const rate = (FEE_BPS + SLIPPAGE_BPS) / 1e4;
  const w = floorBlock;
  let V = 1;
  let E = 1;
  let q = 0;
  let L = close[0] as number;
  let held = 0;
  for (let lo = 0; lo < n; lo += FLOOR_BLOCK) {
    const hi = Math.min(n, lo + FLOOR_BLOCK);
    floorLabels(c, lo, hi, w);
    for (let i = lo; i < hi; i++) {
      const p = close[i] as number;
      if (i > 0) {
        const r = funding_bar[i] as number;
        if (q !== 0 && r === r && r !== 0) V -= q * L * r;
        if (q !== 0) V += q * (p - L);
        L = p;
        E = V;
      }
      equity[i] = E;
      if (i < n - 1) {
        const wi = w[i - lo] as number;
        const traded = Math.abs(wi - held) * E;
        if (traded !== 0) V -= rate * traded;
        q = E * (wi / p);
        held = wi;
      }
    }
  }
  return equity;
}

/**
 * (a, summary row) ours asked for the summary only: `outputs: ["metrics"]`, one pass of the fused
 * loop with the run accumulators, no per-bar series and no trade ledger. Its `trades` are the
 * positions opened (leaving flat or flipping), as the other sides count them.
 */
function oursSummary(c: BenchColumns): BenchSummary {
  const rep = replayComposite(
    { imbalance: c.imbalance, funding: c.funding, basis_spread: c.basis_spread, momentum_5m: c.momentum_5m, gas: c.gas },
    { threshold: THRESHOLD },
  );
  const r = backtest({ close: c.close, signal: rep, funding: c.funding_bar, feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, initialCash: 1, periodsPerYear: BARS_PER_YEAR, outputs: ["metrics"] });
  const m = r.metrics;
  return { totalReturn: m.totalReturn, maxDrawdown: m.maxDrawdown, sharpe: m.sharpeRatio, trades: m.trades };
}

/**
 * (floor, summary row) Not the library: the floor above with the summary's accumulators in its
 * accounting loop instead of the equity column (the per-bar return, the sums of the returns and
 * of their squares, the running peak and drawdown, positions opened): the "hand-fused
 * loop" yardstick (scores, composite, threshold, fee, equity, drawdown, Sharpe sums; no per-bar output).
 */
function floorSummary(c: BenchColumns): BenchSummary {
  const n = c.close.length;
  // V, E, q, L, held, peak, maxDrawdown, sum, sumSquares, trades: carried from block to block
  const s = Float64Array.of(1, 1, 0, c.close[0] as number, 0, 1, 0, 0, 0, 0);
  for (let lo = 0; lo < n; lo += FLOOR_BLOCK) {
    const hi = Math.min(n, lo + FLOOR_BLOCK);
    floorLabels(c, lo, hi, floorBlock);
    floorSummaryBlock(c, lo, hi, floorBlock, s);
  }
  const [, E = 1, , , , , maxDrawdown = 0, sum = 0, sumSquares = 0, trades = 0] = s;
  const mean = sum / (n - 1);
  const sd = Math.sqrt((sumSquares - sum * mean) / (n - 2));
  return { totalReturn: E - 1, maxDrawdown, sharpe: (mean / sd) * Math.sqrt(BARS_PER_YEAR), trades };
}

/**
 * The summary floor's accounting over bars lo..hi-1 with the labels in w, its running numbers in s.
 * A function per block (as the library's loop is called per span): one long loop in a single call
 * is compiled by on-stack replacement, and V8 compiled it ~2x slower in about half the processes.
 */
function floorSummaryBlock(c: BenchColumns, lo: number, hi: number, w: Float64Array, s: Float64Array): void {
  const n = c.close.length;
  const { close, funding_bar } = c;
  const rate = (FEE_BPS + SLIPPAGE_BPS) / 1e4;
  let V = s[0] as number;
  let E = s[1] as number;
  let q = s[2] as number;
  let L = s[3] as number;
  let held = s[4] as number;
  let peak = s[5] as number;
  let maxDrawdown = s[6] as number;
  let sum = s[7] as number;
  let sumSquares = s[8] as number;
  let trades = s[9] as number;
  for (let i = lo; i < hi; i++) {
    const p = close[i] as number;
    if (i > 0) {
      const r = funding_bar[i] as number;
      if (q !== 0 && r === r && r !== 0) V -= q * L * r;
      if (q !== 0) V += q * (p - L);
      L = p;
      const ret = V / E - 1;
      E = V;
      sum += ret;
      sumSquares += ret * ret;
      if (E > peak) peak = E;
      else if (E / peak - 1 < maxDrawdown) maxDrawdown = E / peak - 1;
    }
    if (i < n - 1) {
      const wi = w[i - lo] as number;
      const traded = Math.abs(wi - held) * E;
      if (traded !== 0) {
        V -= rate * traded;
        if (wi !== 0) trades++;
      }
      q = E * (wi / p);
      held = wi;
    }
  }
  s[0] = V;
  s[1] = E;
  s[2] = q;
  s[3] = L;
  s[4] = held;
  s[5] = peak;
  s[6] = maxDrawdown;
  s[7] = sum;
  s[8] = sumSquares;
  s[9] = trades;
}

type Danfo = typeof import("danfojs-node");
type Series = InstanceType<Danfo["Series"]>;

/** (b) the same written straightforwardly with danfo Series operations. */
function danfo(dfd: Danfo, s: Record<string, Series>): Float64Array {
  const clip = (x: number): number => (x < -1 ? -1 : x > 1 ? 1 : x);
  const imb = (s["imbalance"] as Series).apply((v: number) => (v < 0 ? 0 : v > 1 ? 1 : v)).sub(0.5).mul(2) as Series;
  const fund = (s["funding"] as Series).mul(-1e4).apply(clip) as Series;
  const basis = (s["basis_spread"] as Series).div(-50).apply(clip) as Series;
  const mom = (s["momentum_5m"] as Series).div(2).apply(clip) as Series;
  const gas = (s["gas"] as Series).apply((g: number) => (g <= 1.1 ? 0.3 : Math.min(0.3, Math.max(-1, 0.3 - (g - 1.1) / 10)))) as Series;
  const comp = (imb.mul(0.3) as Series)
    .add(fund.mul(0.25) as Series)
    .add(basis.mul(0.2) as Series)
    .add(mom.mul(0.15) as Series)
    .add(gas.mul(0.1) as Series) as Series;
  const w = comp.apply((x: number) => (x >= THRESHOLD ? 1 : x <= -THRESHOLD ? -1 : 0)) as Series;
  // danfo has no shift: build the lagged columns from the values.
  const shift = (x: Series, fill: number): Series => new dfd.Series([fill, ...(x.values as number[]).slice(0, -1)]);
  const close = s["close"] as Series;
  const ret = close.div(shift(close, Number.NaN)).sub(1) as Series;
  const wPrev = shift(w, 0);
  const cost = wPrev.sub(shift(wPrev, 0)).abs().mul((FEE_BPS + SLIPPAGE_BPS) / 1e4) as Series;
  const r = (wPrev.mul(ret) as Series).sub(cost).sub(wPrev.mul(s["funding_bar"] as Series) as Series).fillNa(0) as Series;
  const equity = (r.add(1) as Series).cumProd() as Series;
  return Float64Array.from(equity.values as number[]);
}

/** The median of the runs' times (the issue's second figure, beside the best). */
let run: () => Float64Array | BenchSummary;
if (impl === "ours") {
  run = () => ours(cols);
} else if (impl === "ours-into") {
  run = () => oursInto(cols);
} else if (impl === "ours-loop") {
  run = () => oursLoop(cols);
} else if (impl === "ours-loop-into") {
  run = () => oursLoopInto(cols);
} else if (impl === "ours-summary") {
  run = () => oursSummary(cols);
} else if (impl === "floor-summary") {
  run = () => floorSummary(cols);
} else if (impl === "floor") {
  run = () => floor(cols);
} else if (impl === "danfo") {
  const dfd = createRequire(import.meta.url)("danfojs-node") as Danfo;
  // The table as a danfo user would already hold it (built outside the timing).
  const series: Record<string, Series> = {};
  for (const [k, v] of Object.entries(cols)) series[k] = new dfd.Series(Array.from(v));
  run = () => danfo(dfd, series);
} else {
  throw new Error(`unknown implementation ${impl}`);
}

globalThis.gc?.();
const rss0 = process.memoryUsage().rss;
let best = Number.POSITIVE_INFINITY;
const times: number[] = [];
let out: Float64Array | BenchSummary = new Float64Array(0);
let peak = 0;
const faults: number[] = [];
// BENCH_FIRST_APART=1 (the yardsticks): the process's first call (V8's compile of the generated
// loops, their priming, one run) is timed apart as `firstSeconds`, as yardsticks_numba.py times
// numba's first call (its JIT compile and one run) apart, and REPS runs follow; otherwise the
// first call is one of the REPS runs (backtest.bench.ts).
let first: { firstSeconds: number; firstFaults: number } | undefined;
if (process.env["BENCH_FIRST_APART"] === "1") {
  const f0 = process.resourceUsage().minorPageFault;
  const t0 = clock();
  out = run();
  first = { firstSeconds: clock() - t0, firstFaults: process.resourceUsage().minorPageFault - f0 };
  peak = process.resourceUsage().maxRSS * 1024;
}
for (let k = 0; k < reps; k++) {
  const f0 = process.resourceUsage().minorPageFault;
  const t0 = clock();
  out = run();
  times.push(clock() - t0);
  faults.push(process.resourceUsage().minorPageFault - f0);
  best = Math.min(best, times[k] as number);
  // Peak memory of one run: read after the first (later runs add garbage the GC has not yet
  // collected). No forced GC between runs: the runtime collects on its own schedule, as in use.
  if (k === 0 && first === undefined) peak = process.resourceUsage().maxRSS * 1024;
}
if (out instanceof Float64Array) {
  const equity = out;
  // BENCH_DUMP=path: the last run's equity column as float64 bytes, for a byte-for-byte comparison with the yardsticks.
  if (process.env["BENCH_DUMP"] !== undefined) writeFileSync(process.env["BENCH_DUMP"], new Uint8Array(equity.buffer, equity.byteOffset, equity.byteLength));
  let checksum = 0;
  for (let i = 0; i < equity.length; i++) checksum += equity[i] as number;
  const parts = impl === "ours" ? { replaySeconds: split.replay, backtestSeconds: split.backtest } : {};
  console.log(JSON.stringify({ impl, n, seconds: best, medianSeconds: median(times), times, faults, ...first, ...parts, peakBytes: Math.max(0, peak - rss0), final: equity[equity.length - 1], checksum }));
} else {
  console.log(JSON.stringify({ impl, n, seconds: best, medianSeconds: median(times), times, faults, ...first, peakBytes: Math.max(0, peak - rss0), ...out }));
}
