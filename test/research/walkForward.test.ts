/**
 * Walk-forward folds: hand-computed layouts, leak-freedom as fast-check
 * properties (no training bar in [test start − purge, test end + embargo),
 * training always before its test window), and the time (ms) variant.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/InvalidArgumentError.js";
import { walkForward } from "../../src/research/index.js";

const HOUR = 3_600_000;

describe("walkForward in bars, hand-computed", () => {
  it("rolling: n 10, train 4, test 2 → tests [4,6) [6,8) [8,10), trains [0,4) [2,6) [4,8)", () => {
    expect(walkForward({ n: 10, train: 4, test: 2 })).toEqual([
      { index: 0, train: [0, 4], test: [4, 6] },
      { index: 1, train: [2, 6], test: [6, 8] },
      { index: 2, train: [4, 8], test: [8, 10] },
    ]);
  });

  it("anchored with purge 1: trains [0,3) [0,5) [0,7)", () => {
    expect(walkForward({ n: 10, train: 4, test: 2, anchored: true, purge: 1 }).map((f) => f.train)).toEqual([
      [0, 3],
      [0, 5],
      [0, 7],
    ]);
  });

  it("a last test window cut short by the data is left out unless it has minTest bars; step 3 with test 2 leaves bars untested", () => {
    // issue 21: a one-bar fold (NaN Sharpe) is never made by default
    expect(walkForward({ n: 11, train: 4, test: 3 }).map((f) => f.test)).toEqual([
      [4, 7],
      [7, 10],
    ]);
    expect(walkForward({ n: 11, train: 4, test: 3, minTest: 1 }).map((f) => f.test)).toEqual([
      [4, 7],
      [7, 10],
      [10, 11],
    ]);
    expect(walkForward({ n: 12, train: 4, test: 3, minTest: 2 }).map((f) => f.test)).toEqual([
      [4, 7],
      [7, 10],
      [10, 12],
    ]);
    expect(walkForward({ n: 10, train: 4, test: 2, step: 3 }).map((f) => f.test)).toEqual([
      [4, 6],
      [7, 9],
    ]);
  });

  it("the docs' example: 1000 bars, train 500, test 100, purge 12 → 5 folds", () => {
    const folds = walkForward({ n: 1000, train: 500, test: 100, purge: 12 });
    expect(folds.length).toBe(5);
    expect(folds[0]).toEqual({ index: 0, train: [0, 488], test: [500, 600] });
    expect(folds[4]).toEqual({ index: 4, train: [400, 888], test: [900, 1000] });
  });

  it("too few bars for one fold, or none: no folds", () => {
    expect(walkForward({ n: 4, train: 4, test: 2 })).toEqual([]);
    expect(walkForward({ n: 0, train: 4, test: 2 })).toEqual([]);
    expect(walkForward({ n: 5, train: 4, test: 2 })).toEqual([]);
    expect(walkForward({ n: 5, train: 4, test: 2, minTest: 1 })).toEqual([{ index: 0, train: [0, 4], test: [4, 5] }]);
    expect(() => walkForward({ n: 5, train: 4, test: 2, minTest: 3 })).toThrow(/walkForward: minTest must be .*at most the test window/);
    expect(() => walkForward({ n: 5, train: 4, test: 2, minTest: 0 })).toThrow(/walkForward: minTest/);
  });
});

describe("walkForward leak-freedom (fast-check)", () => {
  it("no training bar lies in [test start − purge, test end + embargo); training precedes testing; windows stay in [0, n)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 20 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 40 }),
        (n, train, test, step, purgeRaw, embargo, anchored, minRaw) => {
          const purge = purgeRaw % train;
          const minTest = 1 + ((minRaw - 1) % test);
          const folds = walkForward({ n, train, test, step, purge, embargo, anchored, minTest });
          const problems: string[] = [];
          folds.forEach((f, k) => {
            const [ta, tb] = f.train;
            const [sa, sb] = f.test;
            if (f.index !== k || sa !== train + k * step || sb !== Math.min(sa + test, n)) problems.push(`fold ${k} layout`);
            if (!(0 <= ta && ta < tb && tb <= sa && sa < sb && sb <= n)) problems.push(`fold ${k} order`);
            for (let j = ta; j < tb; j++) if (!(j < sa - purge || j >= sb + embargo)) problems.push(`fold ${k} trains on ${j}`);
            if (tb !== sa - purge) problems.push(`fold ${k} over-purged`); // nothing dropped beyond what is needed
            if (ta !== (anchored ? 0 : sa - train)) problems.push(`fold ${k} start`);
            if (sb - sa < minTest) problems.push(`fold ${k} shorter than minTest`);
          });
          expect(problems).toEqual([]);
          // folds run while a test window of at least minTest bars can start
          const expected = n - minTest >= train ? Math.floor((n - minTest - train) / step) + 1 : 0;
          expect(folds.length).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("walkForward in time (ms)", () => {
  const time = Float64Array.from({ length: 10 }, (_, i) => 1_700_000_000_000 + i * HOUR);

  it("hourly bars, trainMs 4 h, testMs 2 h: the same folds as in bars", () => {
    expect(walkForward({ time, trainMs: 4 * HOUR, testMs: 2 * HOUR })).toEqual(walkForward({ n: 10, train: 4, test: 2 }));
    expect(walkForward({ time, trainMs: 4 * HOUR, testMs: 2 * HOUR, purgeMs: HOUR, anchored: true })).toEqual(
      walkForward({ n: 10, train: 4, test: 2, purge: 1, anchored: true }),
    );
  });

  it("a last test window the data covers for less than minTestMs (default testMs) is left out", () => {
    const eleven = Float64Array.from({ length: 11 }, (_, i) => i * HOUR); // hours 0..10, data ends at 11:00
    expect(walkForward({ time: eleven, trainMs: 4 * HOUR, testMs: 3 * HOUR }).map((f) => f.test)).toEqual([
      [4, 7],
      [7, 10],
    ]);
    expect(walkForward({ time: eleven, trainMs: 4 * HOUR, testMs: 3 * HOUR, minTestMs: HOUR })).toEqual(walkForward({ n: 11, train: 4, test: 3, minTest: 1 }));
    // the data ends exactly at a window's end: the window is whole
    expect(walkForward({ time: eleven.subarray(0, 10), trainMs: 4 * HOUR, testMs: 3 * HOUR }).map((f) => f.test)).toEqual([
      [4, 7],
      [7, 10],
    ]);
    expect(() => walkForward({ time: eleven, trainMs: 4 * HOUR, testMs: 3 * HOUR, minTestMs: 4 * HOUR })).toThrow(/walkForward: minTestMs/);
  });

  it("a gap in the data: windows follow the clock, folds with an empty window are left out", () => {
    // bars at hours 0,1,2,3, then 10,11,12,13
    const gappy = Float64Array.from([0, 1, 2, 3, 10, 11, 12, 13], (h) => h * HOUR);
    const folds = walkForward({ time: gappy, trainMs: 4 * HOUR, testMs: 2 * HOUR });
    // test windows start at hours 4, 6, 8 (no bar: left out), 10 (bars 4, 5; but training hours
    // [6, 10) hold no bar: left out) and 12 (bars 6, 7; training hours [8, 12) = bars 4, 5)
    expect(folds).toEqual([{ index: 0, train: [4, 6], test: [6, 8] }]);
  });

  it("purgeMs and embargoMs: no training bar's time in [test start − purgeMs, test end + embargoMs) (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 0, maxLength: 80 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 29 }),
        fc.integer({ min: 0, max: 10 }),
        (gaps, trainH, testH, purgeRaw, embargoH) => {
          let t = 0;
          const times = Float64Array.from(gaps, (g) => (t += g * HOUR));
          const purgeH = purgeRaw % trainH;
          const folds = walkForward({ time: times, trainMs: trainH * HOUR, testMs: testH * HOUR, purgeMs: purgeH * HOUR, embargoMs: embargoH * HOUR });
          const problems: string[] = [];
          for (const f of folds) {
            const startT = times[f.test[0]] as number;
            const endT = times[f.test[1] - 1] as number;
            if (!(f.train[1] > f.train[0] && f.test[1] > f.test[0])) problems.push(`fold ${f.index} empty`);
            for (let j = f.train[0]; j < f.train[1]; j++) {
              const tj = times[j] as number;
              if (!(tj < startT - purgeH * HOUR || tj > endT + embargoH * HOUR)) problems.push(`fold ${f.index} trains on ${j}`);
            }
            if (!(endT - startT < testH * HOUR)) problems.push(`fold ${f.index} test too long`);
          }
          expect(problems).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("empty times: no folds", () => {
    expect(walkForward({ time: [], trainMs: HOUR, testMs: HOUR })).toEqual([]);
  });
});

describe("walkForward bad arguments", () => {
  it("throw InvalidArgumentError naming the option", () => {
    const cases: [() => unknown, RegExp][] = [
      [() => walkForward({ n: 10, train: 0, test: 2 }), /walkForward: train must be an integer ≥ 1/],
      [() => walkForward({ n: 10, train: 4, test: 1.5 }), /test must be an integer/],
      [() => walkForward({ n: -1, train: 4, test: 2 }), /n must be an integer ≥ 0/],
      [() => walkForward({ n: 10, train: 4, test: 2, step: 0 }), /step/],
      [() => walkForward({ n: 10, train: 4, test: 2, purge: 4 }), /purge must be an integer ≥ 0 and ≤ 3/],
      [() => walkForward({ n: 10, train: 4, test: 2, embargo: -1 }), /embargo/],
      [() => walkForward({ n: 10, train: 4, test: 2, anchored: "yes" as never }), /anchored must be true or false/],
      [() => walkForward({ n: 10, time: [1], train: 4, test: 2 } as never), /either n .* or time .*got both/],
      [() => walkForward({ train: 4, test: 2 } as never), /got neither/],
      [() => walkForward({ time: [2, 1], trainMs: 1, testMs: 1 }), /non-decreasing order, got 1 at index 1/],
      [() => walkForward({ time: [1, 2], trainMs: 0, testMs: 1 }), /trainMs must be a finite number > 0/],
      [() => walkForward({ time: [1, 2], trainMs: 5, testMs: 1, purgeMs: 5 }), /purgeMs .*< 5/],
      [() => walkForward(null as never), /walkForward: needs/],
    ];
    for (const [call, message] of cases) {
      expect(call).toThrow(InvalidArgumentError);
      expect(call).toThrow(message);
    }
  });

  it("does not mutate the times", () => {
    const time = Float64Array.from([0, 1, 2, 3, 4, 5], (h) => h * HOUR);
    const copy = Float64Array.from(time);
    walkForward({ time, trainMs: 2 * HOUR, testMs: HOUR });
    expect(time).toEqual(copy);
  });
});
