import { inspect } from "node:util";
import { isPanel } from "../data/Panel.js";
import type { SweepResult } from "../research/SweepResult.js";
import { topRows } from "../research/topRows.js";
import { DISPLAY, isDisplayable, preHtml, rejectPromise, tslabDisplay, type DisplayForms } from "./display.js";
import { chartForms } from "./chartForms.js";
import { escapeHtml } from "./escapeHtml.js";
import { publishToTslab } from "./publishToTslab.js";
import { formatPercent } from "../domain/formatPercent.js";
import { frameColumns, isFrameLike, type FrameLike } from "./frameColumns.js";
import { htmlTable } from "./htmlTable.js";
import { stats, type StatsSource } from "./stats.js";
import { sweepHeading } from "./sweepHeadings.js";
import { textTable, type TableColumns } from "./textTable.js";

/** Options of {@link show} for tables (DataFrames, column records, result tables). */
export interface ShowOptions {
  /** Caption above a table. */
  readonly caption?: string;
  /** Most rows shown, head and tail [20 in a terminal, 60 in a notebook]. */
  readonly maxRows?: number;
  /** Per-column number formatter, by column name (e.g. `{ return: formatPercent }`). */
  readonly format?: Readonly<Record<string, (value: number) => string>>;
  /** Columns holding epoch ms shown as UTC dates [`time` and every `*_time` / `time_*` column holding epoch ms]. */
  readonly timeColumns?: readonly string[];
  /** Columns coloured by sign in HTML. */
  readonly signed?: readonly string[];
}

/** Sweep rows listed by {@link show}: the best by Sharpe ratio. */
const SWEEP_ROWS = 10;

function looksLikeTime(name: string, col: ArrayLike<unknown>): boolean {
  if (!/(^|_)time($|_)/.test(name)) return false;
  for (let i = 0; i < col.length; i++) {
    const v = col[i];
    if (typeof v === "number" && Number.isFinite(v)) return v > 1e11 && v < 4.2e12;
  }
  return false;
}

/** Forms of a table, with its epoch-ms time columns as UTC dates. */
function tableForms(table: TableColumns | FrameLike, options: ShowOptions): DisplayForms {
  const { names, cols } = frameColumns(table);
  const timeColumns = options.timeColumns ?? names.filter((name, j) => looksLikeTime(name, cols[j] as ArrayLike<unknown>));
  const common = {
    ...(options.format !== undefined ? { format: options.format } : {}),
    timeColumns,
  };
  const caption = options.caption !== undefined ? `${options.caption}\n` : "";
  return {
    text: caption + textTable(table, { ...common, maxRows: options.maxRows ?? 20 }),
    html: htmlTable(table, {
      ...common,
      maxRows: options.maxRows ?? 60,
      ...(options.caption !== undefined ? { caption: options.caption } : {}),
      ...(options.signed !== undefined ? { signed: options.signed } : {}),
    }),
  };
}

function isRecordOfColumns(x: object): x is TableColumns {
  const values = Object.values(x);
  return values.length > 0 && values.every((v) => ArrayBuffer.isView(v) || (Array.isArray(v) && v.every((e) => typeof e === "number" || typeof e === "string")));
}

function isStatsSource(x: object): x is StatsSource & { equity: ArrayLike<number> } {
  const r = x as { time?: unknown; returns?: unknown; equity?: unknown };
  return ArrayBuffer.isView(r.time) && ArrayBuffer.isView(r.returns) && ArrayBuffer.isView(r.equity);
}

/** What `show` reads of a SweepResult (sweepComposite's or sweepStrategy's; `parameters` and `levels` only a strategy sweep needs). */
type SweepLike = Pick<SweepResult, "components" | "length" | "total" | "complete" | "periodsPerYear" | "columns"> & Partial<Pick<SweepResult, "parameters" | "levels">>;

function isSweepLike(x: object): x is SweepLike {
  const s = x as Partial<SweepLike> & { best?: unknown };
  return Array.isArray(s.components) && typeof s.total === "number" && typeof s.best === "function" && typeof s.columns === "object";
}

/** A sweep: what it covers, then its best rows by Sharpe ratio. */
function sweepForms(sweep: SweepLike, options: ShowOptions): DisplayForms {
  const key = "sharpeRatio" in sweep.columns ? "sharpeRatio" : undefined;
  const k = options.maxRows ?? SWEEP_ROWS;
  const top = key !== undefined ? topRows(sweep.columns[key] as Float64Array, k) : Array.from({ length: Math.min(k, sweep.length) }, (_, i) => i);
  const cols: Record<string, Float64Array | string[]> = {};
  for (const [name, col] of Object.entries(sweep.columns)) {
    const levels = sweep.levels?.[name];
    // A non-numeric parameter's column holds the index of its value in `levels`: shown as the value.
    // Metrics under their reader names ("Sharpe", "total return"), not the field names.
    cols[sweepHeading(name)] = levels !== undefined ? top.map((i) => String(levels[col[i] as number])) : Float64Array.from(top, (i) => col[i] as number);
  }
  const over = sweep.components.length > 0 ? `components ${sweep.components.join(", ")}` : `parameters ${(sweep.parameters ?? []).join(", ")}`;
  const caption =
    options.caption ??
    `Sweep: ${sweep.length.toLocaleString("en-US")} of ${sweep.total.toLocaleString("en-US")} variants${sweep.complete ? "" : " (incomplete)"}, ` +
      `${over}; ${key !== undefined ? `top ${top.length} by Sharpe ratio (annualised, ${sweep.periodsPerYear.toFixed(0)} bars a year)` : `first ${top.length} rows`}`;
  // formats by heading; a caller's format may name a column by its field name (totalReturn) or its heading
  const given = Object.fromEntries(Object.entries(options.format ?? {}).map(([name, f]) => [sweepHeading(name), f]));
  const format = { [sweepHeading("totalReturn")]: (x: number) => formatPercent(x), [sweepHeading("maxDrawdown")]: (x: number) => formatPercent(x), [sweepHeading("exposure")]: (x: number) => formatPercent(x, 1), ...given };
  return tableForms(cols, { ...options, caption, format, maxRows: top.length + 1 });
}

