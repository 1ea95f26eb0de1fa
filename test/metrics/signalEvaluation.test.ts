/**
 * Signal evaluation against pandas 1.5.3 / numpy 1.24 (Debian /usr/bin/python3),
 * computed once and pasted. pandas' own method="spearman" needs scipy (absent),
 * so the reference Spearman is the same definition spelled out:
 *   d = pd.DataFrame({"a": a, "b": b}).dropna(); d.a.rank().corr(d.b.rank())
 * (average ranks for ties, Pearson of the ranks over complete pairs).
 * Normal quantiles: statistics.NormalDist().inv_cdf(p).
 */
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/InvalidArgumentError.js";
import {
  componentAttribution,
  decileReturns,
  forwardReturns,
  hitRate,
  icByCoin,
  icDecay,
  informationCoefficient,
  spearmanCorrelation,
} from "../../src/metrics/index.js";
import { normalQuantile } from "../../src/metrics/normalQuantile.js";
import { compositeScore } from "../../src/signals/compositeScore.js";

const N = Number.NaN;
// close = np.round(100 * np.exp(np.cumsum(rng.normal(0, 0.01, 30))), 2), rng = np.random.default_rng(7)
const close = [100.0, 100.3, 100.03, 99.14, 98.69, 97.72, 97.77, 99.09, 98.61, 98.0, 98.48, 98.83, 98.93, 98.02, 97.99, 98.67, 97.36, 96.91, 95.09, 93.87, 92.15, 91.94, 90.78, 91.03, 91.17, 91.0, 88.74, 88.26, 88.22, 88.32];
// signal = np.round(rng.normal(0, 1, 30), 1) (ties on purpose), signal[4] = NaN
const signal = [-1.5, -0.5, -1.0, -0.8, N, -0.8, -0.0, 0.9, -0.6, -0.1, 0.1, 0.1, -1.2, 0.1, 1.4, -1.5, 0.9, 0.1, -0.6, 2.0, 0.8, -1.2, 0.1, 0.6, -0.2, 0.7, -0.1, 0.7, 1.4, -0.7];
// labels = where(signal > 0.5, 1, where(signal < -0.5, -1, 0)), NaN where the signal is NaN
const labels = [-1, 0, -1, -1, N, -1, 0, 1, -1, 0, 0, 0, -1, 0, 1, -1, 1, 0, -1, 1, 1, -1, 0, 1, 0, 1, 0, 1, 1, -1];
const T0 = Date.UTC(2026, 0, 1);
const time5m = close.map((_, i) => T0 + i * 300_000);

function near(actual: number, expected: number, tol = 1e-12): void {
  if (Number.isNaN(expected)) return void expect(actual).toBeNaN();
  expect(Math.abs(actual - expected)).toBeLessThan(tol);
}

describe("normalQuantile (internal; statistics.NormalDist().inv_cdf)", () => {
  it("matches Python to 1e-8", () => {
    near(normalQuantile(0.975), 1.9599639845400536, 1e-8);
    near(normalQuantile(0.95), 1.6448536269514715, 1e-8);
    near(normalQuantile(0.001), -3.090232306167813, 1e-8);
    near(normalQuantile(0.3), -0.5244005127080407, 1e-8);
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(2)).toBeNaN();
  });
});

describe("spearmanCorrelation", () => {
  it("matches the pandas rank-correlation values, ties averaged, NaN pairs dropped", () => {
    near(spearmanCorrelation([1, 2, 3, 4], [10, 20, 40, 30]), 0.7999999999999999);
    near(spearmanCorrelation([1, 2, 2, 3, 5, N], [3, 1, 4, 1, 5, 9]), 0.2894736842105264);
  });
  it("empty, one point, constant: NaN; mismatched lengths throw", () => {
    expect(spearmanCorrelation([], [])).toBeNaN();
    expect(spearmanCorrelation([1], [2])).toBeNaN();
    expect(spearmanCorrelation([1, 1, 1], [1, 2, 3])).toBeNaN();
    expect(() => spearmanCorrelation([1, 2], [1])).toThrow("spearmanCorrelation: a and b must have the same length (one value per bar), got 2 and 1");
  });
});

