/**
 * sweepStrategy: every variant equals a plain loop of `backtest` over the same grid (the
 * reference: one backtest per variant, its metrics read from its equity, returns, trades,
 * turnover and exposure, and performanceSummary's Sharpe and drawdown); grid parsing (the
 * cartesian order, the list form, bad grids naming the parameter); identical tables for 0, 1
 * and 2 workers and for merged shards; a function that is not self-contained falls back to the
 * calling thread; the declarative composite with a regime filter and a stop-loss swept together.
 * Worker threads load dist/: run `npm run build` first.
 */
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import {
  assessSweep,
  backtest,
  InvalidArgumentError,
  mergeSweeps,
  performanceSummary,
  replayComposite,
  sweepStrategy,
  type BacktestOptions,
  type SweepResult,
} from "../../src/index.js";
import { generateBars } from "../bench/backtestData.js";
import { expectSameSweep as expectSameTable } from "../support/expectSameSweep.js";
import { scaledMs } from "../support/timeScale.js";

/** A params object's string keys only (paramsOf also lists the strategy's own names under a symbol key, for a spread into backtest). */
const stringKeys = (p: object): Record<string, unknown> => Object.fromEntries(Object.entries(p));

const N = 1200;
const bars = generateBars(N, 5);
const time = Float64Array.from({ length: N }, (_, i) => 1_700_000_000_000 + i * 60_000);
// open = the previous close, high / low a little beyond both: stops have a range to trigger in
const open = Float64Array.from(bars.close, (_, i) => (i === 0 ? (bars.close[0] as number) : (bars.close[i - 1] as number)));
const high = Float64Array.from(bars.close, (c, i) => Math.max(c, open[i] as number) * 1.0015);
const low = Float64Array.from(bars.close, (c, i) => Math.min(c, open[i] as number) * 0.9985);
const data = { time, close: bars.close, open, high, low, imbalance: bars.imbalance, funding: bars.funding, basis_spread: bars.basis_spread, momentum_5m: bars.momentum_5m, gas: bars.gas };

/** A self-contained SMA cross: long when the fast mean is above the slow one, short below, flat in warm-up. */
const smaCross = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>): Float64Array => {
  const close = c["close"] as Float64Array;
  const fast = p["fast"] as number;
  const slow = p["slow"] as number;
  const out = new Float64Array(close.length);
  let sf = 0;
  let ss = 0;
  for (let i = 0; i < close.length; i++) {
    sf += close[i] as number;
    ss += close[i] as number;
    if (i >= fast) sf -= close[i - fast] as number;
    if (i >= slow) ss -= close[i - slow] as number;
    out[i] = i + 1 < slow ? 0 : sf / fast > ss / slow ? 1 : -1;
  }
  return out;
};

/** The reference: one plain backtest and its metrics, read from the result's own series. */
function reference(options: BacktestOptions) {
  const r = backtest(options);
  const s = performanceSummary(r.returns, { time, trades: r.trades, positions: r.positions, turnover: r.turnover });
  const initial = options.initialCash ?? 10_000;
  return {
    r,
    totalReturn: (r.equity[N - 1] as number) / initial - 1,
    sharpeRatio: s.sharpeRatio,
    maxDrawdown: s.maxDrawdown,
    trades: r.trades.length,
    turnover: Array.from(r.turnover).reduce((a, x) => a + x, 0),
    exposure: Array.from(r.exposure).reduce((a, x) => a + Math.abs(x), 0) / N,
  };
}

function expectRowEquals(res: SweepResult, i: number, ref: ReturnType<typeof reference>): void {
  const c = res.columns;
  expect(c["totalReturn"]?.[i]).toBe(ref.totalReturn);
  // the kernel's one-pass moments vs the summary's two-pass Sharpe: equal to rounding
  if (Number.isNaN(ref.sharpeRatio)) expect(c["sharpeRatio"]?.[i]).toBeNaN();
  else expect(Math.abs((c["sharpeRatio"]?.[i] as number) - ref.sharpeRatio)).toBeLessThan(1e-9 * Math.max(1, Math.abs(ref.sharpeRatio)));
  expect(Math.abs((c["maxDrawdown"]?.[i] as number) - ref.maxDrawdown)).toBeLessThan(1e-12);
  expect(c["trades"]?.[i]).toBe(ref.trades);
  expect(c["turnover"]?.[i]).toBeCloseTo(ref.turnover, 12);
  expect(c["exposure"]?.[i]).toBeCloseTo(ref.exposure, 12);
  expect(Array.from(res.returnsOf(i))).toEqual(Array.from(ref.r.returns));
}

