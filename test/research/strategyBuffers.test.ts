/**
 * sweepStrategy's `out` and `shared` (issue 32): a strategy function writing its targets into the
 * column the sweep passes, and computing its indicators once per sweep through `shared`, gives
 * every variant the metrics of a plain `backtest` of a fresh column (the reference: the same rule
 * written as its own loop, one backtest per variant, metrics from the result); `out` is one column
 * for every variant and starts at 0 for each; `shared` computes each key once. Worker threads load
 * dist/: run `npm run build` first.
 */
import { describe, expect, it } from "vitest";
import { backtest, performanceSummary, sweepStrategy, type SharedValues } from "../../src/index.js";
import { generateBars } from "../bench/backtestData.js";
import { scaledMs } from "../support/timeScale.js";

const N = 1500;
const close = generateBars(N, 11).close;
const grid = { fast: [3, 8], slow: [20, 30, 45] };
const costs = { feeBps: 4, slippageBps: 1, periodsPerYear: 525_600, initialCash: 1 };

/** The reference: the SMA cross's targets in a fresh column (long above, short below, flat in warm-up). */
function crossTargets(c: Float64Array, fast: number, slow: number): Float64Array {
  const t = new Float64Array(c.length);
  for (let i = slow - 1; i < c.length; i++) {
    let f = 0;
    let s = 0;
    for (let k = 0; k < fast; k++) f += c[i - k] as number;
    for (let k = 0; k < slow; k++) s += c[i - k] as number;
    t[i] = f / fast > s / slow ? 1 : -1;
  }
  return t;
}

/** Each variant's metrics from a plain backtest of its fresh column. */
function reference(): number[][] {
  const rows: number[][] = [];
  for (const fast of grid.fast) {
    for (const slow of grid.slow) {
      const r = backtest({ close, position: crossTargets(close, fast, slow), ...costs });
      const s = performanceSummary(r.returns, { periodsPerYear: 525_600 });
      rows.push([r.equity[N - 1] as number, s.sharpeRatio, r.metrics.trades]);
    }
  }
  return rows;
}

/** A rolling mean of the close, NaN in warm-up (computed once per length through `shared`). */
const smaOf = (c: Float64Array, m: number): Float64Array => {
  const out = new Float64Array(c.length).fill(Number.NaN);
  for (let i = m - 1; i < c.length; i++) {
    let s = 0;
    for (let k = 0; k < m; k++) s += c[i - k] as number;
    out[i] = s / m;
  }
  return out;
};

