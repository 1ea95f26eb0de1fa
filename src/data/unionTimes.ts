/**
 * The sorted union of several time columns, without repeats (NaN dropped):
 * the grid of an outer join.
 * @example unionTimes([0, 120], [60, 120]) // Float64Array [0, 60, 120]
 */
export function unionTimes(...times: readonly ArrayLike<number>[]): Float64Array {
  let total = 0;
  for (const t of times) total += t.length;
  const all = new Float64Array(total);
  let k = 0;
  for (const t of times) for (let i = 0; i < t.length; i++) all[k++] = t[i] as number;
  all.sort(); // typed-array sort is numeric; NaN sorts last
  let m = 0;
  for (let i = 0; i < total; i++) {
    const x = all[i] as number;
    if (Number.isNaN(x)) break;
    if (m === 0 || x !== all[m - 1]) all[m++] = x;
  }
  return all.slice(0, m);
}
