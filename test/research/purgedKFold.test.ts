/**
 * Purged K-fold (López de Prado, Advances in Financial Machine Learning,
 * ch. 7): hand-computed folds and fast-check proofs that no training bar's
 * label overlaps the test labels' span, that the embargo after it is kept
 * free, and that nothing else is dropped.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/InvalidArgumentError.js";
import { purgedKFold } from "../../src/research/index.js";

const asArrays = (folds: ReturnType<typeof purgedKFold>) => folds.map((f) => ({ index: f.index, train: Array.from(f.train), test: f.test }));

describe("purgedKFold, hand-computed", () => {
  it("no purge, no embargo: plain K-fold with numpy.array_split sizes (10 bars, k 3 → 4, 3, 3)", () => {
    expect(asArrays(purgedKFold(10, { k: 3 }))).toEqual([
      { index: 0, train: [4, 5, 6, 7, 8, 9], test: [0, 4] },
      { index: 1, train: [0, 1, 2, 3, 7, 8, 9], test: [4, 7] },
      { index: 2, train: [0, 1, 2, 3, 4, 5, 6], test: [7, 10] },
    ]);
  });

  it("the docs' example: 10 bars, k 2, purge 1", () => {
    // fold 0 tests [0,5): the test labels reach bar 4 + 1 = 5, so training resumes at 6.
    // fold 1 tests [5,10): bar 4's label (4..5) reaches the test, so training is 0..3.
    expect(asArrays(purgedKFold(10, { k: 2, purge: 1 }))).toEqual([
      { index: 0, train: [6, 7, 8, 9], test: [0, 5] },
      { index: 1, train: [0, 1, 2, 3], test: [5, 10] },
    ]);
  });

  it("purge 2 and embargo 1 on 12 bars, k 3 (tests [0,4) [4,8) [8,12))", () => {
    // fold 1: before: bars j with j + 2 < 4 → 0, 1; after: labels of the test reach 7 + 2 = 9,
    // embargo 1 → training resumes at 11.
    const folds = asArrays(purgedKFold(12, { k: 3, purge: 2, embargo: 1 }));
    expect(folds[0]).toEqual({ index: 0, train: [7, 8, 9, 10, 11], test: [0, 4] });
    expect(folds[1]).toEqual({ index: 1, train: [0, 1, 11], test: [4, 8] });
    expect(folds[2]).toEqual({ index: 2, train: [0, 1, 2, 3, 4, 5], test: [8, 12] });
  });

  it("labelEnd: a long label early on is purged although it is far from the test fold", () => {
    // bar 0's label runs to bar 6, inside fold 1's test [5, 10); bar 1's label ends at 1
    const labelEnd = [6, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    const folds = asArrays(purgedKFold(10, { k: 2, labelEnd }));
    expect(folds[1]).toEqual({ index: 1, train: [1, 2, 3, 4], test: [5, 10] });
    // fold 0 tests [0,5): its labels reach bar 6 (bar 0's), so training starts at 7
    expect(folds[0]).toEqual({ index: 0, train: [7, 8, 9], test: [0, 5] });
  });

  it("k = n: leave-one-out", () => {
    expect(asArrays(purgedKFold(3, { k: 3 })).map((f) => f.train)).toEqual([[1, 2], [0, 2], [0, 1]]);
  });
});

describe("purgedKFold leak-freedom (fast-check)", () => {
  it("with fixed-length labels: train = all bars outside [a − purge, b + purge + embargo), never touching the test window", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 200 }),
        fc.integer({ min: 2, max: 12 }),
        fc.integer({ min: 0, max: 15 }),
        fc.integer({ min: 0, max: 15 }),
        (n, kRaw, purge, embargo) => {
          const k = Math.min(kRaw, n);
          const folds = purgedKFold(n, { k, purge, embargo });
          const problems: string[] = [];
          let covered = 0;
          for (const f of folds) {
            const [a, b] = f.test;
            if (a !== covered || b <= a) problems.push(`fold ${f.index} not contiguous`);
            covered = b;
            const inTrain = new Uint8Array(n);
            let previous = -1;
            for (const j of f.train) {
              if (j <= previous) problems.push(`fold ${f.index} unsorted`);
              previous = j;
              inTrain[j] = 1;
            }
            for (let j = 0; j < n; j++) {
              const allowed = j < a - purge || j >= b + purge + embargo;
              if (inTrain[j] === 1 && !allowed) problems.push(`fold ${f.index} trains on ${j}`);
              if (inTrain[j] === 0 && allowed) problems.push(`fold ${f.index} drops ${j} needlessly`);
            }
          }
          if (covered !== n) problems.push("test folds do not cover every bar");
          const sizes = folds.map((f) => f.test[1] - f.test[0]);
          if (Math.max(...sizes) - Math.min(...sizes) > 1) problems.push("unbalanced folds");
          expect(problems).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("with random labelEnd: no training label [j, e_j] meets the test labels' span [a, L], none lies in (L, L + embargo]", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 2, maxLength: 120 }),
        fc.integer({ min: 2, max: 8 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 10 }),
        (lengths, kRaw, purge, embargo) => {
          const n = lengths.length;
          const k = Math.min(kRaw, n);
          const labelEnd = lengths.map((len, i) => i + len);
          const end = labelEnd.map((e, i) => Math.max(e, i + purge));
          const problems: string[] = [];
          for (const f of purgedKFold(n, { k, purge, embargo, labelEnd })) {
            const [a, b] = f.test;
            let L = a;
            for (let i = a; i < b; i++) L = Math.max(L, end[i] as number);
            const inTrain = new Uint8Array(n);
            for (const j of f.train) inTrain[j] = 1;
            for (let j = 0; j < n; j++) {
              const overlaps = j <= L && (end[j] as number) >= a;
              const embargoed = j > L && j <= L + embargo;
              const allowed = !(j >= a && j < b) && !overlaps && !embargoed;
              if (inTrain[j] === 1 && !allowed) problems.push(`fold ${f.index} trains on ${j}`);
              if (inTrain[j] === 0 && allowed) problems.push(`fold ${f.index} drops ${j} needlessly`);
            }
          }
          expect(problems).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("purgedKFold bad arguments", () => {
  it("throw InvalidArgumentError naming the option", () => {
    const cases: [() => unknown, RegExp][] = [
      [() => purgedKFold(1, { k: 2 }), /purgedKFold: n must be an integer ≥ 2/],
      [() => purgedKFold(10.5, { k: 2 }), /n must be an integer/],
      [() => purgedKFold(10, { k: 1 }), /k must be an integer ≥ 2 and ≤ 10/],
      [() => purgedKFold(10, { k: 11 }), /k must be/],
      [() => purgedKFold(10, { k: 2, purge: -1 }), /purge/],
      [() => purgedKFold(10, { k: 2, embargo: 0.5 }), /embargo/],
      [() => purgedKFold(3, { k: 2, labelEnd: [0, 1] }), /labelEnd must give one last-label bar per bar \(3\), got 2/],
      [() => purgedKFold(3, { k: 2, labelEnd: [0, 0, 2] }), /labelEnd\[1\] must be an integer bar index ≥ 1, got 0/],
      [() => purgedKFold(3, { k: 2, labelEnd: [0, Number.NaN, 2] }), /labelEnd\[1\]/],
      [() => purgedKFold(3, null as never), /purgedKFold: needs \{ k/],
    ];
    for (const [call, message] of cases) {
      expect(call).toThrow(InvalidArgumentError);
      expect(call).toThrow(message);
    }
  });

  it("does not mutate labelEnd", () => {
    const labelEnd = [2, 3, 4, 5, 6, 7];
    purgedKFold(6, { k: 3, labelEnd, purge: 1 });
    expect(labelEnd).toEqual([2, 3, 4, 5, 6, 7]);
  });
});
