import { describe, expect, it } from "vitest";
import { barIntervalMs, resample, resampleOHLC } from "../../src/data/index.js";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { loadRealCandles } from "../../src/load/index.js";

const N = NaN;
// Reference: pandas 1.5.3 (/usr/bin/python3), computed once:
//   t = [0, 60, 120, 240, 300, 420, 1200, 1260] seconds; x = [10, 12, nan, 11, 9, 9.5, 20, 19]
//   r = pd.Series(x, index=pd.to_datetime(np.array(t)*1000, unit="ms")).resample("5min")
//   r.ohlc()  -> open [10, 9, nan, nan, 20], high [12, 9.5, nan, nan, 20], low [10, 9, nan, nan, 19], close [11, 9.5, nan, nan, 19]
//   r.mean() -> [11, 9.25, nan, nan, 19.5]; r.sum(min_count=1) -> [33, 18.5, nan, nan, 39]; r.sum() -> [33, 18.5, 0, 0, 39]
//   r.count() -> [3, 2, 0, 0, 2]; r.first() -> [10, 9, nan, nan, 20]; r.max() -> [12, 9.5, nan, nan, 20]; r.min() -> [10, 9, nan, nan, 19]
//   bar index (ms): [0, 300000, 600000, 900000, 1200000]
const t = [0, 60, 120, 240, 300, 420, 1200, 1260].map((s) => s * 1000);
const x = [10, 12, N, 11, 9, 9.5, 20, 19];
const bars = [0, 300_000, 600_000, 900_000, 1_200_000];

