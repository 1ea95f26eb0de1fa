import type { Panel } from "../data/Panel.js";
import { sortDedupe } from "../data/sortDedupe.js";

/** Stacks panels into one, part by part (see {@link createPanelBuilder}). */
export interface PanelBuilder {
  /** Append a part's rows (its columns by name; a column it lacks is NaN). The part can be dropped afterwards. */
  push(part: Panel): void;
  /**
   * Append rows whose values are written in place: `write(name, dst, at)` fills
   * `dst[at .. at + time.length)` for each column (saves a temporary array per column and part).
   */
  append(time: Float64Array, write: (name: string, dst: Float64Array, at: number) => void): void;
  /** The stacked Panel. If times did not come out strictly ascending (overlapping parts), rows are sorted and the last of a repeated time wins (`sortDedupe`). */
  finish(): Panel;
}

/**
 * A builder that stacks panels with the given columns in the order pushed,
 * copying each part into arrays of `capacity` rows (doubled when full), so
 * loading many files holds the result and one part, not every part and then
 * the result (half the peak memory of collecting parts and concatenating).
 * @example
 * const b = createPanelBuilder(["v"], 2);
 * b.push({ time: Float64Array.of(0), columns: { v: Float64Array.of(1) } });
 * b.finish().columns.v // Float64Array [1]
 * @internal
 */
export function createPanelBuilder(names: readonly string[], capacity: number): PanelBuilder {
  let cap = Math.max(0, Math.floor(capacity));
  let time = new Float64Array(cap);
  let columns: Record<string, Float64Array> = Object.fromEntries(names.map((n) => [n, new Float64Array(cap)]));
  let n = 0;
  let ascending = true;
  const grow = (need: number): void => {
    if (need <= cap) return;
    cap = Math.max(need, cap * 2);
    const t = new Float64Array(cap);
    t.set(time.subarray(0, n));
    time = t;
    for (const name of names) {
      const c = new Float64Array(cap);
      c.set((columns[name] as Float64Array).subarray(0, n));
      columns[name] = c;
    }
  };
  const append = (t: Float64Array, write: (name: string, dst: Float64Array, at: number) => void): void => {
    const m = t.length;
    if (m === 0) return;
    grow(n + m);
    if (n > 0 && !((t[0] as number) > (time[n - 1] as number))) ascending = false;
    for (let i = 1; i < m && ascending; i++) if (!((t[i] as number) > (t[i - 1] as number))) ascending = false;
    time.set(t, n);
    for (const name of names) write(name, columns[name] as Float64Array, n);
    n += m;
  };
  return {
    append,
    push(part) {
      append(part.time, (name, dst, at) => {
        const src = part.columns[name];
        if (src === undefined) dst.fill(Number.NaN, at, at + part.time.length);
        else dst.set(src, at);
      });
    },
    finish() {
      // Nearly full: a view (no second copy at the peak); mostly empty: a right-sized copy.
      const fit = (a: Float64Array): Float64Array => (a.length === n ? a : n >= 0.9 * a.length ? a.subarray(0, n) : a.slice(0, n));
      const out: Record<string, Float64Array> = {};
      for (const name of names) out[name] = fit(columns[name] as Float64Array);
      const t = fit(time);
      time = new Float64Array(0);
      columns = {};
      return ascending ? { time: t, columns: out } : sortDedupe(t, out).panel;
    },
  };
}
