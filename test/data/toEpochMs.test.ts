/**
 * toEpochMs: the library's one time rule. References are hand-computed or
 * computed with Debian's python3 (datetime(..., tzinfo=timezone.utc).timestamp()*1000,
 * calendar.timegm), quoted beside each value; none comes from this code.
 */
import { describe, expect, it } from "vitest";
import { MAX_TIME_MS, MIN_TIME_MS, SECONDS_BELOW, toEpochMs } from "../../src/data/toEpochMs.js";
import { InvalidTimeError } from "../../src/errors/index.js";

/** The InvalidTimeError a call throws (fails the test when it does not throw one). */
function timeError(call: () => unknown): InvalidTimeError {
  try {
    call();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidTimeError);
    return e as InvalidTimeError;
  }
  throw new Error("expected an InvalidTimeError");
}

describe("toEpochMs: ISO 8601", () => {
  it("reads back every toISOString output on ~25 h steps from 1970 to 2099 (V8's formatter as the independent reference)", () => {
    let checked = 0;
    for (let t = 0; t <= MAX_TIME_MS; t += 86_400_000 + 3_723_456) {
      const iso = new Date(t).toISOString();
      if (toEpochMs(iso) !== t) throw new Error(`${iso}: ${toEpochMs(iso)} != ${t}`);
      checked++;
    }
    expect(checked).toBeGreaterThan(45_000);
  });

  it("no offset means UTC, never the machine's zone (New York DST gap, Lord Howe half-hour change)", () => {
    // python3: datetime(2026,11,22,12,tzinfo=utc).timestamp()*1000 = 1795348800000
    expect(toEpochMs("2026-11-22T12:00:00")).toBe(1_795_348_800_000);
    expect(toEpochMs("2026-11-22 12:00:00")).toBe(1_795_348_800_000);
    expect(toEpochMs("2026-11-22t12:00")).toBe(1_795_348_800_000);
    // python3: datetime(2024,3,10,1,30,tzinfo=utc) -> 1710034200000 (02:00-03:00 does not exist in New York that day)
    expect(toEpochMs("2024-03-10T01:30:00")).toBe(1_710_034_200_000);
    expect(toEpochMs("2024-03-10T02:30:00")).toBe(1_710_034_200_000 + 3_600_000);
    // python3: datetime(2024,4,7,2,30,tzinfo=utc) -> 1712457000000 (Lord Howe moves back 30 min at 02:00 local)
    expect(toEpochMs("2024-04-07T02:30:00")).toBe(1_712_457_000_000);
    expect(toEpochMs("2024-04-07T02:30:00Z")).toBe(1_712_457_000_000);
  });

  it("offsets: +05:30, +0530, +05, -03:00, z", () => {
    // python3: datetime(2024,1,1,tzinfo=timezone(timedelta(hours=5,minutes=30))) -> 1704047400000 (= 2023-12-31T18:30Z)
    for (const s of ["2024-01-01T00:00:00+05:30", "2024-01-01T00:00+0530", "2023-12-31T18:30:00+00:00"]) expect(toEpochMs(s), s).toBe(1_704_047_400_000);
    expect(toEpochMs("2024-01-01T05:00:00+05")).toBe(1_704_067_200_000); // 2024-01-01T00:00Z = 1704067200000
    // python3: datetime(2026,11,22,9,tzinfo=timezone(timedelta(hours=-3))) -> 1795348800000
    expect(toEpochMs("2026-11-22T09:00:00-03:00")).toBe(1_795_348_800_000);
    expect(toEpochMs("2026-11-22T12:00:00z")).toBe(1_795_348_800_000);
  });

  it("date only is midnight UTC; fractions are truncated to the millisecond", () => {
    // python3: datetime(2004,8,19,tzinfo=utc) -> 1092873600000 (a stock bar's date: inside the default range)
    expect(toEpochMs("2004-08-19")).toBe(1_092_873_600_000);
    expect(toEpochMs("2026-11-22T12:00:00.5Z")).toBe(1_795_348_800_500);
    expect(toEpochMs("2026-11-22T12:00:00.25Z")).toBe(1_795_348_800_250);
    expect(toEpochMs("2026-11-22T12:00:00.123456Z")).toBe(1_795_348_800_123);
    expect(toEpochMs("2026-11-22T12:00:00,9999")).toBe(1_795_348_800_999);
  });

  it("leap days: 2024-02-29 exists, 2023-02-29 and 2100-02-29 do not", () => {
    // python3: datetime(2024,2,29,23,59,59,tzinfo=utc) -> 1709251199000
    expect(toEpochMs("2024-02-29T23:59:59Z")).toBe(1_709_251_199_000);
    expect(toEpochMs("2000-02-29", { invalid: "nan" })).toBe(951_782_400_000); // 2000 is a leap year (divisible by 400)
    expect(timeError(() => toEpochMs("2023-02-29")).message).toContain("not a time");
  });

  it("an HTTP-date (IMF-fixdate, RFC 9110 5.6.7) is UTC", () => {
    // RFC 9110's example; python3: calendar.timegm((1994,11,6,8,49,37))*1000 = 784111777000
    expect(toEpochMs("Sun, 06 Nov 1994 08:49:37 GMT")).toBe(784_111_777_000);
    for (const s of ["Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 31 Nov 1994 08:49:37 GMT"]) {
      expect(toEpochMs(s, { invalid: "nan" }), s).toBeNaN();
    }
  });
});

