/**
 * A JSON value as a finite number, or NaN for null, missing, non-numeric or
 * non-finite values. Numeric strings (`"97123.4"`) are accepted.
 * @example toFiniteNumber("1.5") // 1.5
 * @example toFiniteNumber(null) // NaN
 */
export function toFiniteNumber(x: unknown): number {
  if (typeof x === "number") return Number.isFinite(x) ? x : Number.NaN;
  if (typeof x === "string" && x.trim() !== "") {
    const n = Number(x);
    return Number.isFinite(n) ? n : Number.NaN;
  }
  return Number.NaN;
}