describe("forwardReturns", () => {
  it("close[t+h]/close[t] - 1 with NaN for the last h bars, keyed by horizon", () => {
    const f = forwardReturns(close, { horizons: [1, 3] });
    expect(Object.keys(f)).toEqual(["1 bar", "3 bars"]);
    const f3 = f["3 bars"] as Float64Array;
    expect(f3).toHaveLength(close.length);
    near(f3[0] as number, -0.008599999999999941); // numpy: close[3] / close[0] - 1
    expect(Array.from(f3.slice(-3))).toEqual([N, N, N]);
    expect(Number.isNaN(f3[26] as number)).toBe(false);
  });
  it("duration horizons use the bar spacing; log option", () => {
    const f = forwardReturns(close, { horizons: ["5m", "15m"], time: time5m, log: true });
    near((f["15m"] as Float64Array)[0] as number, Math.log(99.14 / 100));
    near((f["5m"] as Float64Array)[1] as number, Math.log(100.03 / 100.3));
  });
  it("NaN and non-positive prices give NaN; empty and one point give NaN-only output", () => {
    const f = forwardReturns([1, N, 2, 0, 3], { horizons: [1] })["1 bar"] as Float64Array;
    expect(Array.from(f)).toEqual([N, N, N, N, N]);
    expect(forwardReturns([], { horizons: [1] })["1 bar"]).toHaveLength(0);
    expect(Array.from(forwardReturns([5], { horizons: [1] })["1 bar"] as Float64Array)).toEqual([N]);
  });
  it("bad horizons throw with the fix", () => {
    expect(() => forwardReturns(close, { horizons: [0] })).toThrow("forwardReturns: a horizon in bars must be a positive integer, got 0");
    // Horizons are an option now; the 0.1 positional form is refused with the new one.
    expect(() => (forwardReturns as unknown as (c: number[], h: number[]) => unknown)(close, [1])).toThrow(
      "forwardReturns: options must be an object, e.g. forwardReturns(close, { horizons: [1, 12] }) (options are no longer positional), got [1]",
    );
    expect(() => forwardReturns(close, { horizons: [] })).toThrow(InvalidArgumentError);
    expect(() => forwardReturns(close, { horizons: ["1h"] })).toThrow('forwardReturns: the duration horizon "1h" needs bar times (options.time, at least 2); or give the horizon in bars');
    expect(() => forwardReturns(close, { horizons: ["7m"], time: time5m })).toThrow('forwardReturns: horizon "7m" is not a whole number of 5-minute bars (1.4); pick a multiple of the bar length');
    expect(() => forwardReturns(close, { horizons: ["soon"], time: time5m })).toThrow("forwardReturns: a horizon must be a number of bars or a duration");
  });
  it("does not mutate its input", () => {
    const c = close.slice();
    forwardReturns(c, { horizons: [1, 2] });
    expect(c).toEqual(close);
  });
});

describe("informationCoefficient", () => {
  const fwd = forwardReturns(close, { horizons: [1, 3] });
  it("1-bar IC and Fisher-z interval match pandas/numpy", () => {
    const r = informationCoefficient(signal, fwd["1 bar"] as Float64Array);
    // ic over 28 complete pairs; ci = tanh(arctanh(ic) -/+ 1.95996 / sqrt(28 - 3))
    near(r.ic, 0.17197929401892464);
    expect(r.n).toBe(28);
    expect(r.effectiveN).toBe(28);
    near(r.ciLow, -0.21488497860065955, 1e-8);
    near(r.ciHigh, 0.5121931390514176, 1e-8);
    near(r.zScore, 0.8685278536635949);
  });
  it("overlapping 3-bar returns: effective n = n / 3 widens the interval", () => {
    const r = informationCoefficient(signal, fwd["3 bars"] as Float64Array, { horizon: 3 });
    near(r.ic, -0.14148492637700466);
    expect(r.n).toBe(26);
    near(r.effectiveN, 26 / 3);
    near(r.ciLow, -0.7468484291877523, 1e-8);
    near(r.ciHigh, 0.59211005454645, 1e-8);
    near(r.zScore, -0.3390762388114919);
  });
  it("non-overlapping sample: every 3rd bar only", () => {
    const r = informationCoefficient(signal, fwd["3 bars"] as Float64Array, { horizon: 3, sample: "nonOverlapping" });
    near(r.ic, 0.44539387761248944);
    expect(r.n).toBe(9);
    near(r.ciLow, -0.31060282304026493, 1e-8);
    near(r.ciHigh, 0.8562426538208152, 1e-8);
  });
  it("confidence changes the width only", () => {
    const a = informationCoefficient(signal, fwd["1 bar"] as Float64Array, { confidence: 0.5 });
    const b = informationCoefficient(signal, fwd["1 bar"] as Float64Array, { confidence: 0.99 });
    expect(a.ic).toBe(b.ic);
    expect(a.ciHigh - a.ciLow).toBeLessThan(b.ciHigh - b.ciLow);
  });
  it("empty, tiny and constant inputs give NaN, not an error", () => {
    const e = informationCoefficient([], []);
    expect([e.ic, e.n, e.ciLow]).toEqual([N, 0, N]);
    const three = informationCoefficient([1, 2, 3], [1, 2, 3]);
    expect(three.ic).toBeCloseTo(1, 12);
    expect(three.ciLow).toBeNaN(); // effective n <= 3
    expect(informationCoefficient([1, 1, 1, 1, 1], [1, 2, 3, 4, 5]).ic).toBeNaN();
  });
  it("bad arguments throw", () => {
    expect(() => informationCoefficient([1], [1, 2])).toThrow("informationCoefficient: signal and forward must have the same length");
    expect(() => informationCoefficient([1], [1], { horizon: 0 })).toThrow("informationCoefficient: horizon must be a positive integer (bars per forward return), got 0");
    expect(() => informationCoefficient([1], [1], { confidence: 1 })).toThrow("informationCoefficient: confidence must be in (0, 1), e.g. 0.95, got 1");
    expect(() => informationCoefficient([1], [1], { sample: "some" as "all" })).toThrow('informationCoefficient: sample must be "all" or "nonOverlapping", got some');
  });
});

