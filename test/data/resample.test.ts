import { spawnSync } from "node:child_process";
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
    // pandas keeps the last bar [1200 s, 1500 s) though the data stops at 1260 s: keep it to compare
    const p = resampleOHLC(t, x, { interval: "5m", partialLastBar: "keep" });
    expect(Array.from(p.time)).toEqual(bars);
    expect(Array.from(p.columns.open!)).toEqual([10, 9, N, N, 20]);
    expect(Array.from(p.columns.high!)).toEqual([12, 9.5, N, N, 20]);
    expect(Array.from(p.columns.low!)).toEqual([10, 9, N, N, 19]);
    expect(Array.from(p.columns.close!)).toEqual([11, 9.5, N, N, 19]);
    expect(Array.from(p.columns.count!)).toEqual([3, 2, 0, 0, 2]);
    expect(p.columns.volume).toBeUndefined();
  });
  it("label 'close' stamps each bar with its end; emptyBars 'drop' keeps bars with data", () => {
    const p = resampleOHLC(t, x, { interval: "5m", label: "close", emptyBars: "drop", partialLastBar: "keep" });
    expect(Array.from(p.time)).toEqual([300_000, 600_000, 1_500_000]);
    expect(Array.from(p.columns.close!)).toEqual([11, 9.5, 19]);
    // by default the last bar, which the data (1-minute spacing, last at 1260 s) does not fill, is dropped
    expect(Array.from(resampleOHLC(t, x, { interval: "5m", label: "close", emptyBars: "drop" }).time)).toEqual([300_000, 600_000]);
  });
  it("real data: Coinbase ETH 4h bars resampled to 1d agree with Coinbase's own daily candles", () => {
    const h4 = loadRealCandles("coinbase-eth-4h");
    const d1 = loadRealCandles("coinbase-eth-1d");
    const days = resampleOHLC(h4, { interval: "1d", emptyBars: "drop" }); // a Panel of bars
    const same = resampleOHLC(h4.time, { open: h4.columns.open!, high: h4.columns.high!, low: h4.columns.low!, close: h4.columns.close!, volume: h4.columns.volume! }, { interval: "1d", emptyBars: "drop" });
    expect(Array.from(same.columns.close!)).toEqual(Array.from(days.columns.close!));
    // the 4h file ends with the 2025-10-28 00:00 candle alone: a partial day, dropped (kept on request)
    expect(days.time[days.time.length - 1]).toBe(Date.UTC(2025, 9, 27));
    expect(resampleOHLC(h4, { interval: "1d", emptyBars: "drop", partialLastBar: "keep" }).time.length).toBe(days.time.length + 1);
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
    const p = resampleOHLC([0, 60_000, 3_600_000], { open: [1, 2, 3], high: [5, 6, 7], low: [0.5, 0.4, 2], close: [2, 3, 4], volume: [10, N, 1] }, { interval: "1h", partialLastBar: "keep" });
    expect(Array.from(p.time)).toEqual([0, 3_600_000]);
    expect(Array.from(p.columns.open!)).toEqual([1, 3]);
    expect(Array.from(p.columns.high!)).toEqual([6, 7]);
    expect(Array.from(p.columns.low!)).toEqual([0.4, 2]);
    expect(Array.from(p.columns.close!)).toEqual([3, 4]);
    expect(Array.from(p.columns.volume!)).toEqual([10, 1]);
  });
  it("empty input, one point, constant series; inputs untouched", () => {
    expect(resampleOHLC([], [], { interval: "1m" }).time.length).toBe(0);
    const one = resampleOHLC([90_000], [7], { interval: "1m", partialLastBar: "keep" });
    expect(resampleOHLC([90_000], [7], { interval: "1m" }).time.length).toBe(0); // one time: no spacing, cannot tell the bar is whole
    expect([one.time[0], one.columns.open![0], one.columns.close![0]]).toEqual([60_000, 7, 7]);
    const c = resampleOHLC([0, 1, 2], [3, 3, 3], { interval: 1 }); // spacing 1 = the interval: every bar is whole
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
    expect(() => resampleOHLC([0], [1], { interval: "1m", closed: "both" as never })).toThrow('resampleOHLC: closed must be "left" or "right", got "both"');
    expect(() => resampleOHLC([0], [1], { interval: "1m", partialLastBar: "nan" as never })).toThrow('resampleOHLC: partialLastBar must be "drop" or "keep", got "nan"');
    expect(() => resampleOHLC([NaN], [1], { interval: "1m" })).toThrow("time must be finite epoch ms, got NaN at index 0");
    expect(() => resampleOHLC([0], null as never, { interval: "1m" })).toThrow("resampleOHLC: prices must be a series or { open, high, low, close, volume? }, got null");
    expect(() => resampleOHLC({ time: Float64Array.of(0), columns: { close: Float64Array.of(1) } }, { interval: "1m" })).toThrow("open is missing");
  });
});

