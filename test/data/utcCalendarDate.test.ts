import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { utcCalendarDate } from "../../src/data/utcCalendarDate.js";

describe("utcCalendarDate", () => {
  it("hand-checked dates: leap day, the epoch, before it, a century non-leap year, the last ms of a day", () => {
    expect(utcCalendarDate(Date.UTC(2024, 1, 29, 23, 59))).toEqual({ year: 2024, month: 2, day: 29 });
    expect(utcCalendarDate(0)).toEqual({ year: 1970, month: 1, day: 1 });
    expect(utcCalendarDate(-1)).toEqual({ year: 1969, month: 12, day: 31 });
    expect(utcCalendarDate(Date.UTC(2100, 2, 1))).toEqual({ year: 2100, month: 3, day: 1 });
    expect(utcCalendarDate(Date.UTC(2100, 1, 28, 23, 59, 59, 999))).toEqual({ year: 2100, month: 2, day: 28 });
  });

  it("non-finite time gives NaN fields", () => {
    expect(utcCalendarDate(Number.NaN)).toEqual({ year: Number.NaN, month: Number.NaN, day: Number.NaN });
    expect(utcCalendarDate(Number.POSITIVE_INFINITY).year).toBeNaN();
  });

  it("agrees with the engine's UTC calendar (Date's getUTC* methods, an independent implementation) from 1900 to 2200", () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2200, 0, 1) }), (ms) => {
        const d = new Date(ms);
        const c = utcCalendarDate(ms);
        return c.year === d.getUTCFullYear() && c.month === d.getUTCMonth() + 1 && c.day === d.getUTCDate();
      }),
      { numRuns: 2000 },
    );
  });
});