/** runWalkForward's result (`outOfSample`) or assessSweep's walk-forward (`outOfSampleSharpe`). */
interface WalkForwardLike {
  readonly folds: { readonly rows: number; readonly columns: Readonly<Record<string, Float64Array>> };
  readonly outOfSample?: number;
  readonly outOfSampleSharpe?: number;
  readonly returns: Float64Array;
}

function isWalkForwardLike(x: object): x is WalkForwardLike {
  const w = x as Partial<WalkForwardLike>;
  const score = w.outOfSample ?? w.outOfSampleSharpe;
  return typeof score === "number" && typeof w.folds === "object" && w.folds !== null && typeof w.folds.columns === "object" && ArrayBuffer.isView(w.returns);
}

function walkForwardForms(wf: WalkForwardLike, options: ShowOptions): DisplayForms {
  const score = (wf.outOfSample ?? wf.outOfSampleSharpe) as number;
  const what = wf.outOfSampleSharpe !== undefined ? "Sharpe ratio (annualised)" : "score";
  const caption = options.caption ?? `Walk-forward: ${wf.folds.rows} folds; stitched out-of-sample ${what} ${Number.isFinite(score) ? score.toPrecision(4) : "–"}`;
  return tableForms(wf.folds.columns, { ...options, caption });
}

/**
 * The text and HTML forms of any value `show` accepts (see {@link show}).
 * @throws InvalidArgumentError for a Promise (an un-awaited chart or tearsheet)
 */
export function displayForms(x: unknown, options: ShowOptions = {}): DisplayForms {
  rejectPromise(x, "show");
  if (isDisplayable(x)) return x[DISPLAY]();
  if (typeof x === "string") {
    const t = x.trimStart();
    if (t.startsWith("<svg") || t.startsWith("<?xml")) return chartForms(x);
    if (t.startsWith("<")) return { text: x, html: x };
    return { text: x, html: preHtml(x) };
  }
  if (typeof x === "object" && x !== null) {
    if (isStatsSource(x)) return stats(x)[DISPLAY]();
    if (isSweepLike(x)) return sweepForms(x, options);
    if (isWalkForwardLike(x)) return walkForwardForms(x, options);
    if (isPanel(x)) return tableForms({ time: x.time, ...x.columns }, options);
    if (isFrameLike(x)) return tableForms(x, options);
    const cols = (x as { columns?: unknown }).columns;
    if (typeof (x as { rows?: unknown }).rows === "number" && typeof cols === "object" && cols !== null && isRecordOfColumns(cols)) return tableForms(cols, options);
    if (isRecordOfColumns(x)) return tableForms(x, options);
    const entries = Object.entries(x);
    if (entries.length > 0 && entries.every(([, v]) => typeof v === "number")) {
      // a record of numbers (performanceSummary, tradeStatistics, ...): one row per name
      return tableForms({ name: entries.map(([k]) => k), value: entries.map(([, v]) => v as number) }, options);
    }
  }
  const text = inspect(x, { depth: 4, maxArrayLength: 20 });
  return { text, html: `<pre>${escapeHtml(text)}</pre>` };
}

/**
 * Show a result: as a rich table or chart in a tslab notebook, as plain text
 * elsewhere (`console.log`). One call for everything the library returns:
 * a backtest result (its {@link stats}), `stats(...)`, `monthlyTable(...)`, a
 * sweep (its best rows by Sharpe ratio), a walk-forward (its folds; runWalkForward's
 * or assessSweep's), a record of numbers such as `performanceSummary(...)`, a
 * `tearsheet(...)`, a chart (the SVG string a chart function resolves to; in a
 * notebook it is sent as one bundle: an interactive vega-lite chart for JupyterLab
 * and VS Code, the SVG for nbconvert and GitHub, and a text line), a
 * DataFrame, a Panel, a metrics table or plain named columns (times as UTC
 * dates, long tables as head and tail). Anything implementing the display
 * protocol ({@link DISPLAY}) shows its own forms.
 *
 * Why a call: tslab (1.0) prints a cell's last value with `console.log`, which
 * has no rich-output hook, so a last value shows the text form (the library's
 * display objects give `util.inspect` their text) and `show(x)` the HTML.
 * @throws InvalidArgumentError for a Promise: write `show(await equityChart(...))`
 * @example show(stats(bt)); show(monthlyTable(bt)); show(await equityChart(bt)); show(df, { maxRows: 10 })
 */
export function show(x: unknown, options: ShowOptions = {}): void {
  const forms = displayForms(x, options);
  if (forms.mime !== undefined && publishToTslab(forms.mime)) return;
  const display = tslabDisplay();
  if (display !== undefined) display.html(forms.html);
  else console.log(forms.text);
}
