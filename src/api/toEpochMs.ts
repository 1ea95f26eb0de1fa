import { daysFromCivil } from "./daysFromCivil.js";

const NUMERIC = /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/;
const NO_ZONE = /T\d\d:\d\d(:\d\d(\.\d+)?)?$/;

function digits(s: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return Number.NaN;
    n = n * 10 + d;
  }
  return n;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Fast path for the service's own format, `YYYY-MM-DDTHH:MM:SS.sssZ` (24
 * characters), in plain arithmetic (no Date object): several times quicker
 * than Date.parse on 43 200-point histories. NaN if the text does not fit
 * exactly (the caller then falls back to Date.parse).
 */
function parseIsoMillisZ(s: string): number {
  if (
    s.length !== 24 ||
    s.charCodeAt(4) !== 45 ||
    s.charCodeAt(7) !== 45 ||
    s.charCodeAt(10) !== 84 ||
    s.charCodeAt(13) !== 58 ||
    s.charCodeAt(16) !== 58 ||
    s.charCodeAt(19) !== 46
  ) {
    return Number.NaN;
  }
  const y = digits(s, 0, 4);
  const mo = digits(s, 5, 2);
  const d = digits(s, 8, 2);
  const h = digits(s, 11, 2);
  const mi = digits(s, 14, 2);
  const sec = digits(s, 17, 2);
  const ms = digits(s, 20, 3);
  if (!(mo >= 1 && mo <= 12 && d >= 1 && h <= 23 && mi <= 59 && sec <= 59 && ms >= 0)) return Number.NaN;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (d > (MONTH_DAYS[mo - 1] as number) + (mo === 2 && leap ? 1 : 0)) return Number.NaN;
  return daysFromCivil(y, mo, d) * 86_400_000 + h * 3_600_000 + mi * 60_000 + sec * 1000 + ms;
}

export function toEpochMs(x: unknown): number {
  if (typeof x === "number") return Number.isFinite(x) ? (Math.abs(x) > 1e11 ? x : x * 1000) : Number.NaN;
  if (typeof x !== "string" || x.length === 0) return Number.NaN;
  const last = x.charCodeAt(x.length - 1);
  if (last === 90 /* Z */) {
    const fast = parseIsoMillisZ(x);
    return Number.isNaN(fast) ? Date.parse(x) : fast;
  }
  if (NUMERIC.test(x)) return toEpochMs(Number(x));
  return Date.parse(NO_ZONE.test(x) ? `${x}Z` : x);
}
