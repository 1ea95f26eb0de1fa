import { InvalidTimeError } from "../errors/InvalidTimeError.js";
import { daysFromCivil } from "./daysFromCivil.js";

/** 1970-01-01T00:00:00.000Z: the earliest time accepted by default. */
export const MIN_TIME_MS = 0;
/** 2099-12-31T23:59:59.999Z: the latest time accepted by default. */
export const MAX_TIME_MS = 4_102_444_799_999;
/** 8.64e15 ms (±275 760 years from 1970): the range a JavaScript Date (and an ISO 8601 string of it) can hold. */
export const DATE_LIMIT_MS = 8.64e15;
/**
 * The seconds-vs-milliseconds rule of `unit: "auto"`: a number whose
 * magnitude is below 1e11 is epoch SECONDS, anything else epoch ms. 1e11 ms is
 * 1973-03-03T09:46:40Z and 1e11 s is in the year 5138, so between 1973 and
 * 5138 the two readings cannot be confused.
 */
export const SECONDS_BELOW = 1e11;

/** Options of {@link toEpochMs}. Every one is optional; defaults in brackets. */
export interface ToEpochMsOptions {
  /** Function or endpoint reading the value, named in the error ["toEpochMs"]. */
  readonly source?: string | undefined;
  /** Column or field holding the value, named in the error ["time"]. */
  readonly column?: string | undefined;
  /** Row of the value (0-based), named in the error [none]. */
  readonly row?: number | undefined;
  /** Earliest allowed time, epoch ms, inclusive [MIN_TIME_MS = 1970-01-01]. */
  readonly min?: number | undefined;
  /** Latest allowed time, epoch ms, inclusive [MAX_TIME_MS = 2099-12-31T23:59:59.999Z]. */
  readonly max?: number | undefined;
  /**
   * How numbers (and numeric strings) are read: `"ms"` epoch milliseconds,
   * `"s"` epoch seconds, `"auto"` seconds when |x| < {@link SECONDS_BELOW}
   * else milliseconds ["ms": numbers in tables are already the library's
   * epoch ms, so `[0, 60_000]` stays two one-minute bars].
   */
  readonly unit?: "ms" | "s" | "auto" | undefined;
  /** What an unreadable or out-of-range value gives: a thrown InvalidTimeError, or NaN ["throw"]. */
  readonly invalid?: "throw" | "nan" | undefined;
}