describe("sweepStrategy with a function", () => {
  it("gives every variant of a fast x slow x fee x stop-loss grid what a plain backtest loop gives", async () => {
    const grid = { fast: [3, 8], slow: [20, 45], feeBps: [0, 5], stopLoss: [null, 0.004] };
    const res = await sweepStrategy(smaCross, { data, grid, slippageBps: 1, workers: 0 });
    expect(res.length).toBe(16);
    expect(res.complete).toBe(true);
    expect(res.parameters).toEqual(["fast", "slow", "feeBps", "stopLoss"]);
    expect(Object.keys(res.columns)).toEqual(["variant", "fast", "slow", "feeBps", "stopLoss", "totalReturn", "sharpeRatio", "maxDrawdown", "trades", "turnover", "exposure"]);
    expect(res.periodsPerYear).toBe(525_600);
    expect(res.runsOn).toBe("calling thread");
    let stopped = 0;
    let i = 0;
    for (const fast of grid.fast) {
      for (const slow of grid.slow) {
        for (const feeBps of grid.feeBps) {
          for (const stopLoss of grid.stopLoss) {
            // the plain loop: the strategy's positions, then backtest with the variant's options
            const position = smaCross(data, { fast, slow });
            const ref = reference({ time, close: bars.close, open, high, low, position, feeBps, slippageBps: 1, ...(stopLoss !== null ? { stopLoss } : {}) });
            expect(stringKeys(res.paramsOf(i))).toEqual({ fast, slow, feeBps, stopLoss });
            expect(res.columns["stopLoss"]?.[i]).toEqual(stopLoss ?? Number.NaN);
            expectRowEquals(res, i, ref);
            stopped += ref.r.trades.filter((t) => t.reason === "stop").length;
            i++;
          }
        }
      }
    }
    expect(stopped).toBeGreaterThan(0); // the stop-loss does fire on these bars
    const best = res.best("sharpeRatio");
    expect(best?.params).toEqual(res.paramsOf(best?.index as number));
    expect(best?.weights).toEqual({});
    expect(best?.threshold).toBeNaN();
  });

  it("runs a self-contained function in 1 or 2 workers with the same table bit for bit, and shards merge to the whole", async () => {
    const grid = { fast: [2, 5, 9], slow: [15, 30, 60], neutral: ["flat", "hold"] };
    const zero = await sweepStrategy(smaCross, { data, grid, feeBps: 3, workers: 0 });
    const one = await sweepStrategy(smaCross, { data, grid, feeBps: 3, workers: 1 });
    const two = await sweepStrategy(smaCross, { data, grid, feeBps: 3, workers: 2 });
    expect(one.runsOn).toBe("workers");
    expect(two.runsOn).toBe("workers");
    expect(two.runsOnReason).toBeUndefined();
    expectSameTable(zero, one);
    expectSameTable(zero, two);
    expect(zero.levels).toEqual({ neutral: ["flat", "hold"] });
    expect(Array.from(zero.columns["neutral"] ?? [])).toEqual(Array.from({ length: 18 }, (_, i) => i % 2));
    const shards = await Promise.all([1, 0, 2, 3].map((index) => sweepStrategy(smaCross, { data, grid, feeBps: 3, workers: index % 2, shard: { index, count: 4 } })));
    expect(shards.map((s) => s.length)).toEqual([5, 4, 4, 5]);
    const merged = mergeSweeps(shards);
    expect(merged.complete).toBe(true);
    expect(merged.parameters).toEqual(["fast", "slow", "neutral"]);
    expectSameTable(zero, merged);
    expect(Array.from(merged.returnsOf(7))).toEqual(Array.from(zero.returnsOf(7)));
    const viaJson = mergeSweeps(shards.map((s) => JSON.parse(JSON.stringify(s))));
    expectSameTable(zero, viaJson);
    expect(viaJson.paramsOf(3)).toEqual(zero.paramsOf(3));
    expect(viaJson.toDataFrame().column("neutral").values.slice(0, 2)).toEqual(["flat", "hold"]);
  });

  it("falls back to the calling thread, and says why, for a function that reads a variable from outside itself", async () => {
    const SCALE = 0.5; // a closure: rebuilt from its source in a worker, SCALE is not defined there
    const scaled = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>) => Float64Array.from(smaCross(c, p), (x) => x * SCALE);
    const grid = { fast: [3, 6], slow: [25] };
    const res = await sweepStrategy(scaled, { data, grid, workers: 2 });
    expect(res.runsOn).toBe("calling thread");
    expect(res.runsOnReason).toMatch(/not self-contained.*(ReferenceError|not defined)/);
    const here = await sweepStrategy(scaled, { data, grid, workers: 0 });
    expectSameTable(here, res);
    const ref = reference({ time, close: bars.close, position: scaled(data, { fast: 6, slow: 25 }) });
    expectRowEquals(res, 1, ref);
    // a method shorthand's source is not an expression: the calling thread too
    const holder = {
      flat(c: Readonly<Record<string, Float64Array>>) {
        return new Float64Array((c["close"] as Float64Array).length);
      },
    };
    const m = await sweepStrategy(holder.flat, { data, grid: { x: [1] }, workers: 1 });
    expect(m.runsOn).toBe("calling thread");
    expect(m.runsOnReason).toMatch(/does not rebuild as a function/);
  });

  it("reads the list form of a grid in its own order, and runs assessSweep on the result", async () => {
    const grid = [
      { fast: 9, slow: 40 },
      { fast: 2, slow: 12 },
      { fast: 5, slow: 80 },
    ];
    const res = await sweepStrategy(smaCross, { data, grid, feeBps: 2, workers: 0 });
    expect(Array.from(res.columns["fast"] ?? [])).toEqual([9, 2, 5]);
    expect(Array.from(res.columns["slow"] ?? [])).toEqual([40, 12, 80]);
    for (let i = 0; i < grid.length; i++) expectRowEquals(res, i, reference({ time, close: bars.close, position: smaCross(data, grid[i] as Record<string, number>), feeBps: 2 }));
    const a = assessSweep(res, { splits: 4, walkForward: { n: N, train: 400, test: 200 } } as never);
    expect(a.trials).toBe(3);
    expect(a.best.params).toEqual(res.paramsOf(a.best.index));
    expect(a.walkForward?.folds.rows).toBe(4);
  });

  it("orders an object grid with the first parameter outermost", async () => {
    const res = await sweepStrategy(smaCross, { data, grid: { fast: [2, 3], slow: [10, 20, 30] }, workers: 0 });
    expect(Array.from({ length: 6 }, (_, i) => stringKeys(res.paramsOf(i)))).toEqual([
      { fast: 2, slow: 10 },
      { fast: 2, slow: 20 },
      { fast: 2, slow: 30 },
      { fast: 3, slow: 10 },
      { fast: 3, slow: 20 },
      { fast: 3, slow: 30 },
    ]);
  });
});

