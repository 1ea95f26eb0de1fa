import { decimalNumber } from "../data/decimalNumber.js";

/**
 * A JSON value as a finite number, or NaN for null, missing, non-numeric or
 * non-finite values. Decimal numeric strings (`"97123.4"`) are accepted;
 * `"0x10"`, `"0b11"`, `"0o7"` are not (see decimalNumber).
 * @example toFiniteNumber("1.5") // 1.5
 * @example toFiniteNumber(null) // NaN
 */
export function toFiniteNumber(x: unknown): number {
  if (typeof x === "number") return Number.isFinite(x) ? x : Number.NaN;
  if (typeof x === "string") {
    const n = decimalNumber(x);
    return Number.isFinite(n) ? n : Number.NaN;
  }
  return Number.NaN;
}
