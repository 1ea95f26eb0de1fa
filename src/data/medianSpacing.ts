/**
 * Median spacing of the bar times, ms: median(diff(time)), NaN gaps
 * skipped; NaN with fewer than 2 times. The bar length a series implies
 * (a few missing bars do not move it): inferPeriodsPerYear, windowBars and
 * resample's partial-bar rule read it.
 * @param time bar times, epoch ms, ascending
 * @example medianSpacing([0, 60_000, 120_000, 300_000]) // 60000 (one gap of 3 bars)
 * @internal
 */
export function medianSpacing(time: ArrayLike<number>): number {
  const gaps: number[] = [];
  for (let i = 1; i < time.length; i++) {
    const d = (time[i] as number) - (time[i - 1] as number);
    if (!Number.isNaN(d)) gaps.push(d);
  }
  gaps.sort((a, b) => a - b);
  const m = gaps.length;
  if (m === 0) return Number.NaN;
  return m % 2 === 1 ? (gaps[(m - 1) / 2] as number) : ((gaps[m / 2 - 1] as number) + (gaps[m / 2] as number)) / 2;
}
