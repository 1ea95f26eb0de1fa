/**
 * Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant,
 * "chrono-Compatible Low-Level Date Algorithms"); month 1..12. Pure arithmetic,
 * so ISO time parsing needs no Date object per point.
 * @example daysFromCivil(1970, 1, 2) // 1
 * @internal
 */
export function daysFromCivil(y0: number, m: number, d: number): number {
  const y = m <= 2 ? y0 - 1 : y0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}
