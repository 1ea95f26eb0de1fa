import { formatNumber } from "../domain/formatNumber.js";
import { formatUtc } from "../domain/formatUtc.js";
import type { Panel } from "./Panel.js";

/** Column names a Panel's printed form lists before "… and n more". */
const NAMES = 12;

/**
 * A Panel's printed form (what `console.log(panel)` shows instead of its
 * Float64Arrays): rows, first and last time as UTC dates (a non-finite time
 * shows as `–`), and its columns. Reads two times and the names. @internal
 * @example panelText(createPanel([0, 3_600_000], { close: [1, 2] }))
 * // "Panel: 2 rows 1970-01-01 00:00 → 1970-01-01 01:00 UTC\n  columns (1): close"
 */
export function panelText(panel: Panel): string {
  const n = panel.time.length;
  const names = Object.keys(panel.columns);
  const range = n === 0 ? "" : ` ${formatUtc(panel.time[0] as number)} → ${formatUtc(panel.time[n - 1] as number)} UTC`;
  const listed = names.slice(0, NAMES).join(", ") + (names.length > NAMES ? `, … and ${names.length - NAMES} more` : "");
  return [
    `Panel: ${formatNumber(n)} row${n === 1 ? "" : "s"}${range}`,
    `  columns (${names.length}): ${names.length === 0 ? "none" : listed}`,
    "  show(panel) for the rows, toDataFrame(panel) for a DataFrame",
  ].join("\n");
}
