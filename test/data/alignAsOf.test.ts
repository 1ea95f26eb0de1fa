import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { alignAsOf, timeGrid, unionTimes } from "../../src/data/index.js";
import { InvalidArgumentError } from "../../src/errors/index.js";

const NaN_ = Number.NaN;

describe("alignAsOf: reference values", () => {
  // Reference: pandas 1.5.3 (Debian /usr/bin/python3), computed once:
  //   grid = DataFrame({"time": [0,60,120,180,240,300]})
  //   feed = DataFrame({"time": [30,60,60,200], "x": [1.0,2.0,3.0,nan]})
  //   merge_asof(grid, feed, on="time", direction="backward").x        -> [nan,3,3,3,nan,nan]
  //   ... tolerance=60                                                  -> [nan,3,3,nan,nan,nan]
  //   merge_asof(grid, feed.dropna(), ..., tolerance=100).x             -> [nan,3,3,nan,nan,nan]
  const grid = [0, 60, 120, 180, 240, 300];
  const feed = { time: [30, 60, 60, 200], columns: { x: [1, 2, 3, NaN_] } };

  it("matches merge_asof(direction=backward) when NaN observations count as values", () => {
    expect(Array.from(alignAsOf(grid, [{ ...feed, skipNaN: false }]).columns.x!)).toEqual([NaN_, 3, 3, 3, NaN_, NaN_]);
  });
  it("matches merge_asof with tolerance (maxStalenessMs)", () => {
    expect(Array.from(alignAsOf(grid, [{ ...feed, skipNaN: false, maxStalenessMs: 60 }]).columns.x!)).toEqual([NaN_, 3, 3, NaN_, NaN_, NaN_]);
  });
  it("skipNaN (default) carries the last finite value, like merge_asof on dropna()", () => {
    expect(Array.from(alignAsOf(grid, [{ ...feed, maxStalenessMs: 100 }]).columns.x!)).toEqual([NaN_, 3, 3, NaN_, NaN_, NaN_]);
    expect(Array.from(alignAsOf(grid, [feed]).columns.x!)).toEqual([NaN_, 3, 3, 3, 3, 3]);
  });
  it("a value stamped exactly at a grid time is used at that time (at-or-before, inclusive)", () => {
    expect(Array.from(alignAsOf([59, 60], [{ time: [60], columns: { x: [7] } }]).columns.x!)).toEqual([NaN_, 7]);
  });
  it("maxStalenessMs boundary: age equal to the limit is kept, one ms more is not", () => {
    const out = alignAsOf([100, 160, 161], [{ time: [100], columns: { x: [1] }, maxStalenessMs: 60 }]);
    expect(Array.from(out.columns.x!)).toEqual([1, 1, NaN_]);
    const zero = alignAsOf([100, 101], [{ time: [100], columns: { x: [1] }, maxStalenessMs: 0 }]);
    expect(Array.from(zero.columns.x!)).toEqual([1, NaN_]);
  });
  it("knownAfterMs delays each value (a 5-minute bar labelled by its open is known at its close)", () => {
    const out = alignAsOf([0, 299_999, 300_000], [{ time: [0], columns: { close: [10] }, knownAfterMs: 300_000 }]);
    expect(Array.from(out.columns.close!)).toEqual([NaN_, NaN_, 10]);
  });
  it('fill "exact" keeps only values known exactly at the grid time; fillValue fills the rest', () => {
    const out = alignAsOf([0, 60, 120], [{ time: [0, 90], columns: { x: [1, 2] }, fill: "exact", fillValue: 0 }]);
    expect(Array.from(out.columns.x!)).toEqual([1, 0, 0]);
  });
  it("joins feeds of different cadences with prefixes, keeping the grid", () => {
    const grid2 = timeGrid(0, 3 * 3_600_000, 1_800_000);
    const funding = { time: [0, 3_600_000, 7_200_000], columns: { funding: [1e-5, 2e-5, 3e-5] }, maxStalenessMs: 3_600_000 };
    const prices = { time: [0, 1_800_000, 5_400_000], columns: { close: [100, 101, 102] }, prefix: "btc_" };
    const out = alignAsOf(grid2, [funding, prices]);
    expect(Object.keys(out.columns)).toEqual(["funding", "btc_close"]);
    expect(Array.from(out.time)).toEqual([0, 1_800_000, 3_600_000, 5_400_000, 7_200_000, 9_000_000, 10_800_000]);
    expect(Array.from(out.columns.funding!)).toEqual([1e-5, 1e-5, 2e-5, 2e-5, 3e-5, 3e-5, 3e-5]);
    expect(Array.from(out.columns.btc_close!)).toEqual([100, 101, 101, 102, 102, 102, 102]);
  });
});

