/**
 * monthlyReturns, yearlyReturns and topDrawdowns against pandas 1.5.3 (Debian
 * /usr/bin/python3) run once on fixtures/real/coinbase-btc-4h.json.gz:
 *   t = pd.to_datetime(pd.Series(time), unit="ms", utc=True); r = pd.Series(close).pct_change()
 *   m = (1 + r.fillna(0)).groupby([t.dt.year, t.dt.month]).prod() - 1
 *   y = (1 + r.fillna(0)).groupby(t.dt.year).prod() - 1
 * and for the drawdowns, from runs of bars under the running maximum (not the
 * episode walk of topDrawdowns):
 *   W = (1 + r.fillna(0)).cumprod(); hwm = maximum.accumulate(concat([1], W))[1:]; under = W < hwm
 *   for each run i..j of under: peak = time[max(i-1, 0)]; valley = time[i + argmin(W[i..j])];
 *   recovery = time[j+1] (NaN at the end); depth = W[valley] / hwm[valley] - 1;
 *   days = (recovery or time[-1] - peak) / 86400000; sorted by depth
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cumReturnsFinal } from "../../src/metrics/cumReturns.js";
import { maxDrawdown } from "../../src/metrics/maxDrawdown.js";
import { loadRealCandles } from "../../src/load/index.js";
import { monthlyReturns } from "../../src/metrics/monthlyReturns.js";
import { topDrawdowns } from "../../src/metrics/topDrawdowns.js";
import { yearlyReturns } from "../../src/metrics/yearlyReturns.js";

const DAY = 86_400_000;
const col = (t: { columns: Readonly<Record<string, unknown>> }, name: string): number[] => Array.from(t.columns[name] as Float64Array);

function close(actual: number, expected: number, tol = 1e-12): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(expected)));
}

describe("monthlyReturns / yearlyReturns on Coinbase BTC 4h (pandas)", () => {
  const panel = loadRealCandles("coinbase-btc-4h");
  const px = panel.columns.close as Float64Array;
  const returns = Float64Array.from(px, (c, i) => (i === 0 ? Number.NaN : c / (px[i - 1] as number) - 1));
  const time = panel.time;

  it("matches the pandas groupby by UTC year and month", () => {
    const m = monthlyReturns(returns, { time });
    expect(m.rows).toBe(114);
    const expected: [number, number, number, number][] = [
      [0, 2016, 5, 0.16516819437743968],
      [1, 2016, 6, 0.26753114766439734],
      [2, 2016, 7, -0.06907303746158122],
      [50, 2020, 7, 0.24248812416540821],
      [113, 2025, 10, -0.0013646280792348753],
    ];
    for (const [k, y, mo, v] of expected) {
      expect(col(m, "year")[k]).toBe(y);
      expect(col(m, "month")[k]).toBe(mo);
      close(col(m, "return")[k] as number, v, 1e-10);
    }
    close(col(m, "return").reduce((a, b) => a + b, 0), 8.041960434016415, 1e-10);
  });

  it("yearly returns match pandas", () => {
    const y = yearlyReturns(returns, { time });
    expect(col(y, "year")).toEqual([2016, 2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025]);
    const expected = [1.1344897153633613, 13.242405251856951, -0.733692174855174, 0.940951173663142, 3.0456618455647035, 0.594036304832551, -0.6422872444020106, 1.5582071764965675, 1.207578687695786, 0.22021318372109078];
    col(y, "return").forEach((v, i) => close(v, expected[i] as number, 1e-9));
  });

  it("topDrawdowns matches the runs-under-the-maximum computation", () => {
    const d = topDrawdowns(returns, { time });
    expect(d.rows).toBe(5);
    const expected = [
      [1513497600000, 1544875200000, 1608120000000, -0.8417991334758558, 1095.1666666666667],
      [1636416000000, 1669046400000, 1709913600000, -0.7707519595383863, 850.6666666666666],
      [1618387200000, 1626739200000, 1634731200000, -0.5415264145687626, 189.16666666666666],
      [1504296000000, 1505462400000, 1507780800000, -0.388236435401041, 40.333333333333336],
      [1497211200000, 1500192000000, 1501891200000, -0.3851509513234497, 54.166666666666664],
    ];
    expected.forEach(([p, v, r, depth, days], k) => {
      expect(col(d, "peak")[k]).toBe(p);
      expect(col(d, "valley")[k]).toBe(v);
      expect(col(d, "recovery")[k]).toBe(r);
      close(col(d, "depth")[k] as number, depth as number, 1e-12);
      close(col(d, "days")[k] as number, days as number);
    });
    // 193 episodes in all (pandas: len(runs))
    expect(topDrawdowns(returns, { time, top: 1000 }).rows).toBe(193);
  });

  it("counts days from peak to recovery, the doc's example beside quantstats' and pyfolio's counts", () => {
    // Daily from Monday 2024-01-01: equity 1.1, 0.99, 0.9405, 1.1286, 1.1286: peak Jan 1, valley Jan 3, recovery Jan 4.
    // Reference counts (pandas 1.5.3, /usr/bin/python3, their rules written out): quantstats' under-water days
    // (first under water Jan 2, last Jan 3: (end - start).days + 1) = 2; pyfolio's
    // len(pd.date_range("2024-01-01", "2024-01-04", freq="B")) = 4. Ours, calendar days peak -> recovery: 3.
    const day = 86_400_000;
    const t0 = Date.UTC(2024, 0, 1);
    const d = topDrawdowns([0.1, -0.1, -0.05, 0.2, 0], { time: [0, 1, 2, 3, 4].map((k) => t0 + k * day) });
    expect(col(d, "peak")).toEqual([t0]);
    expect(col(d, "valley")).toEqual([t0 + 2 * day]);
    expect(col(d, "recovery")).toEqual([t0 + 3 * day]);
    expect(col(d, "days")).toEqual([3]);
    // unrecovered: to the last bar (Jan 5), 4 days, as quantstats' count of Jan 2 .. Jan 5 under water
    const u = topDrawdowns([0.1, -0.1, -0.05, 0.01, 0], { time: [0, 1, 2, 3, 4].map((k) => t0 + k * day) });
    expect(col(u, "recovery")).toEqual([Number.NaN]);
    expect(col(u, "days")).toEqual([4]);
  });
});

describe("monthlyReturns: hand cases and edges", () => {
  const jan31late = Date.UTC(2024, 0, 31, 23); // 2024-01-31T23:00Z: February 1st in Tokyo, January in New York
  const feb1 = Date.UTC(2024, 1, 1, 0);
  const mar1 = Date.UTC(2024, 2, 1);

  it("compounds within a month and credits bar t to the month of time[t]", () => {
    // January: 1.1 * 1.1 - 1 = 0.21; February: -0.5; March 2025: 0.02 (a year with a gap of months in between)
    const m = monthlyReturns([0.1, 0.1, -0.5, 0.02], { time: [Date.UTC(2024, 0, 1), jan31late, feb1, Date.UTC(2025, 2, 5)] });
    expect(col(m, "year")).toEqual([2024, 2024, 2025]);
    expect(col(m, "month")).toEqual([1, 2, 3]);
    close(col(m, "return")[0] as number, 0.21);
    close(col(m, "return")[1] as number, -0.5);
    close(col(m, "return")[2] as number, 0.02);
  });

  it("skips NaN returns; an all-NaN month is 0", () => {
    // January: (1 + 0.1)(1 + 0.2) - 1 = 0.32 with the NaN skipped; February: only NaN -> 0
    const m = monthlyReturns([0.1, Number.NaN, 0.2, Number.NaN], { time: [0, 1, 2, Date.UTC(1970, 1, 2)] });
    close(col(m, "return")[0] as number, 0.32);
    expect(col(m, "return")[1]).toBe(0);
  });

  it("empty, one point, constant", () => {
    expect(monthlyReturns([], { time: [] }).rows).toBe(0);
    close(col(monthlyReturns([0.05], { time: [mar1] }), "return")[0] as number, 0.05);
    const m = monthlyReturns([0, 0, 0], { time: [0, DAY, 40 * DAY] });
    expect(col(m, "return")).toEqual([0, 0]);
  });

  it("does not depend on the machine's time zone (UTC months)", () => {
    const before = process.env.TZ;
    const run = (): number[] => col(monthlyReturns([0.1, 0.2], { time: [jan31late, feb1] }), "month");
    try {
      for (const tz of ["Asia/Tokyo", "America/New_York", "Pacific/Kiritimati", "UTC"]) {
        process.env.TZ = tz;
        expect(run()).toEqual([1, 2]);
      }
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });

  it("bad arguments name the fix; input not mutated", () => {
    expect(() => monthlyReturns([0.1], { time: [] })).toThrow(/monthlyReturns: time must have one value per return \(1\), got 0/);
    expect(() => monthlyReturns([0.1, 0.2], { time: [5, 1] })).toThrow(/ascending/);
    expect(() => monthlyReturns([0.1], { time: [Number.NaN] })).toThrow(/finite/);
    expect(() => monthlyReturns([0.1], undefined as never)).toThrow(/options.time/);
    expect(() => monthlyReturns(null as never, { time: [] })).toThrow(/returns must be/);
    const r = Float64Array.of(0.1, Number.NaN);
    const t = Float64Array.of(0, DAY);
    monthlyReturns(r, { time: t });
    expect(Array.from(r)).toEqual([0.1, Number.NaN]);
    expect(Array.from(t)).toEqual([0, DAY]);
  });

  it("toDataFrame has the three columns", async () => {
    const df = await monthlyReturns([0.1], { time: [0] }).toDataFrame();
    expect(df.columns).toEqual(["year", "month", "return"]);
  });
});

describe("topDrawdowns: hand cases and edges", () => {
  const t = (n: number): number[] => Array.from({ length: n }, (_, i) => i * DAY);

  it("two episodes, deepest first, peak = last bar at the mark, valley = first bar at the low", () => {
    // W: 1.1, 1.1 (r=0, still at the mark: the peak moves here), 0.88, 0.88 (same low: valley stays at the first),
    //    1.1 (recovered, = mark), 0.99, then 0.99*1.5 = 1.485 (recovered)
    // episode A: peak day 1, valley day 2, recovery day 4, depth 0.88/1.1 - 1 = -0.2, days 3
    // episode B: peak day 4, valley day 5, recovery day 6, depth 0.99/1.1 - 1 = -0.1, days 2
    const r = [0.1, 0, -0.2, 0, 0.25, -0.1, 0.5];
    const d = topDrawdowns(r, { time: t(7) });
    expect(col(d, "peak")).toEqual([1 * DAY, 4 * DAY]);
    expect(col(d, "valley")).toEqual([2 * DAY, 5 * DAY]);
    expect(col(d, "recovery")).toEqual([4 * DAY, 6 * DAY]);
    close(col(d, "depth")[0] as number, -0.2);
    close(col(d, "depth")[1] as number, -0.1);
    expect(col(d, "days")).toEqual([3, 2]);
    expect(col(topDrawdowns(r, { time: t(7), top: 1 }), "depth").length).toBe(1);
  });

  it("unrecovered episode from the starting equity: peak = time[0], recovery NaN, days to the last time", () => {
    // W: 0.9, 0.45, 0.675 (below 1): peak is the start (time[0]), valley day 1, days = (2 - 0) days
    const d = topDrawdowns([-0.1, -0.5, 0.5], { time: [0, DAY, 2.5 * DAY] });
    expect(col(d, "peak")).toEqual([0]);
    expect(col(d, "valley")).toEqual([DAY]);
    expect(Number.isNaN(col(d, "recovery")[0] as number)).toBe(true);
    close(col(d, "depth")[0] as number, -0.55);
    expect(col(d, "days")).toEqual([2.5]);
  });

  it("NaN returns count as 0; empty, one point, constant give what they should", () => {
    const d = topDrawdowns([0.1, Number.NaN, -0.1, Number.NaN, 0.2], { time: t(5) });
    expect(col(d, "peak")).toEqual([1 * DAY]); // NaN keeps W at the mark: the last bar there is day 1
    expect(col(d, "recovery")).toEqual([4 * DAY]);
    expect(topDrawdowns([], { time: [] }).rows).toBe(0);
    expect(topDrawdowns([0.1], { time: [0] }).rows).toBe(0);
    expect(topDrawdowns([0, 0, 0], { time: t(3) }).rows).toBe(0);
    expect(col(topDrawdowns([-0.1], { time: [0] }), "days")).toEqual([0]);
  });

  it("bad arguments; no mutation", () => {
    expect(() => topDrawdowns([0.1], { time: [0], top: 0 })).toThrow(/topDrawdowns: top must be an integer >= 1/);
    expect(() => topDrawdowns([0.1], { time: [0], top: 1.5 })).toThrow(/top/);
    expect(() => topDrawdowns([0.1, 0.2], { time: [0] })).toThrow(/one value per return \(2\)/);
    const r = Float64Array.of(-0.1, 0.2);
    topDrawdowns(r, { time: [0, 1] });
    expect(Array.from(r)).toEqual([-0.1, 0.2]);
  });
});

describe("properties (fast-check)", () => {
  const series = fc.array(fc.oneof(fc.double({ min: -0.5, max: 0.5, noNaN: true }), fc.constant(Number.NaN)), { maxLength: 60 });
  it("the deepest episode is maxDrawdown; episodes are disjoint and ordered by depth", () => {
    fc.assert(
      fc.property(series, (r) => {
        const time = r.map((_, i) => i * DAY);
        const d = topDrawdowns(r, { time, top: 1000 });
        const depth = col(d, "depth");
        const mdd = maxDrawdown(r);
        if (depth.length === 0) return r.length === 0 || mdd === 0;
        expect(Math.abs((depth[0] as number) - mdd)).toBeLessThanOrEqual(1e-12);
        for (let k = 1; k < depth.length; k++) expect(depth[k]!).toBeGreaterThanOrEqual(depth[k - 1]!);
        const spans = col(d, "peak").map((p, k) => [p, Number.isNaN(col(d, "recovery")[k]!) ? Infinity : col(d, "recovery")[k]!] as const).sort((a, b) => a[0] - b[0]);
        for (let k = 1; k < spans.length; k++) expect(spans[k]![0]).toBeGreaterThanOrEqual(spans[k - 1]![1]);
        return true;
      }),
    );
  });
  it("compounding the months gives the total return (cumReturnsFinal)", () => {
    fc.assert(
      fc.property(series, fc.integer({ min: 3_600_000, max: 20 * DAY }), (r, step) => {
        const time = r.map((_, i) => Date.UTC(2023, 11, 20) + i * step);
        const m = monthlyReturns(r, { time });
        const total = col(m, "return").reduce((w, x) => w * (1 + x), 1) - 1;
        if (r.length === 0) return m.rows === 0;
        expect(Math.abs(total - cumReturnsFinal(r))).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(total)));
        return true;
      }),
    );
  });
});
