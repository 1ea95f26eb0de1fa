/**
 * Signal tearsheet on real data against pandas 1.5.3 (Debian /usr/bin/python3),
 * fixtures/real/coinbase-btc-4h.json.gz, signal = 6-bar momentum, horizon 6 bars, 5 buckets:
 *   mom = px / px.shift(6) - 1; fwd = px.shift(-6) / px - 1; nxt = px.shift(-1) / px - 1
 *   d = DataFrame(mom, fwd).dropna(); b = floor((d.mom.rank() - 1) * 5 / len(d)) + 1; g = d.fwd.groupby(b)
 *   spread = g.mean()[5] - g.mean()[1]; se = sqrt(6 * (g.var()[5] / g.count()[5] + g.var()[1] / g.count()[1]))
 *   bb = floor((mom.rank() - 1) * 5 / mom.count()) + 1; nn = bb.dropna(); prev = nn.shift(1)
 *   turnover_q = ((nn == q) & (prev != q) & prev.notna()).sum() / ((nn == q) & prev.notna()).sum()
 *   ac_k = mom.corr(mom.shift(k), method="spearman")
 *   cum_q = prod(1 + where((bb == q).shift(1), nxt.shift(1), 0))
 *   blk = (time - time[0]) // (30 days); ics = groupby(blk).apply(x.mom.corr(x.fwd, method="spearman"))
 */
import { describe, expect, it } from "vitest";
import { loadRealCandles } from "../../src/load/index.js";
import { quantileBuckets } from "../../src/metrics/quantileBuckets.js";
import { quantileSpread } from "../../src/metrics/quantileSpread.js";
import { rollingIc } from "../../src/metrics/rollingIc.js";
import { signalTearsheet } from "../../src/metrics/signalTearsheet.js";

const DAY = 86_400_000;
function near(actual: number, expected: number, tol = 1e-10): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(expected)));
}
const col = (t: { columns: Readonly<Record<string, unknown>> }, name: string): number[] => Array.from(t.columns[name] as Float64Array);

describe("signalTearsheet on Coinbase BTC 4h, 6-bar momentum (pandas)", () => {
  const panel = loadRealCandles("coinbase-btc-4h");
  const px = panel.columns.close as Float64Array;
  const mom = Float64Array.from(px, (c, i) => (i < 6 ? Number.NaN : c / (px[i - 6] as number) - 1));
  const ts = signalTearsheet(mom, px, { time: panel.time, horizon: 6, buckets: 5 });

  it("mean forward return by quintile, spread and t-statistic", () => {
    const means = [0.003418526305316376, 0.001382643122698913, 0.001339075133960631, 0.00285630403949764, 0.002390391213039762];
    col(ts.quantiles, "meanForwardReturn").forEach((v, i) => near(v, means[i] as number));
    near(ts.spread.spread, -0.0010281350922766142);
    near(ts.spread.standardError, 0.0023396331227329955);
    near(ts.spread.tStat, -0.43944286917754816, 1e-9);
    expect([ts.spread.nTop, ts.spread.nBottom]).toEqual([4136, 4137]);
  });

  it("turnover, autocorrelation and cumulative return by quantile", () => {
    const turnover = col(ts.turnover, "turnover");
    near(turnover[0] as number, 0.28226196230062833);
    near(turnover[2] as number, 0.5462895818225767);
    near(turnover[4] as number, 0.2767706067198453);
    expect(col(ts.autocorrelation, "lag")).toEqual([1, 6]);
    near(col(ts.autocorrelation, "autocorrelation")[0] as number, 0.7843515116807451);
    near(col(ts.autocorrelation, "autocorrelation")[1] as number, -0.03705981070303407);
    const q5 = ts.cumulative.series["Q5"] as Float64Array;
    const q1 = ts.cumulative.series["Q1"] as Float64Array;
    near(q5[q5.length - 1] as number, 14.000840600364171, 1e-9);
    near(q1[q1.length - 1] as number, 2.597284653414904, 1e-9);
    near(ts.ic.ic, -0.03705981070303407);
  });

  it("rolling IC per 30-day window", () => {
    const r = ts.rollingIc;
    expect(r.rows).toBe(115);
    near(col(r, "ic")[0] as number, 0.09801304137361543);
    near(col(r, "ic")[10] as number, -0.006592796073952899);
    near(col(r, "ic")[114] as number, 0.10526303591046259);
    const ics = col(r, "ic");
    near(ics.reduce((a, b) => a + b, 0) / ics.length, -0.08461574173835819);
    const lo = col(r, "ciLow");
    const hi = col(r, "ciHigh");
    ics.forEach((ic, i) => expect((lo[i] as number) < ic && ic < (hi[i] as number)).toBe(true));
  });
});

