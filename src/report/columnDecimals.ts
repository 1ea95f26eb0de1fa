/**
 * One number format for a whole table column: every value with the same number of decimals
 * and thousands separated (`541.10` beside `−1,002.04`, never `541.1` beside `−1,002.04`), so
 * the decimal points line up. `decimals` fixed (2 for cash), or chosen from the column: enough
 * that its smallest non-zero magnitude shows 4 significant digits, from 2 to 8 (prices of 95.12
 * and 61,234.50 get 2, a column holding 0.1234 gets 4). NaN shows as "–". @internal
 * @example columnDecimals([541.1, -1002.04], 2)(541.1) // "541.10"
 * @example columnDecimals([0.1234, 2.5])(2.5) // "2.5000"
 */
export function columnDecimals(values: ArrayLike<number>, decimals?: number): (value: number) => string {
  let d = decimals;
  if (d === undefined) {
    let min = Number.POSITIVE_INFINITY;
    for (let i = 0; i < values.length; i++) {
      const a = Math.abs(values[i] as number);
      if (a > 0 && a < min) min = a;
    }
    d = Number.isFinite(min) ? Math.min(8, Math.max(2, 3 - Math.floor(Math.log10(min)))) : 2;
  }
  const fmt = new Intl.NumberFormat("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });
  return (value) => (Number.isNaN(value) ? "–" : Number.isFinite(value) ? fmt.format(value) : value > 0 ? "∞" : "-∞");
}
