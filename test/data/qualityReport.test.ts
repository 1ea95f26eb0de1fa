import { describe, expect, it } from "vitest";
import { qualityReport } from "../../src/data/index.js";
import { loadRealCandles } from "../../src/load/index.js";

const M = 60_000;

describe("qualityReport", () => {
  it("finds gaps, duplicates, out-of-order and bad times (hand-counted)", () => {
    const time = [0, M, M, 4 * M, 3 * M, NaN, 5 * M];
    const r = qualityReport({ time, columns: { x: [1, 2, 3, 4, 5, 6, 7] } }, { stepMs: M });
    expect(r).toMatchObject({ rows: 7, start: 0, end: 5 * M, stepMs: M, badTimes: 1, duplicates: 1, outOfOrder: 1, missingRows: 3 });
    // Steps are taken between consecutive rows with finite times: M -> 4M misses 2M and 3M;
    // after the out-of-order 3M, 3M -> 5M misses 4M (the report does not sort).
    expect(r.gaps).toEqual([
      { from: M, to: 4 * M, length: 2 },
      { from: 3 * M, to: 5 * M, length: 1 },
    ]);
  });
  it("per column: missing values, longest missing run, stale stretches", () => {
    const time = Array.from({ length: 12 }, (_, i) => i * M);
    const x = [1, 1, 1, 1, NaN, NaN, NaN, 2, 3, 3, 3, 3];
    const r = qualityReport({ time, columns: { x } }, { staleAfter: 4 });
    expect(r.stepMs).toBe(M); // inferred
    expect(r.gaps).toEqual([]);
    expect(r.columns.x).toEqual({
      count: 9,
      missing: 3,
      longestMissingRun: 3,
      longestStaleRun: 4,
      jumps: [],
      stale: [
        { from: 0, to: 3 * M, length: 4 },
        { from: 8 * M, to: 11 * M, length: 4 },
      ],
    });
    expect(r.summary).toEqual({
      column: ["x"], count: [9], missing: [3], missing_pct: [25], longest_missing_run: [3], stale_runs: [2], longest_stale_run: [4], jumps: [0],
    });
  });
  it("empty, one point and constant series", () => {
    const e = qualityReport({ time: [], columns: { x: [] } });
    expect(e).toMatchObject({ rows: 0, start: NaN, end: NaN, stepMs: NaN, gaps: [] });
    expect(e.summary.missing_pct).toEqual([NaN]);
    const one = qualityReport({ time: [5], columns: { x: [NaN] } });
    expect(one.columns.x).toMatchObject({ count: 0, missing: 1, longestMissingRun: 1, longestStaleRun: 0 });
    const c = qualityReport({ time: Array.from({ length: 10 }, (_, i) => i), columns: { x: new Array(10).fill(2) } });
    expect(c.columns.x!.stale).toEqual([{ from: 0, to: 9, length: 10 }]);
  });
  it("real data: the Coinbase BTC 4h set has 3 irregular steps; the report lists the gaps", () => {
    const p = loadRealCandles("coinbase-btc-4h");
    const r = qualityReport(p);
    expect(r.stepMs).toBe(4 * 3_600_000);
    expect(r.duplicates + r.outOfOrder + r.badTimes).toBe(0);
    expect(r.gaps.length).toBe(3);
    for (const g of r.gaps) expect(g.to - g.from).toBe((g.length + 1) * 4 * 3_600_000);
  });
  it("suspect prints: a positive value over jumpRatio x (or under 1 / jumpRatio of) the previous positive one (hand-checked)", () => {
    const time = Array.from({ length: 8 }, (_, i) => i * M);
    // 100 -> 201 (ratio 2.01 > 2: flagged), 201 -> 101 (0.502: not), NaN skipped, 101 -> 50 (0.495 < 1/2: flagged),
    // 0 and -3 are not positive (funding-like values are never compared), -3 -> 100: compared with 50 (ratio 2, not above 2)
    const x = [100, 201, 101, NaN, 50, 0, -3, 100];
    const r = qualityReport({ time, columns: { x } });
    expect(r.columns.x!.jumps).toEqual([
      { index: 1, time: M, previous: 100, value: 201 },
      { index: 4, time: 4 * M, previous: 101, value: 50 },
    ]);
    expect(r.summary.jumps).toEqual([2]);
    expect(qualityReport({ time, columns: { x } }, { jumpRatio: 1.5 }).columns.x!.jumps.map((j) => j.index)).toEqual([1, 2, 4, 7]); // 201 -> 101 is 0.502 < 1 / 1.5
    expect(qualityReport({ time, columns: { x } }, { jumpRatio: Infinity }).columns.x!.jumps).toEqual([]);
    expect(x).toEqual([100, 201, 101, NaN, 50, 0, -3, 100]); // input untouched
  });
  it("real data: finds Coinbase's bad BTC print (an open and low of $0.06 among $1,180 prices on 2017-04-15 20:00 UTC)", () => {
    const r = qualityReport(loadRealCandles("coinbase-btc-4h"));
    const at = Date.UTC(2017, 3, 15, 20);
    // values read off the source file (Coinbase-BTC-USD-PT4H-20160518_20251028.json, start 1492286400 and the bars around it)
    expect(r.columns.open!.jumps).toEqual([
      { index: 1995, time: at, previous: 1188.97, value: 0.06 },
      { index: 1996, time: at + 4 * 3_600_000, previous: 0.06, value: 1178.84 },
    ]);
    expect(r.columns.low!.jumps.map((j) => j.value)).toEqual([0.06, 1175.82]);
    expect(r.columns.close!.jumps).toEqual([]); // the closes are sound: close-to-close backtests are unaffected
    expect(r.columns.high!.jumps).toEqual([]);
  });
  it("rejects bad arguments", () => {
    expect(() => qualityReport({ time: [0], columns: {} }, { jumpRatio: 1 })).toThrow("qualityReport: jumpRatio must be a number above 1 (Infinity = off), got 1");
    expect(() => qualityReport({ time: [0], columns: { x: [] } })).toThrow('qualityReport: column "x" has 0 values, expected 1');
    expect(() => qualityReport({ time: [0], columns: {} }, { staleAfter: 1 })).toThrow("qualityReport: staleAfter must be an integer >= 2, got 1");
    expect(() => qualityReport({ time: [0], columns: {} }, { stepMs: 0 })).toThrow("qualityReport: stepMs must be a positive number of ms, got 0");
    expect(() => qualityReport(null as never)).toThrow("qualityReport: table must be { time, columns }");
  });
});
