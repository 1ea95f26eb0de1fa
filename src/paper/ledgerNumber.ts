/**
 * A number as the paper ledger writes it in JSON, bit for bit recoverable: a finite number
 * other than -0 as itself (JSON's shortest round-trip form), NaN as null, and -0, Infinity
 * and -Infinity as the strings "-0", "Infinity", "-Infinity".
 * @example ledgerNumber(Number.NaN) // null
 * @internal
 */
export function ledgerNumber(x: number): number | string | null {
  if (x !== x) return null;
  if (x === 0 && Object.is(x, -0)) return "-0";
  if (!Number.isFinite(x)) return x > 0 ? "Infinity" : "-Infinity";
  return x;
}

/** The number a ledger field holds (the inverse of {@link ledgerNumber}); anything else is NaN. @internal */
export function readLedgerNumber(v: unknown): number {
  if (typeof v === "number") return v;
  if (v === "-0") return -0;
  if (v === "Infinity") return Number.POSITIVE_INFINITY;
  if (v === "-Infinity") return Number.NEGATIVE_INFINITY;
  return Number.NaN;
}
