import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { frameColumns, type FrameLike } from "./frameColumns.js";
import { formatUtc } from "./formatUtc.js";

/** Columns of a table: numbers (typed arrays welcome) or strings, all the same length. */
export type TableColumns = Readonly<Record<string, ArrayLike<number> | readonly string[]>>;

/** Options of {@link textTable}. */
export interface TextTableOptions {
  /** Per-column number formatter, by column name [{@link formatNumber}]. */
  readonly format?: Readonly<Record<string, (value: number) => string>>;
  /** Draw a rule under the header [true]. */
  readonly rule?: boolean;
  /** Columns holding epoch ms, shown as UTC date-times `YYYY-MM-DD HH:MM` [none; `show` passes the time columns]. */
  readonly timeColumns?: readonly string[];
  /** Most rows shown: the first and last halves, with a "… n more rows" line between [every row]. */
  readonly maxRows?: number;
}

/**
 * Compact default number format for tables: NaN as `–`, integers as they are
 * (thousands separated), other values with 4 significant digits below 1000, two
 * decimals up to a million and none above; magnitudes below 1e-4 or from 1e15 in
 * exponent form.
 * @example formatNumber(0.123456) // "0.1235"
 */
export function formatNumber(value: number): string {
  if (Number.isNaN(value)) return "–";
  if (!Number.isFinite(value)) return value > 0 ? "∞" : "-∞";
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return value.toLocaleString("en-US");
  const abs = Math.abs(value);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e15)) return value.toExponential(3);
  if (abs >= 1e6) return Math.round(value).toLocaleString("en-US");
  if (abs >= 1000) return value.toLocaleString("en-US", { maximumFractionDigits: 2 });
  return value.toPrecision(4).replace(/(\.\d*?[1-9])0+$|\.0+$/, "$1");
}

/**
 * Render named columns (or a danfo DataFrame, read duck-typed) as a
 * fixed-width plain-text table for terminals: numbers right-aligned, text
 * left-aligned, one line per row.
 * @throws InvalidArgumentError when the columns differ in length
 * @example
 * textTable({ coin: ["BTC", "ETH"], sharpe: [1.2346, -0.5] })
 * // "coin  sharpe\n----  ------\nBTC    1.235\nETH     -0.5"
 */
export function textTable(table: TableColumns | FrameLike, options: TextTableOptions = {}): string {
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  if (!(maxRows === Number.POSITIVE_INFINITY || (Number.isInteger(maxRows) && maxRows >= 1))) {
    throw new InvalidArgumentError("maxRows", `textTable: maxRows must be a positive integer, got ${String(maxRows)}`);
  }
  const { names, cols: arrays } = frameColumns(table);
  if (names.length === 0) return "";
  const n = (arrays[0] as ArrayLike<unknown>).length;
  const timeCols = new Set(options.timeColumns ?? []);
  const cells: string[][] = [];
  const numeric: boolean[] = [];
  for (const [j, name] of names.entries()) {
    const col = arrays[j] as ArrayLike<number | string>;
    if (col.length !== n) {
      throw new InvalidArgumentError("columns", `textTable: every column must have ${n} values, got ${col.length} in ${JSON.stringify(name)}`);
    }
    const fmt = timeCols.has(name) ? formatUtc : (options.format?.[name] ?? formatNumber);
    const out: string[] = [];
    let isNumeric = true;
    for (let i = 0; i < n; i++) {
      const v = col[i];
      if (typeof v === "number") out.push(fmt(v));
      else {
        isNumeric = false;
        out.push(String(v ?? ""));
      }
    }
    cells.push(out);
    numeric.push(isNumeric && n > 0 && !timeCols.has(name));
  }
  const widths = names.map((name, j) => Math.max(name.length, ...(cells[j] as string[]).map((s) => s.length)));
  const pad = (s: string, j: number): string => (numeric[j] ? s.padStart(widths[j] as number) : s.padEnd(widths[j] as number));
  const lines = [names.map((name, j) => pad(name, j)).join("  ")];
  if (options.rule !== false) lines.push(widths.map((w) => "-".repeat(w)).join("  "));
  const line = (i: number): string => cells.map((col, j) => pad(col[i] as string, j)).join("  ");
  if (n <= maxRows) for (let i = 0; i < n; i++) lines.push(line(i));
  else {
    const head = Math.ceil(maxRows / 2);
    for (let i = 0; i < head; i++) lines.push(line(i));
    lines.push(`… ${(n - maxRows).toLocaleString("en-US")} more rows …`);
    for (let i = n - (maxRows - head); i < n; i++) lines.push(line(i));
  }
  return lines.map((l) => l.trimEnd()).join("\n");
}
