/**
 * The rows of `column` in descending order of value, at most `k` of them: NaN
 * rows last, ties by row order (the first row wins, as SweepResult.best). The one
 * ranking by which a sweep is listed best first (its printed form and `show`).
 * @internal
 * @example topRows(Float64Array.of(0.5, NaN, 1.2, 0.5), 3) // [2, 0, 3]
 */
export function topRows(column: ArrayLike<number>, k: number): number[] {
  const at = (i: number): number => {
    const x = column[i] as number;
    return Number.isNaN(x) ? Number.NEGATIVE_INFINITY : x;
  };
  const order = Array.from({ length: column.length }, (_, i) => i);
  order.sort((a, b) => at(b) - at(a) || a - b);
  return order.slice(0, Math.max(0, k));
}