describe("resample", () => {
  const agg = (how: "last" | "first" | "mean" | "sum" | "max" | "min" | "count") => Array.from(resample(t, { x }, { interval: "5m", how, partialLastBar: "keep" }).columns.x!);
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
    const p = resample([H, 3 * H, 5 * H], { px: [1, 2, 3], vol: [1, 1, 1] }, { interval: "4h", how: { vol: "sum" }, partialLastBar: "keep" });
    expect(Array.from(p.time)).toEqual([0, 4 * H]);
    expect(Array.from(p.columns.px!)).toEqual([2, 3]);
    expect(Array.from(p.columns.vol!)).toEqual([2, 1]);
  });
  it("repeated times are allowed (ticks); bad options are rejected", () => {
    expect(Array.from(resample([0, 0, 0], { x: [1, 2, 3] }, { interval: "1m", how: "mean", partialLastBar: "keep" }).columns.x!)).toEqual([2]);
    // repeats do not count as spacing: ticks 20 s apart, each repeated, fill the minute [0, 60 s)
    expect(Array.from(resample([0, 0, 20_000, 20_000, 40_000, 40_000], { x: [1, 2, 3, 4, 5, 6] }, { interval: "1m" }).columns.x!)).toEqual([6]);
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
          const out = resample(t, { sum: v, n: v, hi: v, last: v }, { interval: step, how: { sum: "sum", n: "count", hi: "max", last: "last" }, partialLastBar: "keep" });
          const ohlc = resampleOHLC(t, v, { interval: step, partialLastBar: "keep" });
          // the default drops exactly the last bar, and only when the data (last time + spacing) stops before its end
          const dropped = resample(t, { last: v }, { interval: step });
          if (t.length > 0) {
            const distinct = [...new Set(t)];
            const gaps = distinct.slice(1).map((x, i) => x - distinct[i]!).sort((a, b) => a - b);
            const m = gaps.length;
            const spacing = m === 0 ? NaN : m % 2 ? gaps[(m - 1) / 2]! : (gaps[m / 2 - 1]! + gaps[m / 2]!) / 2;
            const end = out.time[out.time.length - 1]! + step;
            const whole = t[t.length - 1]! + spacing >= end;
            expect(dropped.time.length).toBe(out.time.length - (whole ? 0 : 1));
          }
          // Up to 5,000 bars a run: each bar is first checked with plain comparisons at least as strict as the
          // expectations below (Object.is for toBe/toEqual, toBeCloseTo(x, 6)'s |difference| < 5e-7), and the
          // expectations run only for a bar that fails them (for their message): a vitest expect per bar was
          // most of this test's time.
          for (let b = 0; b < out.time.length; b++) {
            const start = out.time[b]!;
            const inBar = pts.filter((p) => p[0] >= start && p[0] < start + step && !Number.isNaN(p[1])).map((p) => p[1]);
            if (inBar.length === 0) {
              if (Object.is(out.columns.n![b], 0) && Number.isNaN(out.columns.sum![b]) && Number.isNaN(ohlc.columns.close![b])) continue;
              expect(out.columns.n![b]).toBe(inBar.length);
              expect(out.columns.sum![b]).toBeNaN();
              expect(ohlc.columns.close![b]).toBeNaN();
              continue;
            }
            const sum = inBar.reduce((s, x) => s + x, 0);
            const [first, low, last] = [inBar[0], Math.min(...inBar), inBar[inBar.length - 1]];
            const ok =
              Object.is(out.columns.n![b], inBar.length) &&
              Math.abs(sum - out.columns.sum![b]!) < 5e-7 &&
              Object.is(out.columns.hi![b], Math.max(...inBar)) &&
              Object.is(out.columns.last![b], last) &&
              Object.is(ohlc.columns.open![b], first) &&
              Object.is(ohlc.columns.low![b], low) &&
              Object.is(ohlc.columns.close![b], last);
            if (ok) continue;
            expect(out.columns.n![b]).toBe(inBar.length);
            expect(out.columns.sum![b]).toBeCloseTo(sum, 6);
            expect(out.columns.hi![b]).toBe(Math.max(...inBar));
            expect(out.columns.last![b]).toBe(last);
            expect([ohlc.columns.open![b], ohlc.columns.low![b], ohlc.columns.close![b]]).toEqual([first, low, last]);
          }
          // Bars are consecutive multiples of the step covering every point.
          for (let b = 0; b < out.time.length; b++) if (out.time[b]! % step !== 0) expect(out.time[b]! % step).toBe(0);
          if (t.length > 0) expect(out.time.length).toBe(Math.floor(t[t.length - 1]! / step) - Math.floor(t[0]! / step) + 1);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("resample: closed and the partial last bar, against pandas", () => {
  // 48 hours of 1-minute closes stamped at each minute's end, from 00:01 to 48:01 (one minute past the hour):
  // resample(..., { interval: "1h", how: "last", label: "close" }) used to give 49 bars, the last stamped 49:00
  // (after the data ends) and made of one minute. pandas, spawned below, keeps that bin too.
  const M = 60_000;
  const H = 60 * M;
  const T0 = Date.UTC(2026, 9, 1);
  const time = Array.from({ length: 48 * 60 + 1 }, (_, i) => T0 + (i + 1) * M);
  const price = time.map((_, i) => 100 + Math.sin(i / 17) + i / 1000);
  const PY = [
    "import sys, json, pandas as pd",
    "d = json.load(sys.stdin); s = pd.Series(d['x'], index=pd.to_datetime(d['t'], unit='ms'))",
    "out = {}",
    "for closed in ['left', 'right']:",
    "    r = s.resample('1h', closed=closed, label='right').last()",
    "    out[closed] = {'t': [int(x.value // 10**6) for x in r.index], 'x': [float(v) for v in r.values]}",
    "print(json.dumps(out))",
  ].join("\n");
  const ref = (() => {
    const out = spawnSync("/usr/bin/python3", ["-c", PY], { input: JSON.stringify({ t: time, x: price }), encoding: "utf8" });
    if (out.status !== 0) throw new Error(out.stderr);
    return JSON.parse(out.stdout) as Record<"left" | "right", { t: number[]; x: number[] }>;
  })();

  it("keep: the bins of pandas resample('1h', closed, label='right').last(), for closed left and right", () => {
    for (const closed of ["left", "right"] as const) {
      const p = resample(time, { x: price }, { interval: "1h", how: "last", label: "close", closed, partialLastBar: "keep" });
      expect(Array.from(p.time)).toEqual(ref[closed].t);
      expect(Array.from(p.columns.x!)).toEqual(ref[closed].x);
    }
    expect(ref.left.t.length).toBe(49);
    expect(ref.right.t.length).toBe(49);
  });

  it("by default the last bar, made of the minutes past 48:00, is dropped: 48 bars, the last stamped 48:00", () => {
    for (const closed of ["left", "right"] as const) {
      const p = resample(time, { x: price }, { interval: "1h", how: "last", label: "close", closed });
      expect(Array.from(p.time)).toEqual(ref[closed].t.slice(0, -1));
      expect(Array.from(p.columns.x!)).toEqual(ref[closed].x.slice(0, -1));
      expect(p.time[p.time.length - 1]).toBe(T0 + 48 * H);
    }
    // closed right: the bar (47:00, 48:00] holds the minutes 47:01..48:00, the last of them its close
    const right = resample(time, { x: price }, { interval: "1h", how: "last", label: "close", closed: "right" });
    expect(right.columns.x![47]).toBe(price[48 * 60 - 1]);
  });

  it("a last bar the data fills to its end is kept", () => {
    const whole = time.slice(0, 48 * 60); // 00:01 .. 48:00
    expect(resample(whole, { x: price.slice(0, 48 * 60) }, { interval: "1h", label: "close", closed: "right" }).time.length).toBe(48);
    const open = Array.from({ length: 120 }, (_, i) => T0 + i * M); // 00:00 .. 01:59 stamped at the open
    expect(Array.from(resample(open, { x: open }, { interval: "1h" }).time)).toEqual([T0, T0 + H]);
    expect(Array.from(resampleOHLC(open, open, { interval: "1h" }).time)).toEqual([T0, T0 + H]);
    expect(Array.from(resampleOHLC(open.slice(0, 61), open.slice(0, 61), { interval: "1h" }).time)).toEqual([T0]);
  });
});
