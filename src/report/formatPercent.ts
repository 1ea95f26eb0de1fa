/**
 * A decimal as a percentage with `digits` decimals (default 2): `0.1234` →
 * `"12.34%"`; NaN as `–`, infinities as `∞` / `-∞`. The one percentage rule
 * of the stats, the monthly table and `show`; pass it as a table column's
 * format (`htmlTable(t, { format: { return: formatPercent } })`).
 * @example formatPercent(-0.0512) // "-5.12%"
 */
export function formatPercent(value: number, digits = 2): string {
  if (Number.isNaN(value)) return "–";
  if (!Number.isFinite(value)) return value > 0 ? "∞" : "-∞";
  return `${(value * 100).toFixed(digits)}%`;
}
