/**
 * One time value as epoch ms UTC: a finite number is taken as epoch ms; a
 * Date as its time; a string as a number of ms when numeric, else as ISO 8601
 * where a missing offset means UTC (never the machine's time zone). Anything
 * else gives NaN.
 * @example toEpochMillis("2026-11-22T12:00:00") // 1795348800000
 */
export function toEpochMillis(x: unknown): number {
  if (typeof x === "number") return Number.isFinite(x) ? x : Number.NaN;
  if (x instanceof Date) return x.getTime();
  if (typeof x !== "string") return Number.NaN;
  const s = x.trim();
  if (s === "") return Number.NaN;
  const n = Number(s);
  if (Number.isFinite(n)) return n;
  const hasOffset = /(?:Z|[+-]\d\d:?\d\d)$/i.test(s);
  const iso = /^\d{4}-\d\d-\d\d[T ]\d/.test(s) && !hasOffset ? `${s.replace(" ", "T")}Z` : /^\d{4}-\d\d-\d\d$/.test(s) ? `${s}T00:00:00Z` : s;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : Number.NaN;
}
