/**
 * runWalkForward + selectBestVariant: "trade the variant with the best
 * training Sharpe" on plain per-variant return series, checked by hand.
 */
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/InvalidArgumentError.js";
import { sharpeRatio } from "../../src/metrics/sharpeRatio.js";
import { runWalkForward, selectBestVariant, walkForward } from "../../src/research/index.js";

// Three variants over 12 bars: A earns in bars 0..3 and loses in 4..7, C the reverse, B averages 0.
//          0      1      2      3      4      5      6      7      8     9      10     11
const A = [0.02, 0.01, 0.03, 0.02, -0.01, -0.02, -0.01, -0.03, 0.01, 0.0, -0.01, 0.02];
const B = [0.01, -0.01, 0.01, -0.01, 0.01, -0.01, 0.01, -0.01, 0.01, -0.01, 0.01, -0.01];
const C = [-0.02, -0.01, -0.02, -0.03, 0.02, 0.01, 0.03, 0.01, 0.02, 0.03, -0.01, 0.01];
const sr = (r: ArrayLike<number>) => sharpeRatio(r, { periodsPerYear: 1 });

describe("runWalkForward with selectBestVariant", () => {
  // folds: train 4, test 4 → test [4,8) trained on [0,4); test [8,12) trained on [4,8)
  const folds = walkForward({ n: 12, train: 4, test: 4 });
  const result = runWalkForward(folds, selectBestVariant([A, B, C], { periodsPerYear: 1 }));

  it("picks the in-sample best per fold and reports its training score", () => {
    // fold 0 trains on bars 0..3: A mean 0.02, sd sqrt((0 + 1e-4 + 1e-4 + 0)/3) → 2.449; B 0; C < 0 → A
    // fold 1 trains on bars 4..7: A mean -0.0175, B 0, C mean 0.0175 → C
    expect(Array.from(result.folds.columns.choice)).toEqual([0, 2]);
    expect(result.folds.columns.inSample[0]).toBeCloseTo(0.02 / Math.sqrt(0.0002 / 3), 12);
    expect(result.folds.columns.inSample[1]).toBeCloseTo(sr(C.slice(4, 8)), 14);
  });

  it("the out-of-sample column is the metric of the chosen variant on the test window", () => {
    expect(result.folds.columns.outOfSample[0]).toBeCloseTo(sr(A.slice(4, 8)), 14);
    expect(result.folds.columns.outOfSample[0]).toBeLessThan(0); // A's winning streak did not last
    expect(result.folds.columns.outOfSample[1]).toBeCloseTo(sr(C.slice(8, 12)), 14);
  });

  it("stitches the chosen variants' test returns into one series aligned with the bars, NaN before the first test", () => {
    expect(result.returns.length).toBe(12);
    expect(Array.from(result.returns.slice(0, 4))).toEqual([Number.NaN, Number.NaN, Number.NaN, Number.NaN]);
    expect(Array.from(result.returns.slice(4))).toEqual([...A.slice(4, 8), ...C.slice(8, 12)]);
    expect(result.outOfSample).toBeCloseTo(sr([...A.slice(4, 8), ...C.slice(8, 12)]), 14);
  });

  it("the fold table has the windows and a DataFrame view", () => {
    const c = result.folds.columns;
    expect(Array.from(c.fold)).toEqual([0, 1]);
    expect(Array.from(c.trainStart)).toEqual([0, 4]);
    expect(Array.from(c.trainEnd)).toEqual([4, 8]);
    expect(Array.from(c.testStart)).toEqual([4, 8]);
    expect(Array.from(c.testEnd)).toEqual([8, 12]);
    const df = result.toDataFrame();
    expect(df.shape).toEqual([2, 8]);
    expect(df.columns).toEqual(["fold", "trainStart", "trainEnd", "testStart", "testEnd", "choice", "inSample", "outOfSample"]);
  });

  it("by default scores by the annualised Sharpe ratio, in and out of sample (one unit with sharpeRatio and a sweep's column)", () => {
    const hourly = runWalkForward(folds, selectBestVariant([A, B, C], { periodsPerYear: 8760 }));
    expect(Array.from(hourly.folds.columns.choice)).toEqual([0, 2]);
    expect(hourly.folds.columns.inSample[1]).toBeCloseTo(sharpeRatio(C.slice(4, 8), { periodsPerYear: 8760 }), 12);
    expect(hourly.folds.columns.outOfSample[0]).toBeCloseTo(sharpeRatio(A.slice(4, 8), { periodsPerYear: 8760 }), 12);
    expect(hourly.outOfSample).toBeCloseTo(sr([...A.slice(4, 8), ...C.slice(8, 12)]) * Math.sqrt(8760), 12);
    // inferred from bar times (hourly)
    const time = Array.from({ length: 12 }, (_, i) => i * 3_600_000);
    expect(runWalkForward(folds, selectBestVariant([A, B, C], { time })).outOfSample).toBe(hourly.outOfSample);
    // a spec without selectBestVariant: its own periodsPerYear
    const spec = selectBestVariant([A, B, C], { periodsPerYear: 1 });
    expect(runWalkForward(folds, { fit: spec.fit, evaluate: spec.evaluate, periodsPerYear: 8760 }).outOfSample).toBe(hourly.outOfSample);
  });

  it("uses the given metric for choosing and scoring (total return, train 6, test 3)", () => {
    const total = (r: Float64Array) => r.reduce((x, y) => x + y, 0);
    const out = runWalkForward(walkForward({ n: 12, train: 6, test: 3 }), selectBestVariant([A, B, C], { metric: total }));
    // fold 0 trains on 0..5: A 0.05, B 0, C -0.05 → A; fold 1 trains on 3..8: A -0.04, B 0, C 0.06 → C
    expect(Array.from(out.folds.columns.choice)).toEqual([0, 2]);
    expect(out.folds.columns.inSample[1]).toBeCloseTo(0.06, 15);
    expect(Array.from(out.returns.slice(6))).toEqual([...A.slice(6, 9), ...C.slice(9, 12)]);
    expect(out.folds.columns.outOfSample[1]).toBeCloseTo(0.03 - 0.01 + 0.01, 15);
  });

  it("purged folds train on fewer bars; the choice only sees the training window", () => {
    const seen: [number, number][] = [];
    const spec = selectBestVariant([A, B, C], { periodsPerYear: 1 });
    runWalkForward(walkForward({ n: 12, train: 4, test: 4, purge: 1 }), {
      ...spec,
      fit(train, fold) {
        seen.push([train[0], train[1]]);
        return spec.fit(train, fold);
      },
    });
    expect(seen).toEqual([
      [0, 3],
      [4, 7],
    ]);
  });

  it("no variant with a score: choice -1, NaN test returns", () => {
    const zeros = new Array(12).fill(0);
    const out = runWalkForward(walkForward({ n: 12, train: 4, test: 4 }), selectBestVariant([zeros, zeros], { periodsPerYear: 1 }));
    expect(Array.from(out.folds.columns.choice)).toEqual([-1, -1]);
    expect(out.returns.every((x) => Number.isNaN(x))).toBe(true);
    expect(out.outOfSample).toBeNaN();
  });

  it("no folds: an empty table and an all-NaN series of the data's length", () => {
    const out = runWalkForward(walkForward({ n: 3, train: 4, test: 2 }), selectBestVariant([[0.01, 0.02, 0.03]], { periodsPerYear: 1 }));
    expect(out.folds.rows).toBe(0);
    expect(out.returns.length).toBe(3);
    expect(out.outOfSample).toBeNaN();
  });

  it("does not mutate the variants", () => {
    const a = Float64Array.from(A);
    runWalkForward(folds, selectBestVariant([a, B, C], { periodsPerYear: 1 }));
    expect(Array.from(a)).toEqual(A);
  });
});