describe("sweepStrategy with a declarative composite", () => {
  it("sweeps a regime filter, a threshold, a weight and a stop-loss together, each variant = replayComposite + backtest", async () => {
    // a regime filter: flat where the 5-minute momentum is extreme, and none
    const hot = Array.from(bars.momentum_5m, (m) => Math.abs(m) > 0.15);
    const strategy = { kind: "composite" as const, weights: { imbalance: 0.5, momentum_5m: 0.3, basis_spread: 0.2 }, regimes: { calm: hot } };
    const grid = { regime: ["none", "calm"], threshold: [0.05, 0.15], w_momentum_5m: [0.3, 0.6], stopLoss: [null, 0.003] };
    const funding = bars.funding_bar;
    const res = await sweepStrategy(strategy, { data, grid, feeBps: 4, funding, workers: 0 });
    const two = await sweepStrategy(strategy, { data, grid, feeBps: 4, funding, workers: 2 });
    expect(two.runsOn).toBe("workers");
    expectSameTable(res, two);
    expect(res.length).toBe(16);
    let i = 0;
    let filtered = 0;
    let traded = 0;
    for (const regime of grid.regime) {
      for (const threshold of grid.threshold) {
        for (const w of grid.w_momentum_5m) {
          for (const stopLoss of grid.stopLoss) {
            const replay = replayComposite(data, { weights: { imbalance: 0.5, momentum_5m: w, basis_spread: 0.2 }, allowAnySum: true, threshold });
            const ref = reference({
              time,
              close: bars.close,
              open,
              high,
              low,
              signal: replay.label,
              feeBps: 4,
              funding,
              ...(regime === "calm" ? { flatWhen: hot } : {}),
              ...(stopLoss !== null ? { stopLoss } : {}),
            });
            expect(stringKeys(res.paramsOf(i))).toEqual({ regime, threshold, w_momentum_5m: w, stopLoss });
            expectRowEquals(res, i, ref);
            if (regime === "calm") filtered += ref.exposure;
            traded += ref.trades;
            i++;
          }
        }
      }
    }
    expect(filtered).toBeGreaterThan(0);
    expect(traded).toBeGreaterThan(20);
  });

  it("rejects a parameter the composite does not read and an unknown regime", async () => {
    await expect(sweepStrategy({ kind: "composite" }, { data, grid: { fast: [1] } })).rejects.toThrow(/grid parameter fast means nothing to a composite strategy/);
    await expect(sweepStrategy({ kind: "composite", regimes: {} }, { data, grid: { regime: ["calm"] }, workers: 0 })).rejects.toThrow(/regime is calm, not one of the strategy's regimes/);
  });
});

describe("sweepStrategy's arguments", () => {
  it("rejects bad grids with a typed error naming the parameter", async () => {
    const bad: [unknown, RegExp][] = [
      [{}, /grid has no parameter/],
      [[], /grid must list at least one parameter object/],
      [{ fast: [] }, /grid parameter fast must be a non-empty list of values, got \[\]/],
      [{ fast: 5 }, /grid parameter fast must be a non-empty list of values, got 5/],
      [{ fast: [2], slow: [{ n: 3 }] }, /grid parameter slow has a value object/],
      [{ fast: [2], slow: [undefined] }, /grid parameter slow has a value undefined/],
      [{ sharpeRatio: [1] }, /grid parameter sharpeRatio is reserved \(a column of the sweep's table\)/],
      [{ position: [1] }, /grid parameter position is reserved \(the strategy provides it\)/],
      [[{ fast: 2, slow: 10 }, { fast: 3 }], /grid entry 1 lacks parameter slow/],
      [[{ fast: 2 }, { fast: 3, slow: 9 }], /grid entry 1 has parameter slow, which entry 0 has not/],
      [{ fast: [2], stopLoss: [0.01, -1] }, /stopLoss must be .*\(grid parameter stopLoss\)/],
      [{ fast: [2], fill: ["next_day"] }, /fill must be "next_close" or "next_open".*\(grid parameter fill\)/],
      ["fast", /grid must be an object of parameter -> values/],
    ];
    for (const [grid, message] of bad) {
      const call = sweepStrategy(smaCross, { data, grid: grid as never, workers: 0 });
      await expect(call, String(message)).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(sweepStrategy(smaCross, { data, grid: grid as never, workers: 0 }), String(message)).rejects.toThrow(message);
    }
  });

  it("rejects a bad strategy, data and controls", async () => {
    const grid = { fast: [2], slow: [5] };
    await expect(sweepStrategy(42 as never, { data, grid })).rejects.toThrow(/strategy must be a function \(columns, params\) => target positions/);
    await expect(sweepStrategy(smaCross, { data: { imbalance: [0.5] }, grid } as never)).rejects.toThrow(/data has no close column/);
    await expect(sweepStrategy(smaCross, { data, grid, workers: 1e9 })).rejects.toThrow(/sweepStrategy: workers must be a whole number 0..256 .*got 1000000000/);
    await expect(sweepStrategy(smaCross, { data, grid, signal: "stop" as never })).rejects.toThrow(/signal must be an AbortSignal/);
    await expect(sweepStrategy(() => [1, 2], { data, grid, workers: 0 })).rejects.toThrow(/position must have one value per bar \(1200\), got 2/);
  });

  it("handles one bar, NaN prices and a constant series, and modifies no input", async () => {
    const copy = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Float64Array.from(v)]));
    await sweepStrategy(smaCross, { data, grid: { fast: [2], slow: [5] }, workers: 1 });
    for (const [k, v] of Object.entries(data)) expect(Array.from(v)).toEqual(Array.from(copy[k] as Float64Array));
    const long = () => [1];
    const one = await sweepStrategy(long, { data: { close: [100] }, grid: { x: [1] }, periodsPerYear: 365, workers: 0 });
    expect(one.columns["totalReturn"]?.[0]).toBe(0);
    expect(one.columns["sharpeRatio"]?.[0]).toBeNaN(); // no return yet
    const flat = await sweepStrategy(() => [1, 1, 1, 1], { data: { close: [5, 5, 5, 5] }, grid: { x: [1, 2] }, periodsPerYear: 365, workers: 0 });
    expect(flat.columns["totalReturn"]?.[1]).toBe(0);
    expect(flat.columns["sharpeRatio"]?.[1]).toBeNaN(); // 0 / 0, as empyrical
    const gap = await sweepStrategy(() => [1, 1, 1], { data: { close: [100, Number.NaN, 121] }, grid: { x: [1] }, periodsPerYear: 365, workers: 0 });
    const ref = backtest({ close: [100, Number.NaN, 121], position: [1, 1, 1] });
    expect(gap.columns["totalReturn"]?.[0]).toBe((ref.equity[2] as number) / 10_000 - 1);
  });

  it("stops on the signal and keeps the finished variants", async () => {
    const controller = new AbortController();
    const grid = { fast: [2, 3, 4, 5, 6, 7, 8, 9], slow: [20, 30, 40, 50, 60] };
    const res = await sweepStrategy(smaCross, {
      data,
      grid,
      workers: 0,
      onProgress: (p) => {
        if (p.done >= 5) controller.abort();
      },
      signal: controller.signal,
    });
    expect(res.aborted).toBe(true);
    expect(res.complete).toBe(false);
    expect(res.length).toBeGreaterThan(0);
    expect(res.length).toBeLessThan(40);
  });

  it("keeps no process alive: a script that ran a sweep on the persistent pool ends by itself", () => {
    const dist = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), "../../dist/index.js")).href;
    const code = `import { sweepStrategy } from ${JSON.stringify(dist)};
      const close = Float64Array.from({ length: 3000 }, (_, i) => 100 + Math.sin(i / 40) * 5);
      const f = (c, p) => Float64Array.from(c.close, (_, i) => (i % p.k < 5 ? 1 : 0));
      const r = await sweepStrategy(f, { data: { close }, grid: { k: [7, 9, 11, 13] }, periodsPerYear: 365, workers: 2 });
      console.log(r.runsOn, r.length);`;
    // no exit() anywhere: the process ends only if the pool's idle threads hold nothing (killed after 120 s otherwise)
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8", timeout: scaledMs(120_000) });
    expect(run.signal, run.stderr).toBeNull();
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe("workers 4");
  });

  it("carries a manifest naming the strategy's source and the grid", async () => {
    const res = await sweepStrategy(smaCross, { data, grid: { fast: [2], slow: [9, 10] }, feeBps: 1, workers: 0 });
    expect(res.manifest.kind).toBe("sweep");
    expect(JSON.stringify(res.manifest.parameters)).toContain("fast");
    expect(Object.keys(res.manifest.inputs.columns)).toEqual(expect.arrayContaining(["close", "time"]));
  });
});