describe("sweepStrategy: the documented way (out, shared)", () => {
  it("gives each variant the metrics of its plain backtest, writing into one zeroed column and computing each indicator once", async () => {
    const outs = new Set<Float64Array>();
    const computed: string[] = [];
    // Writes only from the slow mean's first bar on: the warm-up relies on `out` starting at 0.
    const strategy = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>, out: Float64Array, shared: SharedValues): Float64Array => {
      outs.add(out);
      const fast = p["fast"] as number;
      const slow = p["slow"] as number;
      const f = shared(`sma${fast}`, () => (computed.push(`sma${fast}`), smaOf(c["close"] as Float64Array, fast)));
      const s = shared(`sma${slow}`, () => (computed.push(`sma${slow}`), smaOf(c["close"] as Float64Array, slow)));
      for (let i = slow - 1; i < out.length; i++) out[i] = (f[i] as number) > (s[i] as number) ? 1 : -1;
      return out;
    };
    const r = await sweepStrategy(strategy, { data: { close }, grid, ...costs, workers: 0 });
    const ref = reference();
    expect(r.length).toBe(6);
    for (let v = 0; v < 6; v++) {
      const [equity, sharpe, trades] = ref[v] as number[];
      expect(1 + (r.columns["totalReturn"]?.[v] as number)).toBeCloseTo(equity as number, 12);
      expect(r.columns["sharpeRatio"]?.[v] as number).toBeCloseTo(sharpe as number, 9);
      expect(r.columns["trades"]?.[v]).toBe(trades);
    }
    // One column for every variant (the function saw the same array each time), each indicator once.
    expect(outs.size).toBe(1);
    expect([...outs][0]?.length).toBe(N);
    expect(computed.sort()).toEqual(["sma20", "sma3", "sma30", "sma45", "sma8"]);
    // A variant's returns (recomputed later) equal its backtest's; the sweep's shared values were dropped when it
    // ended (the result does not keep its indicators alive), so that call computes its own two means again.
    expect(Array.from(r.returnsOf(4))).toEqual(Array.from(backtest({ close, position: crossTargets(close, 8, 30), ...costs }).returns));
    expect(computed.slice(5).sort()).toEqual(["sma30", "sma8"]);
  });

  it("hands every variant a column of zeros: after a variant that returned it, and after one that wrote it and returned its own", async () => {
    // Variants with slow 30 return their own column after writing 7s all over `out` (a dirty column the sweep must fill);
    // the others return `out`, written from the slow mean's first bar on (their warm-up relies on the zeros).
    const dirtyAtEntry: number[] = [];
    const strategy = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>, out: Float64Array): Float64Array => {
      let nonzero = 0;
      for (let i = 0; i < out.length; i++) if (!Object.is(out[i], 0)) nonzero++;
      dirtyAtEntry.push(nonzero);
      const fast = p["fast"] as number;
      const slow = p["slow"] as number;
      const t = crossTargets(c["close"] as Float64Array, fast, slow);
      if (slow === 30) {
        out.fill(7);
        return t;
      }
      for (let i = slow - 1; i < out.length; i++) out[i] = t[i] as number;
      return out;
    };
    const r = await sweepStrategy(strategy, { data: { close }, grid, ...costs, workers: 0 });
    // 6 variants, then the purity check's second calls: every call met only zeros
    expect(dirtyAtEntry.length).toBeGreaterThanOrEqual(6);
    expect(dirtyAtEntry).toEqual(dirtyAtEntry.map(() => 0));
    const ref = reference();
    for (let v = 0; v < 6; v++) {
      const [equity, , trades] = ref[v] as number[];
      expect(1 + (r.columns["totalReturn"]?.[v] as number)).toBeCloseTo(equity as number, 12);
      expect(r.columns["trades"]?.[v]).toBe(trades);
    }
    // the same table bit for bit as each variant's fresh column of its own
    const own = await sweepStrategy((c, p) => crossTargets(c["close"] as Float64Array, p["fast"] as number, p["slow"] as number), { data: { close }, grid, ...costs, workers: 0 });
    for (const m of ["totalReturn", "sharpeRatio", "maxDrawdown", "trades", "turnover", "exposure"]) expect(Array.from(r.columns[m] as Float64Array), m).toEqual(Array.from(own.columns[m] as Float64Array));
  });

  it("gives the same table as the function returning a fresh column of its own, on the calling thread and in workers", async () => {
    const own = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>): Float64Array => {
      const x = c["close"] as Float64Array;
      const t = new Float64Array(x.length);
      const fast = p["fast"] as number;
      const slow = p["slow"] as number;
      let f = 0;
      let s = 0;
      for (let i = 0; i < x.length; i++) {
        f += x[i] as number;
        s += x[i] as number;
        if (i >= fast) f -= x[i - fast] as number;
        if (i >= slow) s -= x[i - slow] as number;
        t[i] = i + 1 < slow ? 0 : f / fast > s / slow ? 1 : -1;
      }
      return t;
    };
    // The same rule into `out` (self-contained: it runs in workers).
    const into = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>, out: Float64Array): Float64Array => {
      const x = c["close"] as Float64Array;
      const fast = p["fast"] as number;
      const slow = p["slow"] as number;
      let f = 0;
      let s = 0;
      for (let i = 0; i < x.length; i++) {
        f += x[i] as number;
        s += x[i] as number;
        if (i >= fast) f -= x[i - fast] as number;
        if (i >= slow) s -= x[i - slow] as number;
        out[i] = i + 1 < slow ? 0 : f / fast > s / slow ? 1 : -1;
      }
      return out;
    };
    const a = await sweepStrategy(own, { data: { close }, grid, ...costs, workers: 0 });
    const b = await sweepStrategy(into, { data: { close }, grid, ...costs, workers: 0 });
    const w = await sweepStrategy(into, { data: { close }, grid, ...costs, workers: 2 });
    expect(w.runsOn).toBe("workers");
    for (const m of ["totalReturn", "sharpeRatio", "maxDrawdown", "trades", "turnover", "exposure"]) {
      expect(Array.from(b.columns[m] as Float64Array), m).toEqual(Array.from(a.columns[m] as Float64Array));
      expect(Array.from(w.columns[m] as Float64Array), m).toEqual(Array.from(a.columns[m] as Float64Array));
    }
  }, scaledMs(60_000));
});
