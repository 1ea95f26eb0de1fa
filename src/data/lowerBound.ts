/**
 * The first index whose time is at or after `t` in ascending times (binary
 * search; `time.length` when every time is before `t`): the library's one rule
 * for where a time bound falls among bars (panelBetween, walkForward's
 * windows, readParquet's ranges). @internal
 * @example lowerBound([0, 60_000, 120_000], 60_000) // 1
 */
export function lowerBound(time: ArrayLike<number>, t: number): number {
  let lo = 0;
  let hi = time.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((time[mid] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