describe("runWalkForward bad arguments", () => {
  const spec = selectBestVariant([A, B, C], { periodsPerYear: 1 });
  it("throw InvalidArgumentError naming the problem", () => {
    const cases: [() => unknown, RegExp][] = [
      [() => runWalkForward(walkForward({ n: 12, train: 4, test: 4, step: 2 }), spec), /test windows may not overlap, use step ≥ test/],
      [() => runWalkForward([{ index: 0, train: [0, 4], test: [4, 20] }], spec), /must lie in \[0, 12\)/],
      [() => runWalkForward(walkForward({ n: 12, train: 4, test: 4 }), { ...spec, evaluate: () => [1, 2] }), /evaluate must return one return per test bar \(4 for fold 0\), got 2/],
      [() => runWalkForward(walkForward({ n: 12, train: 4, test: 4 }), {} as never), /needs \{ fit\(train, fold\), evaluate/],
      [() => runWalkForward("x" as never, spec), /folds must be an array/],
      [() => selectBestVariant([], { periodsPerYear: 1 }), /selectBestVariant: needs an array/],
      [() => selectBestVariant([A, [0.1]]), /one return per bar \(12, like variant 0\), got 1 in variant 1/],
      [() => selectBestVariant([A], { metric: 1 as never }), /metric must be a function/],
      [() => selectBestVariant([A]), /selectBestVariant: annualising needs the bar length: pass periodsPerYear/],
      [() => runWalkForward(walkForward({ n: 12, train: 4, test: 4 }), { fit: spec.fit, evaluate: spec.evaluate }), /runWalkForward: the out-of-sample score needs spec.metric or spec.periodsPerYear/],
      [() => runWalkForward(walkForward({ n: 12, train: 4, test: 4 }), { fit: spec.fit, evaluate: spec.evaluate, periodsPerYear: 0 }), /runWalkForward: periodsPerYear must be/],
    ];
    for (const [call, message] of cases) {
      expect(call).toThrow(InvalidArgumentError);
      expect(call).toThrow(message);
    }
  });
});