describe("icDecay and icByCoin", () => {
  it("one row per horizon, same numbers as informationCoefficient", () => {
    const t = icDecay(signal, close, { horizons: ["5m", "15m"], time: time5m });
    expect(t.rows).toBe(2);
    expect(t.columns.horizon).toEqual(["5m", "15m"]);
    expect(Array.from(t.columns.bars as Float64Array)).toEqual([1, 3]);
    near((t.columns.ic as Float64Array)[0] as number, 0.17197929401892464);
    near((t.columns.ic as Float64Array)[1] as number, -0.14148492637700466);
    near((t.columns.effectiveN as Float64Array)[1] as number, 26 / 3);
  });
  it("stacks coins with a coin column", () => {
    const rev = close.slice().reverse();
    const t = icByCoin({ BTC: { signal, close }, ETH: { signal, close: rev } }, { horizons: [1, 3] });
    expect(t.rows).toBe(4);
    expect(t.columns.coin).toEqual(["BTC", "BTC", "ETH", "ETH"]);
    expect(t.columns.horizon).toEqual(["1 bar", "3 bars", "1 bar", "3 bars"]);
    near((t.columns.ic as Float64Array)[0] as number, 0.17197929401892464);
    expect(() => icByCoin({}, { horizons: [1] })).toThrow("icByCoin: coins must map at least one coin to { signal, close }");
  });
  it("toDataFrame keeps string and number columns", () => {
    const df = icByCoin({ BTC: { signal, close } }, { horizons: [1, 3] }).toDataFrame();
    expect(df.columns).toEqual(["coin", "horizon", "bars", "ic", "ciLow", "ciHigh", "zScore", "n", "effectiveN"]);
    expect(df.shape).toEqual([2, 9]);
  });
});

describe("hitRate per label", () => {
  it("matches pandas groupby on the labels", () => {
    const t = hitRate(labels, forwardReturns(close, { horizons: [1] })["1 bar"] as Float64Array);
    expect(Array.from(t.columns.label as Float64Array)).toEqual([-1, 0, 1]);
    expect(Array.from(t.columns.count as Float64Array)).toEqual([9, 10, 9]);
    const hr = t.columns.hitRate as Float64Array;
    near(hr[0] as number, 0.7777777777777778); // sells: share of forward returns < 0
    expect(hr[1]).toBeNaN(); // neutral makes no call
    near(hr[2] as number, 0.3333333333333333); // buys: share > 0
    const m = t.columns.meanForwardReturn as Float64Array;
    near(m[0] as number, -0.007114729110343572);
    near(m[1] as number, -0.00033332011618032454);
    near(m[2] as number, -0.00508284576479032);
    near((t.columns.meanSignedReturn as Float64Array)[0] as number, 0.007114729110343572);
  });
  it("empty input gives an empty table; zero forward return is not a hit", () => {
    expect(hitRate([], []).rows).toBe(0);
    const t = hitRate([1, 1, -1], [0, 0.1, 0]);
    expect(Array.from(t.columns.hitRate as Float64Array)).toEqual([0, 0.5]);
  });
});