describe("signal tearsheet parts: hand cases and edges", () => {
  it("quantileBuckets: equal-count buckets, ties share a bucket, NaN stays NaN", () => {
    // ranks of [3, 1, 2, 4] are 3, 1, 2, 4; floor((rank - 1) * 2 / 4) + 1 = 2, 1, 1, 2
    expect(Array.from(quantileBuckets([3, 1, 2, 4], { buckets: 2 }))).toEqual([2, 1, 1, 2]);
    // [1, 1, 2] ranks 1.5, 1.5, 3: floor(0.5 * 3 / 3) + 1 = 1, 1; floor(2 * 3 / 3) + 1 = 3
    expect(Array.from(quantileBuckets([1, Number.NaN, 1, 2], { buckets: 3 }))).toEqual([1, Number.NaN, 1, 3]);
    expect(quantileBuckets([], { buckets: 2 }).length).toBe(0);
    expect(() => quantileBuckets([1], { buckets: 1 })).toThrow(/buckets must be an integer >= 2/);
  });

  it("quantileSpread by hand", () => {
    // buckets of 2: bottom {1, 2} forward [0.01, 0.03], top {3, 4} forward [0.05, 0.09]
    // spread = 0.07 - 0.02 = 0.05; var_bottom = 0.0002, var_top = 0.0008; se = sqrt(0.0002/2 + 0.0008/2) = sqrt(0.0005)
    const s = quantileSpread([1, 2, 3, 4], [0.01, 0.03, 0.05, 0.09], { buckets: 2 });
    near(s.spread, 0.05, 1e-12);
    near(s.standardError, Math.sqrt(0.0005), 1e-12);
    near(s.tStat, 0.05 / Math.sqrt(0.0005), 1e-12);
    // horizon 4 scales the variance by 4: t halves
    near(quantileSpread([1, 2, 3, 4], [0.01, 0.03, 0.05, 0.09], { buckets: 2, horizon: 4 }).tStat, 0.05 / Math.sqrt(0.002), 1e-12);
    expect(Number.isNaN(quantileSpread([], [], { buckets: 2 }).tStat)).toBe(true);
    expect(Number.isNaN(quantileSpread([1, 2], [0.1, 0.2], { buckets: 2 }).tStat)).toBe(true); // one bar per bucket
    expect(() => quantileSpread([1], [1, 2])).toThrow(/same length/);
  });

  it("rollingIc: windows from the first bar, NaN where a window is constant", () => {
    const time = [0, DAY, 2 * DAY, 10 * DAY, 11 * DAY, 12 * DAY];
    const r = rollingIc([1, 2, 3, 1, 2, 3], [0.1, 0.2, 0.3, 0.3, 0.2, 0.2], { time, windowMs: 7 * DAY });
    expect(col(r, "start")).toEqual([0, 7 * DAY]);
    expect(col(r, "time")).toEqual([2 * DAY, 12 * DAY]);
    expect(col(r, "ic")[0]).toBeCloseTo(1, 12);
    // second window: signal ranks 1, 2, 3; forward ranks 3, 1.5, 1.5 -> pearson of the ranks = -0.866...
    expect(col(r, "ic")[1]).toBeCloseTo(-Math.sqrt(3) / 2, 12);
    expect(rollingIc([], [], { time: [], windowMs: DAY }).rows).toBe(0);
    expect(() => rollingIc([1], [1], { time: [0], windowMs: 0 })).toThrow(/windowMs must be a positive duration/);
    expect(() => rollingIc([1, 2], [1, 2], { time: [DAY, 0], windowMs: 7 * DAY })).toThrow(/ascending/);
  });

  it("signalTearsheet: constant signal, bad arguments, no mutation", () => {
    const close = Float64Array.of(100, 101, 102, 101, 103, 104);
    const time = Array.from({ length: 6 }, (_, i) => i * DAY);
    const flat = signalTearsheet([1, 1, 1, 1, 1, 1], close, { time });
    expect(Number.isNaN(flat.ic.ic)).toBe(true);
    // all tied: rank 3.5 each, floor(2.5 * 5 / 6) + 1 = 3: one curve, the middle bucket
    expect(Object.keys(flat.cumulative.series)).toEqual(["Q3"]);
    expect(Number.isNaN(col(flat.autocorrelation, "autocorrelation")[0] as number)).toBe(true);
    expect(() => signalTearsheet([1], close, { time })).toThrow(/one value per bar/);
    expect(() => signalTearsheet(close, close, { time, horizon: 0 })).toThrow(/horizon must be a positive integer/);
    expect(() => signalTearsheet(close, close, { time, lags: [0] })).toThrow(/lags must be positive integers/);
    signalTearsheet(close, close, { time, horizon: 2 });
    expect(Array.from(close)).toEqual([100, 101, 102, 101, 103, 104]);
  });
});
