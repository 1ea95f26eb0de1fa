import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/index.js";
import { liveClock } from "../../src/server/index.js";
import { barsFromMinutes } from "../../src/paper/barsFromMinutes.js";
import { ledgerNumber, readLedgerNumber } from "../../src/paper/ledgerNumber.js";

describe("liveClock", () => {
  it("moves one step per everyMs of real time, plus advance(), and stops while paused", () => {
    let real = 1000;
    const c = liveClock({ start: 120_500, stepMs: 60_000, everyMs: 50, realClock: () => real });
    expect(c.now()).toBe(120_000); // floored to the minute
    real += 49;
    expect(c.steps()).toBe(0);
    real += 1;
    expect(c.now()).toBe(180_000);
    c.advance(2);
    expect(c.steps()).toBe(3);
    c.pause();
    real += 500;
    expect(c.steps()).toBe(3);
    c.resume();
    real += 100;
    expect(c.steps()).toBe(5);
  });
  it("on demand only without everyMs; checks its options", () => {
    const c = liveClock({ start: 0, stepMs: 3_600_000 });
    expect(c.now()).toBe(0);
    c.advance();
    expect(c.now()).toBe(3_600_000);
    expect(() => c.advance(-1)).toThrow(InvalidArgumentError);
    expect(() => liveClock({ start: Number.NaN })).toThrow(/start must be a finite/);
    expect(() => liveClock({ start: 0, everyMs: 0 })).toThrow(/everyMs must be a duration > 0/);
    expect(() => liveClock({ start: 0, stepMs: -1 })).toThrow(/stepMs/);
  });
});

describe("barsFromMinutes", () => {
  const M = 60_000;
  it("builds hourly-style bars by hand: open first minute, high/low over minutes, close last minute; only closed bars", () => {
    // 3-minute bars from 0; price minutes 0..7 (minute 4 missing), other metric at each minute
    const price = { time: [0, 1, 2, 3, 5, 6, 7].map((k) => k * M), value: [10, 13, 9, 11, 12, 14, 15] };
    const other = { time: [0, 1, 2, 3, 4, 5, 6, 7].map((k) => k * M), value: [0, 1, 2, 3, 4, 5, 6, 7] };
    const b = barsFromMinutes({ p: price, o: other }, "p", 3 * M, 0);
    // now = minute 7: bars [0,3) and [3,6) are closed; [6,9) is not
    expect(b.length).toBe(2);
    expect(Array.from(b.columns["time"]!)).toEqual([0, 3 * M]);
    expect(Array.from(b.columns["open"]!)).toEqual([10, 11]);
    expect(Array.from(b.columns["high"]!)).toEqual([13, 12]);
    expect(Array.from(b.columns["low"]!)).toEqual([9, 11]);
    expect(Array.from(b.columns["close"]!)).toEqual([9, 12]);
    expect(Array.from(b.columns["o"]!)).toEqual([2, 5]);
  });
  it("a bar without its last minute has no price at all (never the previous value); empty series give no bars", () => {
    const b = barsFromMinutes({ p: { time: [0, 1, 3].map((k) => k * M), value: [1, 2, 4] } }, "p", M, 0);
    expect(Array.from(b.columns["close"]!)).toEqual([1, 2, Number.NaN, 4]);
    expect(Array.from(b.columns["open"]!)).toEqual([1, 2, Number.NaN, 4]);
    expect(barsFromMinutes({ p: { time: [], value: [] } }, "p", M, 0).length).toBe(0);
    expect(barsFromMinutes({ p: { time: [0], value: [5] } }, "p", M, 0).length).toBe(1);
  });
});

describe("ledgerNumber", () => {
  it("round-trips every double through JSON bit for bit, -0, NaN and infinities included", () => {
    for (const x of [0, -0, 1.1, -3e-310, Number.MAX_VALUE, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0.1 + 0.2]) {
      expect(Object.is(readLedgerNumber(JSON.parse(JSON.stringify(ledgerNumber(x)))), x)).toBe(true);
    }
  });
});