describe("decileReturns", () => {
  it("quintiles match pandas: np.floor((s.rank() - 1) * 5 / len(s)) then groupby", () => {
    const t = decileReturns(signal, forwardReturns(close, { horizons: [1] })["1 bar"] as Float64Array, { buckets: 5 });
    expect(Array.from(t.columns.bucket as Float64Array)).toEqual([1, 2, 3, 4, 5]);
    expect(Array.from(t.columns.count as Float64Array)).toEqual([7, 4, 8, 4, 5]);
    expect(Array.from(t.columns.minSignal as Float64Array)).toEqual([-1.5, -0.6, -0.1, 0.6, 0.9]);
    expect(Array.from(t.columns.maxSignal as Float64Array)).toEqual([-0.8, -0.2, 0.1, 0.8, 2.0]);
    const expected = [-0.0064309466036788065, -0.005893127113395347, 0.00015292144055470414, -0.006507327464817525, -0.003943260404768556];
    expected.forEach((e, i) => near((t.columns.meanForwardReturn as Float64Array)[i] as number, e));
    const hits = [0.2857142857142857, 0.0, 0.625, 0.25, 0.4];
    hits.forEach((e, i) => near((t.columns.hitRate as Float64Array)[i] as number, e));
  });
  it("ties share a bucket; a constant signal is one bucket; bad bucket count throws", () => {
    const t = decileReturns([1, 1, 1, 1], [0.1, 0.2, 0.3, 0.4], { buckets: 2 });
    expect(t.rows).toBe(1);
    expect(decileReturns([], []).rows).toBe(0);
    expect(() => decileReturns([1], [1], { buckets: 1 })).toThrow("decileReturns: buckets must be an integer >= 2 (10 for deciles), got 1");
    expect(() => (decileReturns as (a: number[], b: number[], c: number) => unknown)([1], [1], 5)).toThrow(
      "decileReturns: options must be an object, e.g. decileReturns(signal, forward, { buckets: 5 }) (options are no longer positional), got 5",
    );
  });
});

describe("componentAttribution", () => {
  // forward return driven by component a only; b is noise; c is constant (like cheap gas at 0.3)
  const n = 200;
  const a = Float64Array.from({ length: n }, (_, i) => Math.sin(i * 0.7));
  const b = Float64Array.from({ length: n }, (_, i) => Math.cos(i * 1.9 + 0.3));
  const c = new Float64Array(n).fill(0.3);
  const fwd = Float64Array.from(a, (v, i) => v * 0.01 + 0.002 * Math.sin(i * 3.1));
  const weights = { a: 0.5, b: 0.3, c: 0.2 };
  const res = componentAttribution({ a, b, c }, fwd, { weights });

  it("own IC, composite IC and the IC without each component agree with direct computation", () => {
    expect(res.columns.component).toEqual(["a", "b", "c"]);
    near((res.columns.ic as Float64Array)[0] as number, spearmanCorrelation(a, fwd));
    const full = Float64Array.from({ length: n }, (_, t) => compositeScore({ a: a[t]!, b: b[t]!, c: c[t]! }, { weights }));
    near(res.compositeIc, spearmanCorrelation(full, fwd));
    const withoutA = Float64Array.from({ length: n }, (_, t) => (0.3 * b[t]! + 0.2 * c[t]!) / 0.5);
    near((res.columns.icWithout as Float64Array)[0] as number, spearmanCorrelation(withoutA, fwd));
    near((res.columns.icDrop as Float64Array)[0] as number, res.compositeIc - spearmanCorrelation(withoutA, fwd));
  });
  it("dropping the predictive component hurts most; a constant component changes nothing", () => {
    const drop = res.columns.icDrop as Float64Array;
    expect(drop[0]).toBeGreaterThan(0.3);
    expect(drop[0]).toBeGreaterThan(drop[1] as number);
    near(drop[2] as number, 0, 1e-12);
    expect((res.columns.ic as Float64Array)[2]).toBeNaN(); // constant scores have no rank correlation
  });
  it("missing scores and wrong lengths throw", () => {
    expect(() => componentAttribution({ a, b }, fwd, { weights })).toThrow('componentAttribution: no scores for the weighted component "c"; have a, b');
    expect(() => componentAttribution({ a, b, c: c.subarray(1) }, fwd, { weights })).toThrow("componentAttribution: scores.c must have one value per forward return (200), got 199");
  });
  it("does not mutate the scores", () => {
    const copy = Float64Array.from(a);
    componentAttribution({ a, b, c }, fwd, { weights });
    expect(a).toEqual(copy);
  });
});