describe("resampleOHLC", () => {
  it("matches pandas resample('5min').ohlc() on a price series with NaN and empty bars", () => {
    const p = resampleOHLC(t, x, { interval: "5m" });
    expect(Array.from(p.time)).toEqual(bars);
    expect(Array.from(p.columns.open!)).toEqual([10, 9, N, N, 20]);
    expect(Array.from(p.columns.high!)).toEqual([12, 9.5, N, N, 20]);
    expect(Array.from(p.columns.low!)).toEqual([10, 9, N, N, 19]);
    expect(Array.from(p.columns.close!)).toEqual([11, 9.5, N, N, 19]);
    expect(Array.from(p.columns.count!)).toEqual([3, 2, 0, 0, 2]);
    expect(p.columns.volume).toBeUndefined();
  });
  it("label 'close' stamps each bar with its end; emptyBars 'drop' keeps bars with data", () => {
    const p = resampleOHLC(t, x, { interval: "5m", label: "close", emptyBars: "drop" });
    expect(Array.from(p.time)).toEqual([300_000, 600_000, 1_500_000]);
    expect(Array.from(p.columns.close!)).toEqual([11, 9.5, 19]);
  });
  it("real data: Coinbase ETH 4h bars resampled to 1d agree with Coinbase's own daily candles", () => {
    const h4 = loadRealCandles("coinbase-eth-4h");
    const d1 = loadRealCandles("coinbase-eth-1d");
    const days = resampleOHLC(h4, { interval: "1d", emptyBars: "drop" }); // a Panel of bars
    const same = resampleOHLC(h4.time, { open: h4.columns.open!, high: h4.columns.high!, low: h4.columns.low!, close: h4.columns.close!, volume: h4.columns.volume! }, { interval: "1d", emptyBars: "drop" });
    expect(Array.from(same.columns.close!)).toEqual(Array.from(days.columns.close!));
    let compared = 0;
    // The daily file's last bar (2025-10-21) was captured mid-day: its high and close differ from the full day's.
    const lastDay = days.time.indexOf(d1.time[d1.time.length - 1]!);
    expect(days.columns.close![lastDay]).not.toBe(d1.columns.close![d1.time.length - 1]);
    for (let i = 0; i < d1.time.length - 1; i++) {
      const j = days.time.indexOf(d1.time[i]!);
      if (j < 0 || days.columns.count![j] !== 6) continue; // full days only
      compared++;
      expect(days.columns.open![j]).toBeCloseTo(d1.columns.open![i]!, 6);
      expect(days.columns.high![j]).toBeCloseTo(d1.columns.high![i]!, 6);
      expect(days.columns.low![j]).toBeCloseTo(d1.columns.low![i]!, 6);
      expect(days.columns.close![j]).toBeCloseTo(d1.columns.close![i]!, 6);
      // Coinbase's daily volume is not exactly the sum of its 4h volumes (up to ~2 % apart in this set).
      expect(Math.abs(days.columns.volume![j]! / d1.columns.volume![i]! - 1)).toBeLessThan(0.05);
    }
    expect(compared).toBe(349); // every other day is complete in both sets and matches to 1e-6
  });
  it("from finer bars: first open, max high, min low, last close, summed volume", () => {
    const p = resampleOHLC([0, 60_000, 3_600_000], { open: [1, 2, 3], high: [5, 6, 7], low: [0.5, 0.4, 2], close: [2, 3, 4], volume: [10, N, 1] }, { interval: "1h" });
    expect(Array.from(p.time)).toEqual([0, 3_600_000]);
    expect(Array.from(p.columns.open!)).toEqual([1, 3]);
    expect(Array.from(p.columns.high!)).toEqual([6, 7]);
    expect(Array.from(p.columns.low!)).toEqual([0.4, 2]);
    expect(Array.from(p.columns.close!)).toEqual([3, 4]);
    expect(Array.from(p.columns.volume!)).toEqual([10, 1]);
  });
  it("empty input, one point, constant series; inputs untouched", () => {
    expect(resampleOHLC([], [], { interval: "1m" }).time.length).toBe(0);
    const one = resampleOHLC([90_000], [7], { interval: "1m" });
    expect([one.time[0], one.columns.open![0], one.columns.close![0]]).toEqual([60_000, 7, 7]);
    const c = resampleOHLC([0, 1, 2], [3, 3, 3], { interval: 1 });
    expect(Array.from(c.columns.high!)).toEqual([3, 3, 3]);
    const xs = [...x];
    resampleOHLC(t, xs, { interval: "5m" });
    expect(xs).toEqual(x);
  });
  it("rejects bad arguments", () => {
    expect(() => resampleOHLC(t, x, { interval: "2m" as never })).toThrow(
      'resampleOHLC: interval must be one of 1m, 5m, 15m, 1h, 4h, 1d or a positive integer of ms, got "2m"',
    );
    expect(() => resampleOHLC([1, 0], [1, 2], { interval: "1m" })).toThrow("resampleOHLC: time must be ascending, got 0 after 1 at index 1");
    expect(() => resampleOHLC([0], [1, 2], { interval: "1m" })).toThrow("resampleOHLC: open has 2 values, expected 1");
    expect(() => resampleOHLC([0], { open: [1], high: [1], low: [1] } as never, { interval: "1m" })).toThrow("close is missing");
    expect(() => resampleOHLC([0], [1], { interval: "1m", label: "mid" as never })).toThrow('label must be "open" or "close", got "mid"');
    expect(() => resampleOHLC([0], [1], { interval: "1m", emptyBars: "zero" as never })).toThrow(InvalidArgumentError);
    expect(() => resampleOHLC([NaN], [1], { interval: "1m" })).toThrow("time must be finite epoch ms, got NaN at index 0");
    expect(() => resampleOHLC([0], null as never, { interval: "1m" })).toThrow("resampleOHLC: prices must be a series or { open, high, low, close, volume? }, got null");
    expect(() => resampleOHLC({ time: Float64Array.of(0), columns: { close: Float64Array.of(1) } }, { interval: "1m" })).toThrow("open is missing");
  });
});