const DAY_MS = 86_400_000;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const NUMERIC = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Two ASCII digits of `s` at `i` as a number, or -1 (also past the end: charCodeAt gives NaN). */
function two(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/** The last date read and its epoch ms: consecutive points of a series mostly share their date. */
let lastDate = -1;
let lastDayMs = 0;

/**
 * Epoch ms of midnight UTC of a proleptic Gregorian date (month 1..12), or
 * NaN when the date does not exist (2024-02-30, month 13, a negative digit
 * group). Part of the one ISO rule below, exported for the history byte
 * scanner, which reads the same digits straight from bytes.
 * @internal
 */
export function civilDayMs(y: number, mo: number, d: number): number {
  const key = y * 10_000 + mo * 100 + d;
  if (key === lastDate) return lastDayMs;
  if (y < 0 || mo < 1 || mo > 12 || d < 1) return Number.NaN;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (d > (MONTH_DAYS[mo - 1] as number) + (mo === 2 && leap ? 1 : 0)) return Number.NaN;
  lastDayMs = daysFromCivil(y, mo, d) * DAY_MS;
  lastDate = key;
  return lastDayMs;
}

/**
 * Milliseconds into the day of a clock time, or NaN when it is not one
 * (hour 24, minute or second 60, a negative digit group). Milliseconds 0..999.
 * @internal
 */
export function clockMs(h: number, mi: number, sec: number, ms: number): number {
  if (h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59 || ms < 0 || ms > 999) return Number.NaN;
  return h * 3_600_000 + mi * 60_000 + sec * 1000 + ms;
}

/**
 * ISO 8601 / RFC 3339 in plain arithmetic (no Date object, no time zone), read
 * from `s[from..to)`: `YYYY-MM-DD`, then optionally `T` (or `t`, or a space)
 * `HH:MM`, `:SS`, `.fraction` (any number of digits; truncated to ms, as V8's
 * Date.parse does), and an offset `Z`, `±HH:MM`, `±HHMM` or `±HH`. No offset:
 * UTC. NaN for anything else, including impossible dates and clock times
 * (2024-02-30, 24:00, 12:60, a leap second :60). The range form lets the
 * history byte scanner read times in place from one string of the whole body.
 * @internal
 */
export function isoToEpochMs(s: string, from: number, to: number): number {
  const y1 = two(s, from);
  const y2 = two(s, from + 2);
  if (to - from < 10 || y1 < 0 || y2 < 0 || s.charCodeAt(from + 4) !== 45 || s.charCodeAt(from + 7) !== 45) return Number.NaN;
  let ms = civilDayMs(y1 * 100 + y2, two(s, from + 5), two(s, from + 8));
  if (to - from === 10 || Number.isNaN(ms)) return ms;
  const sep = s.charCodeAt(from + 10);
  if (sep !== 84 /* T */ && sep !== 116 /* t */ && sep !== 32) return Number.NaN;
  if (to - from < 16 || s.charCodeAt(from + 13) !== 58) return Number.NaN;
  const h = two(s, from + 11);
  const mi = two(s, from + 14);
  let sec = 0;
  let frac = 0;
  let i = from + 16;
  if (i < to && s.charCodeAt(i) === 58 /* : */) {
    sec = i + 3 <= to ? two(s, i + 1) : -1;
    i += 3;
    const dot = i < to ? s.charCodeAt(i) : 0;
    if (dot === 46 /* . */ || dot === 44 /* , */) {
      i++;
      let digits = 0;
      for (let c = s.charCodeAt(i) - 48; i < to && c >= 0 && c <= 9; c = s.charCodeAt(i) - 48) {
        if (digits < 3) frac = frac * 10 + c;
        digits++;
        i++;
      }
      if (digits === 0) return Number.NaN;
      if (digits === 1) frac *= 100;
      else if (digits === 2) frac *= 10;
    }
  }
  ms += clockMs(h, mi, sec, frac);
  if (i === to) return ms;
  const z = s.charCodeAt(i);
  if (z === 90 /* Z */ || z === 122 /* z */) return i + 1 === to ? ms : Number.NaN;
  if (z !== 43 /* + */ && z !== 45 /* - */) return Number.NaN;
  const oh = two(s, i + 1);
  let om = 0;
  if (i + 3 === to) om = 0;
  else if (i + 6 === to && s.charCodeAt(i + 3) === 58) om = two(s, i + 4);
  else if (i + 5 === to) om = two(s, i + 3);
  else return Number.NaN;
  if (oh < 0 || oh > 23 || om < 0 || om > 59) return Number.NaN;
  const offset = (oh * 60 + om) * 60_000;
  return z === 43 ? ms - offset : ms + offset;
}

/**
 * HTTP-date in its preferred form, IMF-fixdate (RFC 9110 section 5.6.7):
 * `Sun, 06 Nov 1994 08:49:37 GMT`, always UTC. NaN for anything else (the
 * obsolete RFC 850 and asctime forms are not read).
 */
function parseImfFixdate(s: string): number {
  if (s.length !== 29 || s.charCodeAt(3) !== 44 || s.charCodeAt(4) !== 32 || s.charCodeAt(7) !== 32 || s.charCodeAt(11) !== 32) return Number.NaN;
  if (s.charCodeAt(16) !== 32 || s.charCodeAt(19) !== 58 || s.charCodeAt(22) !== 58 || s.slice(25) !== " GMT") return Number.NaN;
  if (!WEEKDAYS.includes(s.slice(0, 3))) return Number.NaN;
  const mo = MONTHS.indexOf(s.slice(8, 11)) + 1;
  const y1 = two(s, 12);
  const y2 = two(s, 14);
  if (y1 < 0 || y2 < 0) return Number.NaN;
  return civilDayMs(y1 * 100 + y2, mo, two(s, 5)) + clockMs(two(s, 17), two(s, 20), two(s, 23), 0);
}

function fromNumber(x: number, unit: "ms" | "s" | "auto" | undefined): number {
  if (unit === undefined || unit === "ms") return x;
  if (unit === "s") return x * 1000;
  return Math.abs(x) < SECONDS_BELOW ? x * 1000 : x;
}

/** The value read as epoch ms, before the range check; NaN when it is no time at all. */
function read(value: unknown, unit: "ms" | "s" | "auto" | undefined): number {
  if (typeof value === "number") return Number.isFinite(value) ? fromNumber(value, unit) : Number.NaN;
  if (typeof value === "string") {
    let s = value;
    if (s.length === 0) return Number.NaN;
    if (s.charCodeAt(0) <= 32 || s.charCodeAt(s.length - 1) <= 32) s = s.trim();
    const c = s.charCodeAt(0);
    if (c >= 48 && c <= 57 && s.length >= 10 && s.charCodeAt(4) === 45) return isoToEpochMs(s, 0, s.length);
    if (NUMERIC.test(s)) return read(Number(s), unit);
    return parseImfFixdate(s);
  }
  if (value instanceof Date) return value.getTime();
  return Number.NaN;
}

function show(value: unknown): string {
  let text: string;
  if (typeof value === "string") text = JSON.stringify(value);
  else if (value instanceof Date) text = Number.isNaN(value.getTime()) ? "Invalid Date" : `Date(${value.getTime()})`;
  else if (typeof value === "object" && value !== null) text = Object.prototype.toString.call(value);
  else text = String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function bound(ms: number): string {
  return Number.isFinite(ms) && Math.abs(ms) <= DATE_LIMIT_MS ? new Date(ms).toISOString() : String(ms);
}

/**
 * THE time rule of the library: every time that enters it (user tables,
 * DataFrames, loaders, API responses, CLI and server parameters) is turned
 * into epoch milliseconds UTC here, and nowhere else. Accepted inputs:
 * - a finite number: epoch ms, or epoch seconds with `unit: "s"`, or either
 *   by magnitude with `unit: "auto"` (|x| < 1e11 is seconds; see {@link SECONDS_BELOW});
 * - a numeric string (`"1795348800000"`), read as that number;
 * - an ISO 8601 string, `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM[:SS[.fff]]` with an
 *   optional `Z`/`±HH:MM` offset: WITHOUT an offset it is UTC, never the
 *   machine's time zone (so results do not depend on `TZ`), a date alone is
 *   midnight UTC, extra fraction digits are truncated to the millisecond;
 * - an HTTP-date (IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`; RFC 9110);
 * - a `Date` (its `getTime()`).
 * The parsing is plain arithmetic on the characters (Hinnant's days-from-civil),
 * several times faster than `Date.parse` on long histories.
 * The result must lie in [min, max] (default 1970-01-01 to 2099-12-31, so
 * stock bars from 2004 pass; API responses are held to a tighter range).
 * @throws InvalidTimeError naming `source`, `column`, `row`, the value and the
 * range, when the value is not a time (NaN, Infinity, `"not a date"`,
 * `"2024-02-30"`, `""`, null, an invalid Date) or is out of range; with
 * `invalid: "nan"` it returns NaN instead
 * @example toEpochMs("2026-11-22T12:00:00") // 1795348800000 (no offset: UTC)
 * @example toEpochMs("2024-01-01T00:00:00+05:30") // 1704047400000 (2023-12-31T18:30Z)
 * @example toEpochMs(1_795_348_800, { unit: "auto" }) // 1795348800000 (seconds)
 */
export function toEpochMs(value: unknown, options?: ToEpochMsOptions): number {
  const ms = read(value, options?.unit);
  const min = options?.min ?? MIN_TIME_MS;
  const max = options?.max ?? MAX_TIME_MS;
  if (ms >= min && ms <= max) return ms === 0 ? 0 : ms;
  if (options?.invalid === "nan") return Number.NaN;
  const source = options?.source ?? "toEpochMs";
  const column = options?.column ?? "time";
  const row = options?.row;
  const why = Number.isNaN(ms) ? "not a time" : `out of range: ${bound(ms)}`;
  const shown = show(value);
  throw new InvalidTimeError(
    source,
    column,
    row,
    shown,
    `${source}: ${column}${row === undefined ? "" : ` at row ${row}`} must be a time from ${bound(min)} to ${bound(max)} ` +
      `(epoch ms, an ISO 8601 string where no offset means UTC, or a Date), got ${shown} (${why}); fix or drop that value`,
  );
}
