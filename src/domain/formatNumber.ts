/**
 * Compact default number format for tables and the results' printed forms: NaN as `–`, integers as they are
 * (thousands separated), other values with 4 significant digits below 1000, two
 * decimals up to a million and none above; magnitudes below 1e-4 or from 1e15 in
 * exponent form.
 * @example formatNumber(0.123456) // "0.1235"
 */
export function formatNumber(value: number): string {
  if (Number.isNaN(value)) return "–";
  if (!Number.isFinite(value)) return value > 0 ? "∞" : "-∞";
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return value.toLocaleString("en-US");
  const abs = Math.abs(value);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e15)) return value.toExponential(3);
  if (abs >= 1e6) return Math.round(value).toLocaleString("en-US");
  if (abs >= 1000) return value.toLocaleString("en-US", { maximumFractionDigits: 2 });
  return value.toPrecision(4).replace(/(\.\d*?[1-9])0+$|\.0+$/, "$1");
}
