import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { escapeHtml } from "./escapeHtml.js";
import { frameColumns, type FrameLike } from "./frameColumns.js";
import { formatNumber } from "../domain/formatNumber.js";
import type { TableColumns } from "./textTable.js";
import { COLORS } from "./chartTheme.js";
import { formatUtc } from "../domain/formatUtc.js";

export { formatUtc };

/** Options of {@link htmlTable}. */
export interface HtmlTableOptions {
  /** Caption above the table. */
  readonly caption?: string;
  /** Per-column number formatter, by column name [{@link formatNumber}]. */
  readonly format?: Readonly<Record<string, (value: number) => string>>;
  /** Columns holding epoch ms, shown as UTC date-times `YYYY-MM-DD HH:MM` [["time"]]. */
  readonly timeColumns?: readonly string[];
  /** Columns whose numbers are coloured by sign (green >= 0, red < 0) [none]. */
  readonly signed?: readonly string[];
  /** Most rows shown: the first and last halves, with a "… n more rows" line between [60]. */
  readonly maxRows?: number;
  /** CSS class of the table ["milab-table"]. */
  readonly className?: string;
}

/** Text cells longer than this many characters wrap (white-space normal) rather than widen the table. */
const WRAP_AT = 40;

/**
 * Render a table as an HTML `<table>` string, every value escaped: numbers
 * right-aligned with tabular figures, NaN as `–`, epoch-ms time columns as UTC
 * date-times. Accepts plain named columns or a danfo DataFrame (read
 * duck-typed). Long tables show their head and tail. Display it in a tslab
 * notebook with `tslab.display.html(htmlTable(df))`.
 * @throws InvalidArgumentError when the columns differ in length or maxRows is not a positive integer
 * @example
 * htmlTable({ coin: ["BTC"], sharpe: [1.234567] })
 * // '<table class="milab-table"><thead><tr><th>coin</th><th class="num">sharpe</th></tr></thead><tbody><tr><td>BTC</td><td class="num">1.235</td></tr></tbody></table>'
 */
export function htmlTable(table: TableColumns | FrameLike, options: HtmlTableOptions = {}): string {
  const maxRows = options.maxRows ?? 60;
  if (!Number.isInteger(maxRows) || maxRows < 1) {
    throw new InvalidArgumentError("maxRows", `htmlTable: maxRows must be a positive integer, got ${String(maxRows)}`);
  }
  const { names, cols } = frameColumns(table);
  const n = cols.length === 0 ? 0 : (cols[0] as ArrayLike<unknown>).length;
  cols.forEach((col, j) => {
    if (col.length !== n) {
      throw new InvalidArgumentError("columns", `htmlTable: every column must have ${n} values, got ${col.length} in ${JSON.stringify(names[j])}`);
    }
  });
  const timeCols = new Set(options.timeColumns ?? ["time"]);
  const signed = new Set(options.signed ?? []);
  const numeric = cols.map((col) => {
    for (let i = 0; i < col.length; i++) if (col[i] !== null && col[i] !== undefined && typeof col[i] !== "number") return false;
    return col.length > 0;
  });
  const cell = (j: number, i: number): string => {
    const name = names[j] as string;
    const v = (cols[j] as ArrayLike<unknown>)[i];
    if (typeof v === "number") {
      const text = timeCols.has(name) ? formatUtc(v) : (options.format?.[name] ?? formatNumber)(v);
      if (signed.has(name) && Number.isFinite(v) && v !== 0) {
        // the colour is inline too, so a table shown outside the tearsheet (a notebook cell) is coloured as well
        const [cls, color] = v < 0 ? ["num neg", COLORS.down] : ["num pos", COLORS.up];
        return `<td class="${cls}" style="color:${color}">${escapeHtml(text)}</td>`;
      }
      return `<td class="num">${escapeHtml(text)}</td>`;
    }
    const text = v === null || v === undefined ? "–" : typeof v === "object" ? JSON.stringify(v) : String(v);
    // a long text (a list of weights) wraps inside its cell instead of pushing the table past its card's edge
    // (a break is allowed after each comma: `imbalance=0.3,funding=0.25,...` has no space to break at)
    if (text.length > WRAP_AT) return `<td class="wrap" style="white-space:normal;min-width:16em">${escapeHtml(text).replace(/,/g, ",<wbr>")}</td>`;
    return `<td${numeric[j] === true ? ' class="num"' : ""}>${escapeHtml(text)}</td>`;
  };
  const row = (i: number): string => `<tr>${names.map((_, j) => cell(j, i)).join("")}</tr>`;
  const rows: string[] = [];
  if (n <= maxRows) for (let i = 0; i < n; i++) rows.push(row(i));
  else {
    const head = Math.ceil(maxRows / 2);
    const tail = maxRows - head;
    for (let i = 0; i < head; i++) rows.push(row(i));
    rows.push(`<tr class="more"><td colspan="${names.length}">… ${(n - maxRows).toLocaleString("en-US")} more rows …</td></tr>`);
    for (let i = n - tail; i < n; i++) rows.push(row(i));
  }
  const header = names.map((name, j) => `<th${numeric[j] === true ? ' class="num"' : ""}>${escapeHtml(name)}</th>`).join("");
  const caption = options.caption !== undefined ? `<caption>${escapeHtml(options.caption)}</caption>` : "";
  return `<table class="${escapeHtml(options.className ?? "milab-table")}">${caption}<thead><tr>${header}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}