describe("resample", () => {
  const agg = (how: "last" | "first" | "mean" | "sum" | "max" | "min" | "count") => Array.from(resample(t, { x }, { interval: "5m", how }).columns.x!);
  it("matches pandas for every aggregation (sum as sum(min_count=1): an empty bar is NaN, not 0)", () => {
    expect(agg("mean")).toEqual([11, 9.25, N, N, 19.5]);
    expect(agg("sum")).toEqual([33, 18.5, N, N, 39]);
    expect(agg("count")).toEqual([3, 2, 0, 0, 2]);
    expect(agg("last")).toEqual([11, 9.5, N, N, 19]);
    expect(agg("first")).toEqual([10, 9, N, N, 20]);
    expect(agg("max")).toEqual([12, 9.5, N, N, 20]);
    expect(agg("min")).toEqual([10, 9, N, N, 19]);
  });
  it("per-column aggregations, default last; 4h bars start at 00:00 UTC", () => {
    const H = 3_600_000;
    const p = resample([H, 3 * H, 5 * H], { px: [1, 2, 3], vol: [1, 1, 1] }, { interval: "4h", how: { vol: "sum" } });
    expect(Array.from(p.time)).toEqual([0, 4 * H]);
    expect(Array.from(p.columns.px!)).toEqual([2, 3]);
    expect(Array.from(p.columns.vol!)).toEqual([2, 1]);
  });
  it("repeated times are allowed (ticks); bad options are rejected", () => {
    expect(Array.from(resample([0, 0, 0], { x: [1, 2, 3] }, { interval: "1m", how: "mean" }).columns.x!)).toEqual([2]);
    expect(() => resample([0], { x: [1] }, { interval: "1m", how: "median" as never })).toThrow(
      'resample: how must be one of last, first, mean, sum, max, min, count, got "median" for "x"',
    );
    expect(() => resample([0], { x: [1, 2] }, { interval: "1m" })).toThrow('resample: column "x" has 2 values, expected 1');
    expect(() => resample([0], { x: [1] }, undefined as never)).toThrow("resample: options must be an object");
    expect(barIntervalMs("1d", "f")).toBe(86_400_000);
    expect(() => barIntervalMs(0, "f")).toThrow("f: interval must be one of");
    expect(() => barIntervalMs(1.5, "f")).toThrow(InvalidArgumentError);
  });
});

describe("resample and resampleOHLC against a brute-force reference (property)", () => {
  it("every bar holds exactly the finite values whose time falls in [start, start + interval)", async () => {
    const fc = (await import("fast-check")).default;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5000 }), fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constant(NaN))), { maxLength: 80 }),
        fc.integer({ min: 1, max: 700 }),
        (pts, step) => {
          pts.sort((a, b) => a[0] - b[0]);
          const t = pts.map((p) => p[0]);
          const v = pts.map((p) => p[1]);
          const out = resample(t, { sum: v, n: v, hi: v, last: v }, { interval: step, how: { sum: "sum", n: "count", hi: "max", last: "last" } });
          const ohlc = resampleOHLC(t, v, { interval: step });
          for (let b = 0; b < out.time.length; b++) {
            const start = out.time[b]!;
            const inBar = pts.filter((p) => p[0] >= start && p[0] < start + step && !Number.isNaN(p[1])).map((p) => p[1]);
            expect(out.columns.n![b]).toBe(inBar.length);
            if (inBar.length === 0) {
              expect(out.columns.sum![b]).toBeNaN();
              expect(ohlc.columns.close![b]).toBeNaN();
              continue;
            }
            expect(out.columns.sum![b]).toBeCloseTo(inBar.reduce((s, x) => s + x, 0), 6);
            expect(out.columns.hi![b]).toBe(Math.max(...inBar));
            expect(out.columns.last![b]).toBe(inBar[inBar.length - 1]);
            expect([ohlc.columns.open![b], ohlc.columns.low![b], ohlc.columns.close![b]]).toEqual([inBar[0], Math.min(...inBar), inBar[inBar.length - 1]]);
          }
          // Bars are consecutive multiples of the step covering every point.
          for (let b = 0; b < out.time.length; b++) expect(out.time[b]! % step).toBe(0);
          if (t.length > 0) expect(out.time.length).toBe(Math.floor(t[t.length - 1]! / step) - Math.floor(t[0]! / step) + 1);
        },
      ),
      { numRuns: 200 },
    );
  });
});
