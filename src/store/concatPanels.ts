import type { Panel } from "../data/Panel.js";
import { sortDedupe } from "../data/sortDedupe.js";

/**
 * Stack panels with the same columns in the order given. If the times do not
 * come out strictly ascending (overlapping files), rows are sorted and the
 * last one of a repeated time wins (`sortDedupe`).
 * @example concatPanels([{ time: Float64Array.of(0), columns: { v: Float64Array.of(1) } }, { time: Float64Array.of(60_000), columns: { v: Float64Array.of(2) } }], ["v"]).columns.v // [1, 2]
 * @internal
 */
export function concatPanels(parts: readonly Panel[], names: readonly string[]): Panel {
  if (parts.length === 1) return parts[0] as Panel;
  let n = 0;
  for (const p of parts) n += p.time.length;
  const time = new Float64Array(n);
  const columns: Record<string, Float64Array> = {};
  for (const name of names) columns[name] = new Float64Array(n);
  let at = 0;
  for (const p of parts) {
    time.set(p.time, at);
    for (const name of names) (columns[name] as Float64Array).set(p.columns[name] ?? new Float64Array(p.time.length).fill(Number.NaN), at);
    at += p.time.length;
  }
  for (let i = 1; i < n; i++) if (!((time[i] as number) > (time[i - 1] as number))) return sortDedupe(time, columns).panel;
  return { time, columns };
}
