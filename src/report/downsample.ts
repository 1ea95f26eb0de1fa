/**
 * Indices of at most about `maxPoints` points of a series, chosen per bucket of
 * consecutive points as the first, the minimum, the maximum and the last
 * (min-max decimation): a chart of the result shows the same extremes —
 * drawdowns, spikes — as the full series, with far fewer SVG path vertices.
 * NaN values are skipped when looking for the extremes. Returns every index when
 * the series is short enough.
 * @internal
 */
export function downsampleIndices(values: ArrayLike<number>, maxPoints: number): number[] {
  const n = values.length;
  if (n <= maxPoints || maxPoints < 8) return Array.from({ length: n }, (_, i) => i);
  const buckets = Math.max(1, Math.floor(maxPoints / 4));
  const out: number[] = [];
  for (let b = 0; b < buckets; b++) {
    // bucket bounds as (b x n) / buckets: exact for the last one (n), where b x (n / buckets) can round below n
    const lo = Math.floor((b * n) / buckets);
    const hi = Math.floor(((b + 1) * n) / buckets);
    if (hi <= lo) continue;
    let iMin = -1;
    let iMax = -1;
    for (let i = lo; i < hi; i++) {
      const v = values[i] as number;
      if (Number.isNaN(v)) continue;
      if (iMin < 0 || v < (values[iMin] as number)) iMin = i;
      if (iMax < 0 || v > (values[iMax] as number)) iMax = i;
    }
    const picks = new Set<number>([lo, hi - 1]);
    if (iMin >= 0) picks.add(iMin);
    if (iMax >= 0) picks.add(iMax);
    out.push(...[...picks].sort((a, b2) => a - b2));
  }
  return out;
}

/**
 * Union of the downsampled indices of several series over the same time axis,
 * so every series keeps its own extremes. @internal
 */
export function downsampleIndicesMany(series: readonly ArrayLike<number>[], n: number, maxPoints: number): number[] {
  if (n <= maxPoints) return Array.from({ length: n }, (_, i) => i);
  const per = Math.max(8, Math.floor(maxPoints / Math.max(1, series.length)));
  const set = new Set<number>();
  for (const s of series) for (const i of downsampleIndices(s, per)) set.add(i);
  return [...set].sort((a, b) => a - b);
}
