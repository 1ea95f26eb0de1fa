/** Raw (unsorted, undeduplicated) columns plus the null count. */
export interface Collected {
  t: Float64Array;
  v: Float64Array;
  n: number;
  nulls: number;
  metricId: string | undefined;
}

export function collect(len: number): Collected {
  return { t: new Float64Array(len), v: new Float64Array(len), n: 0, nulls: 0, metricId: undefined };
}

/**
 * Sort ascending by time (stable, so input order decides among equal times)
 * and drop repeats. Rule for points sharing a time stamp: the LAST one seen in
 * the input is kept; each other one counts as a `duplicate` if its value
 * equals the kept value, else as a `conflict`.
 */
export function sortDedupeHistory(c: Collected): { time: Float64Array; value: Float64Array; duplicates: number; conflicts: number } {
  const n = c.n;
  let sorted = true;
  let unique = true;
  for (let i = 1; i < n; i++) {
    const d = (c.t[i] as number) - (c.t[i - 1] as number);
    if (d < 0) {
      sorted = false;
      break;
    }
    if (d === 0) unique = false;
  }
  if (sorted && unique) return { time: c.t.slice(0, n), value: c.v.slice(0, n), duplicates: 0, conflicts: 0 };
  let order: Uint32Array | undefined;
  if (!sorted) {
    const idx = Array.from({ length: n }, (_, i) => i);
    idx.sort((a, b) => (c.t[a] as number) - (c.t[b] as number) || a - b);
    order = Uint32Array.from(idx);
  }
  const at = (i: number): number => (order === undefined ? i : (order[i] as number));
  const time = new Float64Array(n);
  const value = new Float64Array(n);
  let m = 0;
  let duplicates = 0;
  let conflicts = 0;
  let i = 0;
  while (i < n) {
    let j = i;
    const t = c.t[at(i)] as number;
    while (j + 1 < n && c.t[at(j + 1)] === t) j++;
    const kept = c.v[at(j)] as number;
    for (let k = i; k < j; k++) {
      if (c.v[at(k)] === kept) duplicates++;
      else conflicts++;
    }
    time[m] = t;
    value[m] = kept;
    m++;
    i = j + 1;
  }
  return { time: time.slice(0, m), value: value.slice(0, m), duplicates, conflicts };
}

