/**
 * sweepComposite: every variant equals the library's single-run path for the same
 * weights and threshold (replayComposite -> backtest -> performanceSummary, an
 * independent route: it scores and fuses per run, and reads the metrics from the
 * summary); identical results for any worker count and shard split; cancellation
 * keeps the finished variants; edge cases and bad arguments.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  backtest,
  COMPONENT_NAMES,
  createPanel,
  InvalidArgumentError,
  mergeSweeps,
  performanceSummary,
  randomSimplex,
  readParquet,
  replayComposite,
  simplexGrid,
  sweepComposite,
  type SweepResult,
  type Weights,
} from "../../src/index.js";
import { generateBars } from "../bench/backtestData.js";

const N = 1500;
const bars = generateBars(N, 7);
const time = Float64Array.from({ length: N }, (_, i) => 1_700_000_000_000 + i * 60_000);
const columns = {
  time,
  close: bars.close,
  imbalance: bars.imbalance,
  funding: bars.funding,
  basis_spread: bars.basis_spread,
  momentum_5m: bars.momentum_5m,
  gas: bars.gas,
};
const FEE = 5;
const SLIP = 2;

/** The single-run reference for one variant. */
function reference(weights: Weights, threshold: number, extra: { barFunding?: Float64Array } = {}) {
  const rep = replayComposite(columns, { weights, threshold });
  const r = backtest({ time, close: bars.close, signal: rep.label, feeBps: FEE, slippageBps: SLIP, ...(extra.barFunding ? { funding: extra.barFunding } : {}) });
  const s = performanceSummary(r.returns, { time, trades: r.trades, positions: r.positions, turnover: r.turnover });
  return { r, s };
}

function expectSameTable(a: SweepResult, b: SweepResult): void {
  expect(Object.keys(b.columns)).toEqual(Object.keys(a.columns));
  for (const [name, col] of Object.entries(a.columns)) {
    const other = b.columns[name] as Float64Array;
    expect(other.length, name).toBe(col.length);
    for (let i = 0; i < col.length; i++) expect(Object.is(other[i], col[i]), `${name}[${i}]`).toBe(true);
  }
}