describe("toEpochMs: numbers, seconds vs milliseconds, Dates", () => {
  it("numbers and numeric strings are epoch ms by default (a table's [0, 60000] stays two one-minute bars)", () => {
    expect(toEpochMs(0)).toBe(0);
    expect(toEpochMs(60_000)).toBe(60_000);
    expect(toEpochMs(1_795_348_800_000)).toBe(1_795_348_800_000);
    expect(toEpochMs(" 1795348800000 ")).toBe(1_795_348_800_000);
    expect(toEpochMs(-0)).toBe(0);
    expect(Object.is(toEpochMs(-0), 0)).toBe(true);
  });

  it('unit "s" multiplies by 1000; unit "auto" reads |x| < 1e11 as seconds, the rest as ms (boundary on both sides)', () => {
    expect(SECONDS_BELOW).toBe(1e11);
    expect(toEpochMs(1_795_348_800, { unit: "s" })).toBe(1_795_348_800_000);
    expect(toEpochMs(1_795_348_800, { unit: "auto" })).toBe(1_795_348_800_000);
    expect(toEpochMs("1795348800", { unit: "auto" })).toBe(1_795_348_800_000);
    expect(toEpochMs(1e11, { unit: "auto" })).toBe(1e11); // ms: 1973-03-03T09:46:40Z
    // 1e11 - 1 is seconds = year 5138: refused by the range, not misread
    expect(timeError(() => toEpochMs(1e11 - 1, { unit: "auto" })).message).toContain("out of range");
    expect(toEpochMs(1e11 - 1, { unit: "auto", max: Infinity })).toBe((1e11 - 1) * 1000);
    expect(toEpochMs(4_102_444_799, { unit: "auto" })).toBe(4_102_444_799_000); // 2099-12-31T23:59:59Z in seconds
  });

  it("Date objects give their time; an invalid Date is refused; the Date is not modified", () => {
    const d = new Date(1_795_348_800_000);
    expect(toEpochMs(d)).toBe(1_795_348_800_000);
    expect(d.getTime()).toBe(1_795_348_800_000);
    expect(timeError(() => toEpochMs(new Date(Number.NaN))).value).toBe("Invalid Date");
  });
});

describe("toEpochMs: bad inputs raise InvalidTimeError naming source, column and row", () => {
  const bad: [unknown, string][] = [
    [Number.NaN, "not a time"],
    [Number.POSITIVE_INFINITY, "not a time"],
    [Number.NEGATIVE_INFINITY, "not a time"],
    [1e20, "out of range"],
    [-1, "out of range"],
    [MAX_TIME_MS + 1, "out of range"],
    ["not a date", "not a time"],
    ["2024-02-30", "not a time"],
    ["2024-13-01", "not a time"],
    ["2024-01-01T24:00:00", "not a time"],
    ["2024-01-01T12:60", "not a time"],
    ["2024-06-30T23:59:60Z", "not a time"],
    ["2024-01-01T00:00:00+24:00", "not a time"],
    ["2024-01-01T00:00:00.Z", "not a time"],
    ["2024-01-01T00:00:00Zjunk", "not a time"],
    ["", "not a time"],
    ["   ", "not a time"],
    [null, "not a time"],
    [undefined, "not a time"],
    [{}, "not a time"],
    [[], "not a time"],
    [true, "not a time"],
    ["3000-01-01T00:00:00Z", "out of range"],
    ["1969-12-31T23:59:59.999Z", "out of range"],
  ];
  for (const [value, why] of bad) {
    it(`${typeof value === "string" ? JSON.stringify(value) : String(value)} -> ${why}`, () => {
      const e = timeError(() => toEpochMs(value, { source: "loadThing", column: "ts", row: 7 }));
      expect(e.message).toContain(`loadThing: ts at row 7 must be a time from 1970-01-01T00:00:00.000Z to 2099-12-31T23:59:59.999Z`);
      expect(e.message).toContain(why);
      expect(e).toMatchObject({ code: "INVALID_TIME", source: "loadThing", column: "ts", row: 7 });
      expect(toEpochMs(value, { invalid: "nan" })).toBeNaN();
    });
  }

  it("defaults name the function and the time column; long values are cut", () => {
    const e = timeError(() => toEpochMs("x".repeat(100)));
    expect(e.message.startsWith("toEpochMs: time must be a time")).toBe(true);
    expect(e.value.length).toBe(60);
  });

  it("min and max are inclusive bounds", () => {
    expect(MIN_TIME_MS).toBe(0);
    // python3: datetime(2100,1,1,tzinfo=utc).timestamp()*1000 - 1 = 4102444799999
    expect(MAX_TIME_MS).toBe(4_102_444_799_999);
    const range = { min: 1_230_768_000_000, max: MAX_TIME_MS }; // 2009-01-01 = 1230768000000 (python3)
    expect(toEpochMs("2009-01-01T00:00:00Z", range)).toBe(1_230_768_000_000);
    expect(toEpochMs("2099-12-31T23:59:59.999Z", range)).toBe(MAX_TIME_MS);
    expect(timeError(() => toEpochMs("2008-12-31T23:59:59.999Z", range)).message).toContain("from 2009-01-01T00:00:00.000Z");
    expect(toEpochMs(-86_400_000, { min: -Infinity })).toBe(-86_400_000);
  });

  it("does not modify its options", () => {
    const options = Object.freeze({ source: "f", column: "c", row: 1, unit: "auto" as const });
    expect(toEpochMs("1795348800", options)).toBe(1_795_348_800_000);
    expect(options).toEqual({ source: "f", column: "c", row: 1, unit: "auto" });
  });
});