describe("alignAsOf: edge cases and arguments", () => {
  it("empty grid gives empty columns; empty feed gives fillValue", () => {
    expect(alignAsOf([], [{ time: [1], columns: { x: [1] } }]).columns.x!.length).toBe(0);
    expect(Array.from(alignAsOf([1, 2], [{ time: [], columns: { x: [] } }]).columns.x!)).toEqual([NaN_, NaN_]);
    expect(Object.keys(alignAsOf([1], []).columns)).toEqual([]);
  });
  it("one point; constant series stays constant", () => {
    expect(Array.from(alignAsOf([5], [{ time: [5], columns: { x: [2] } }]).columns.x!)).toEqual([2]);
    const c = alignAsOf([0, 1, 2, 3], [{ time: [0, 1, 2, 3], columns: { x: [4, 4, 4, 4] } }]);
    expect(Array.from(c.columns.x!)).toEqual([4, 4, 4, 4]);
  });
  it("never mutates its inputs", () => {
    const grid = Float64Array.of(0, 10, 20);
    const time = [5, 15];
    const x = Float64Array.of(1, 2);
    const out = alignAsOf(grid, [{ time, columns: { x } }]);
    out.time[0] = 99;
    expect(Array.from(grid)).toEqual([0, 10, 20]);
    expect(time).toEqual([5, 15]);
    expect(Array.from(x)).toEqual([1, 2]);
  });
  it("rejects unsorted or repeated grid times, unsorted feeds, bad options and clashing names", () => {
    const feed = { time: [0], columns: { x: [1] } };
    expect(() => alignAsOf([0, 0], [feed])).toThrow("alignAsOf: grid times must be strictly ascending, got 0 after 0 at index 1");
    expect(() => alignAsOf([0, NaN_], [feed])).toThrow(InvalidArgumentError);
    expect(() => alignAsOf([0], [{ time: [2, 1], columns: { x: [1, 2] } }])).toThrow(
      "alignAsOf: feeds[0] times must be ascending, got 1 after 2 at index 1; sort it first (sortDedupe)",
    );
    expect(() => alignAsOf([0], [{ ...feed, maxStalenessMs: -1 }])).toThrow("alignAsOf: feeds[0].maxStalenessMs must be a number >= 0, got -1");
    expect(() => alignAsOf([0], [{ ...feed, knownAfterMs: NaN_ }])).toThrow("knownAfterMs must be a number >= 0");
    expect(() => alignAsOf([0], [{ ...feed, fill: "nearest" as "last" }])).toThrow('fill must be "last" or "exact", got "nearest"');
    expect(() => alignAsOf([0], [feed, feed])).toThrow('output column "x" (feeds[1]) appears twice; give the feed a prefix');
    expect(() => alignAsOf([0], [{ time: [0, 1], columns: { x: [1] } }])).toThrow("columns.x has 1 values, expected 2");
    expect(() => alignAsOf([0], {} as never)).toThrow("feeds must be an array");
  });
});

describe("alignAsOf never uses a value before its time (property)", () => {
  it("every output value was known at or before its grid time, is the latest such, and is not older than the limit", () => {
    const sortedInts = fc.array(fc.integer({ min: 0, max: 2000 }), { maxLength: 60 }).map((a) => a.sort((x, y) => x - y));
    fc.assert(
      fc.property(
        sortedInts,
        fc.uniqueArray(fc.integer({ min: 0, max: 2500 }), { maxLength: 60 }).map((a) => a.sort((x, y) => x - y)),
        fc.integer({ min: 0, max: 300 }),
        fc.oneof(fc.constant(Infinity), fc.integer({ min: 0, max: 500 })),
        fc.boolean(),
        (feedTimes, grid, delay, maxAge, skipNaN) => {
          // Value = its own index, so the output says which observation was used; every 5th is NaN.
          const values = feedTimes.map((_, i) => (i % 5 === 4 ? NaN_ : i));
          const out = alignAsOf(grid, [{ time: feedTimes, columns: { v: values }, knownAfterMs: delay, maxStalenessMs: maxAge, skipNaN }]);
          for (let i = 0; i < grid.length; i++) {
            const t = grid[i]!;
            const got = out.columns.v![i]!;
            // Reference, brute force: candidates known at or before t.
            let best = -1;
            for (let j = 0; j < feedTimes.length; j++) {
              if (feedTimes[j]! + delay <= t && (!skipNaN || !Number.isNaN(values[j]!))) best = j;
            }
            const expected = best < 0 || t - (feedTimes[best]! + delay) > maxAge ? NaN_ : values[best]!;
            expect(got).toEqual(expected);
            if (!Number.isNaN(got)) expect(feedTimes[got]! + delay).toBeLessThanOrEqual(t);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("timeGrid and unionTimes", () => {
  it("timeGrid includes both ends and rejects a bad step", () => {
    expect(Array.from(timeGrid(0, 180_000, 60_000))).toEqual([0, 60_000, 120_000, 180_000]);
    expect(Array.from(timeGrid(0, 179_999, 60_000))).toEqual([0, 60_000, 120_000]);
    expect(timeGrid(10, 0, 1).length).toBe(0);
    expect(Array.from(timeGrid(5, 5, 1))).toEqual([5]);
    expect(() => timeGrid(0, 10, 0)).toThrow("timeGrid: stepMs must be a positive number of ms, got 0");
    expect(() => timeGrid(NaN_, 10, 1)).toThrow(InvalidArgumentError);
  });
  it("unionTimes sorts, dedupes and drops NaN", () => {
    expect(Array.from(unionTimes([0, 120], [60, 120], [NaN_, 30]))).toEqual([0, 30, 60, 120]);
    expect(unionTimes().length).toBe(0);
  });
});