describe("sweepComposite", () => {
  it("gives each random variant what backtest + performanceSummary give for its weights and threshold", async () => {
    const weights = randomSimplex(5, { seed: 3 });
    const thresholds = [0, 0.05, 0.15];
    const barFunding = bars.funding_bar;
    const res = await sweepComposite(columns, { weights, thresholds, feeBps: FEE, slippageBps: SLIP, barFunding, workers: 0 });
    expect(res.length).toBe(15);
    expect(res.total).toBe(15);
    expect(res.complete).toBe(true);
    expect(res.aborted).toBe(false);
    expect(res.periodsPerYear).toBe(525_600); // inferred from 1-minute bars
    let traded = 0;
    for (let i = 0; i < res.length; i++) {
      const w = weights[Math.floor(i / 3)] as Weights;
      const t = thresholds[i % 3] as number;
      const { r, s } = reference(w, t, { barFunding });
      const c = res.columns;
      expect(c["variant"]?.[i]).toBe(i);
      expect(c["threshold"]?.[i]).toBe(t);
      for (const name of COMPONENT_NAMES) expect(c[`w_${name}`]?.[i]).toBe(w[name]);
      // the definition: final equity / initial - 1 (the summary compounds the returns: same to rounding)
      expect(c["totalReturn"]?.[i]).toBe((r.equity[N - 1] as number) / 10_000 - 1);
      expect(c["totalReturn"]?.[i]).toBeCloseTo(s.totalReturn, 12);
      // the kernel's accumulators: one-pass moments and the equity's running peak, so equal to rounding
      expect(c["sharpeRatio"]?.[i]).toBeCloseTo(s.sharpeRatio, 9);
      expect(Math.abs((c["sharpeRatio"]?.[i] as number) - s.sharpeRatio)).toBeLessThan(1e-9 * Math.max(1, Math.abs(s.sharpeRatio)));
      expect(Math.abs((c["maxDrawdown"]?.[i] as number) - s.maxDrawdown)).toBeLessThan(1e-12);
      expect(c["trades"]?.[i]).toBe(r.trades.length); // round trips, the open one included
      expect(c["turnover"]?.[i]).toBeCloseTo(s.turnover, 12);
      const grossExposure = Array.from(r.exposure).reduce((a, x) => a + Math.abs(x), 0) / N;
      expect(c["exposure"]?.[i]).toBeCloseTo(grossExposure, 12);
      expect(Array.from(res.returnsOf(i))).toEqual(Array.from(r.returns));
      traded += s.trades;
    }
    expect(traded).toBeGreaterThan(0); // the data make the variants trade
  });

  it("reads a Panel with a column map like plain columns", async () => {
    const panel = createPanel(time, { BTC_close: bars.close, ob: bars.imbalance, funding: bars.funding, basis_spread: bars.basis_spread, momentum_5m: bars.momentum_5m, gas: bars.gas });
    const weights = simplexGrid(COMPONENT_NAMES, 0.5);
    const a = await sweepComposite(columns, { weights, thresholds: [0.1], workers: 0 });
    const b = await sweepComposite(panel, { weights, thresholds: [0.1], columns: { close: "BTC_close", imbalance: "ob" }, workers: 0 });
    expectSameTable(a, b);
  });

  it("gives identical tables for 0, 1 and 2 worker threads and for 1 vs 3 merged shards (also through JSON)", async () => {
    const weights = randomSimplex(8, { seed: 11 });
    const opts = { weights, thresholds: [0.05, 0.1, 0.2], feeBps: FEE };
    const one = await sweepComposite(columns, { ...opts, workers: 1 });
    const two = await sweepComposite(columns, { ...opts, workers: 2 });
    const main = await sweepComposite(columns, { ...opts, workers: 0 });
    expectSameTable(one, two);
    expectSameTable(one, main);
    const shards = await Promise.all([2, 0, 1].map((index) => sweepComposite(columns, { ...opts, workers: 0, shard: { index, count: 3 } })));
    expect(shards.map((s) => s.length)).toEqual([8, 8, 8]);
    expect(shards.every((s) => !s.complete && s.total === 24)).toBe(true);
    const merged = mergeSweeps(shards);
    expect(merged.complete).toBe(true);
    expectSameTable(one, merged);
    expect(Array.from(merged.returnsOf(5))).toEqual(Array.from(one.returnsOf(5)));
    const viaJson = mergeSweeps(shards.map((s) => JSON.parse(JSON.stringify(s))));
    expectSameTable(one, viaJson);
    expect(() => viaJson.returnsOf(0)).toThrow(/read back from JSON/);
    expect(mergeSweeps(shards.slice(0, 2)).complete).toBe(false);
    expect(() => mergeSweeps([shards[0] as SweepResult, { ...JSON.parse(JSON.stringify(shards[1])), periodsPerYear: 365 }])).toThrow(/annualises with 365 bars a year/);
    expect(() => mergeSweeps([shards[0] as SweepResult, shards[0] as SweepResult])).toThrow(/variant \d+ is in shard 0 and in shard 1/);
  });

  it("carries a manifest (inputs and table fingerprinted; another fee gives another table hash) and writes its table to Parquet", async () => {
    const weights = simplexGrid(COMPONENT_NAMES, 0.5);
    const a = await sweepComposite(columns, { weights, thresholds: [0.1], feeBps: FEE, workers: 0 });
    const b = await sweepComposite(columns, { weights, thresholds: [0.1], feeBps: FEE + 1, workers: 0 });
    expect(a.manifest.kind).toBe("sweep");
    expect(a.manifest.parameters).toMatchObject({ feeBps: FEE, missing: "renormalise", neutral: "flat" });
    expect(Object.keys(a.manifest.inputs.columns)).toEqual(expect.arrayContaining(["time", "close", "scores.imbalance", "thresholds"]));
    expect(b.manifest.inputs.columns["close"]?.sha256).toBe(a.manifest.inputs.columns["close"]?.sha256);
    expect(b.manifest.result?.sha256).not.toBe(a.manifest.result?.sha256);
    const dir = mkdtempSync(join(tmpdir(), "milab-sweep-parquet-"));
    try {
      await a.toParquet(join(dir, "sweep.parquet"));
      const back = await readParquet(join(dir, "sweep.parquet"), { timeColumn: "variant" }); // a sweep table has no time: the variant number stands in
      expect(Array.from(back.columns["sharpeRatio"] ?? [])).toEqual(Array.from(a.columns["sharpeRatio"] ?? []));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("stops on the signal and keeps the finished variants, on the calling thread and in the pool", async () => {
    const weights = randomSimplex(40, { seed: 2 });
    const long = generateBars(20_000, 9); // 40 variants: 8 blocks or more
    const cols = { close: long.close, imbalance: long.imbalance, funding: long.funding, basis_spread: long.basis_spread, momentum_5m: long.momentum_5m, gas: long.gas };
    for (const workers of [0, 2]) {
      const ac = new AbortController();
      const seen: number[] = [];
      const part = await sweepComposite(cols, {
        weights,
        workers,
        periodsPerYear: 525_600,
        signal: ac.signal,
        onProgress: ({ done, total }) => {
          seen.push(done);
          expect(total).toBe(40);
          ac.abort();
        },
      });
      expect(part.aborted).toBe(true);
      expect(part.complete).toBe(false);
      expect(part.length).toBeGreaterThan(0);
      expect(part.length).toBeLessThan(40);
      expect(seen.at(-1)).toBe(part.length);
      // the finished rows are exactly the full run's rows for those variants
      const check = await sweepComposite(cols, { weights: Array.from(part.columns["variant"] as Float64Array, (v) => weights[v] as Weights), workers: 0, periodsPerYear: 525_600 });
      for (const m of ["totalReturn", "sharpeRatio", "trades"]) expect(Array.from(part.columns[m] as Float64Array)).toEqual(Array.from(check.columns[m] as Float64Array));
    }
  });

  it("reports progress up to the total", async () => {
    const seen: number[] = [];
    await sweepComposite(columns, { weights: simplexGrid(COMPONENT_NAMES, 0.25), thresholds: [0.1, 0.2], workers: 0, onProgress: (p) => seen.push(p.done) });
    expect(seen.at(-1)).toBe(140);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  it("keeps blocks small when variants have few bars (a variant's fixed cost counts): progress and Ctrl-C come often", async () => {
    const short = Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, (v as Float64Array).subarray(0, 48)]));
    const steps: number[] = [];
    let last = 0;
    const r = await sweepComposite(short, { weights: simplexGrid(COMPONENT_NAMES, 0.05), thresholds: [0.1], workers: 0, periodsPerYear: 525_600, onProgress: ({ done }) => {
      steps.push(done - last);
      last = done;
    } });
    expect(r.length).toBe(10_626);
    // 4e6 bar-evaluations a block at (48 + 4,000) per variant: 989 variants (bars alone gave 83,334, so the
    // eighth of the sweep, 1,329 a block)
    expect(Math.max(...steps)).toBe(989);
  });

  it("ranks with best(metric): the largest value, NaN skipped", async () => {
    const res = await sweepComposite(columns, { weights: simplexGrid(COMPONENT_NAMES, 0.5), thresholds: [0.05, 0.1], workers: 0 });
    const sharpe = res.columns["sharpeRatio"] as Float64Array;
    const b = res.best();
    expect(b?.value).toBe(Math.max(...Array.from(sharpe).filter((x) => !Number.isNaN(x))));
    expect(b?.weights).toEqual(res.weightsOf(b?.index as number));
    expect(res.best("maxDrawdown")?.value).toBe(Math.max(...Array.from(res.columns["maxDrawdown"] as Float64Array)));
    expect(() => res.best("alpha" as never)).toThrow(/metric must be one of/);
    const df = res.toDataFrame();
    expect(df.columns).toEqual(Object.keys(res.columns));
  });

  it("handles no bars, one bar, a missing component value and a constant price", async () => {
    const w = [{ imbalance: 0.5, momentum_5m: 0.5 }];
    const empty = await sweepComposite({ close: [], imbalance: [], momentum_5m: [] }, { weights: w, workers: 0, periodsPerYear: 365 });
    expect(empty.length).toBe(1);
    expect(empty.columns["totalReturn"]?.[0]).toBeNaN();
    expect(empty.columns["sharpeRatio"]?.[0]).toBeNaN();
    const one = await sweepComposite({ close: [100], imbalance: [0.9], momentum_5m: [1] }, { weights: w, workers: 0, periodsPerYear: 365 });
    expect(one.columns["totalReturn"]?.[0]).toBe(0);
    expect(one.columns["trades"]?.[0]).toBe(0);
    // imbalance missing at bar 1: renormalised to momentum alone (0.5 x 0.5 / 0.5 = 0.25 >= 0.1: long)
    const gap = await sweepComposite({ close: [100, 110, 121], imbalance: [0.5, Number.NaN, 0.5], momentum_5m: [0, 0.5, 0] }, { weights: w, workers: 0, periodsPerYear: 365 });
    expect(gap.columns["totalReturn"]?.[0]).toBeCloseTo(0.1, 12); // long over bar 2 only: 121 / 110 - 1
    // held weight 1 at close 1 (after the fill) and at close 2 (the last decision is never filled): 2 of 3 bars
    expect(gap.columns["exposure"]?.[0]).toBeCloseTo(2 / 3, 15);
    const flat = await sweepComposite({ close: [5, 5, 5, 5], imbalance: [1, 1, 0, 0], momentum_5m: [1, 1, 1, 1] }, { weights: w, workers: 0, periodsPerYear: 365 });
    expect(flat.columns["totalReturn"]?.[0]).toBe(0);
    expect(flat.columns["sharpeRatio"]?.[0]).toBeNaN(); // 0 / 0, as empyrical
  });

  it("follows a variant through a close, flat bars (one without a price) and a re-entry, by hand, and equals its plain backtest bit for bit", async () => {
    // Long at bar 0 (fee 10 bps on 10,000), funding 1 % a bar and the rise to 110, out at bar 1; flat over a
    // missing price and an unchanged bar; long again at 100 (bar 4); funding and the fall to 50 at bar 5.
    // Hand computation (/usr/bin/python3, floats in this order):
    //   E=10000; V=E; q=E*(1/100); V-=0.001*E; V-=q*100*0.01; V+=q*(110-100); E=V; V-=0.001*E; E=V
    //   q=E*(1/100); V-=0.001*E; V-=q*100*0.01; V+=q*(50-100); E=V  ->  E/10000-1 = -0.468011521
    //   exposure: weights 1, 0, 0, 0, 1, q*50/E = 1.0224948875255624, mean over 6 bars = 0.5037491479209271
    const input = { close: [100, 110, Number.NaN, 121, 100, 50], imbalance: [1, 0.5, 0.5, 0.5, 1, 0.5] };
    const barFunding = [0, 0.01, 0.01, 0.01, 0.01, 0.01];
    const options = { weights: [{ imbalance: 1 }], thresholds: [0.1], feeBps: 10, barFunding, periodsPerYear: 365, workers: 0 };
    const res = await sweepComposite(input, options);
    expect(res.columns["totalReturn"]?.[0]).toBeCloseTo(-0.468011521, 14);
    expect(res.columns["trades"]?.[0]).toBe(2);
    expect(res.columns["turnover"]?.[0]).toBeCloseTo(3, 14);
    expect(res.columns["exposure"]?.[0]).toBeCloseTo(0.5037491479209271, 14);
    // the plain backtest of the same labels (the block path, not the sweep's generated loop)
    const labels = replayComposite(input, { weights: { imbalance: 1 }, threshold: 0.1 }).label;
    const r = backtest({ close: input.close, signal: labels, feeBps: 10, funding: barFunding });
    expect(res.columns["totalReturn"]?.[0]).toBe((r.equity[5] as number) / 10_000 - 1);
    expect(Array.from(res.returnsOf(0))).toEqual(Array.from(r.returns));
    expect(res.columns["turnover"]?.[0]).toBe(r.turnover.reduce((x, y) => x + y, 0));
  });

  it("does not modify its inputs", async () => {
    const copy = Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, Float64Array.from(v)]));
    const weights = simplexGrid(COMPONENT_NAMES, 0.5);
    const wCopy = JSON.stringify(weights);
    await sweepComposite(columns, { weights, workers: 1 });
    for (const [k, v] of Object.entries(columns)) expect(Array.from(v)).toEqual(Array.from(copy[k] as Float64Array));
    expect(JSON.stringify(weights)).toBe(wCopy);
  });

  it("rejects bad arguments naming the function and the fix", async () => {
    const ok = { weights: [{ imbalance: 1 }] };
    const bad: [object, object, RegExp][] = [
      [columns, { weights: [] }, /weights must be a non-empty array/],
      [columns, { weights: [{ imbalance: 0.5 }] }, /weights must sum to 1/],
      [columns, { ...ok, thresholds: [200] }, /threshold must be a number in \[0, 1\]/],
      [columns, { ...ok, thresholds: [] }, /thresholds must be a non-empty array/],
      [columns, { weights: [{ volume: 1 }] }, /no column for weighted component volume/],
      [{ imbalance: [0.5] }, ok, /no close column/],
      [columns, { ...ok, fill: "next_open" }, /sweeps run the backtest's default mode/],
      [columns, { ...ok, workers: -1 }, /workers must be a whole number 0\.\.256/],
      [columns, { ...ok, shard: { index: 3, count: 3 } }, /shard.index must be a whole number in 0..2/],
      [columns, { ...ok, feeBps: -1 }, /feeBps must be a finite number >= 0/],
      [columns, { ...ok, neutral: "sideways" }, /neutral must be "flat" or "hold"/],
      [columns, { ...ok, barFunding: [1, 2] }, /barFunding must have one value per bar/],
      [{ close: [1, 2], imbalance: [0.5, 0.5], time: [2, 1] }, ok, /time must ascend strictly/],
      [{ close: [1, -2], imbalance: [0.5, 0.5] }, ok, /close prices must be > 0/],
    ];
    for (const [input, options, message] of bad) {
      await expect(sweepComposite(input as never, options as never)).rejects.toThrow(InvalidArgumentError);
      await expect(sweepComposite(input as never, options as never)).rejects.toThrow(message);
    }
  });
});
