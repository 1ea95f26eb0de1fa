import type { Trade } from "../backtest/Trade.js";
import { barSpec, type BarChartInput, type BarChartOptions } from "./barChart.js";
import { drawdownSpec } from "./drawdownChart.js";
import { equitySpec } from "./equityChart.js";
import { columnDecimals } from "./columnDecimals.js";
import { escapeHtml } from "./escapeHtml.js";
import { withoutEmptyObjects } from "./withoutEmptyObjects.js";
import { formatUtc, htmlTable } from "./htmlTable.js";
import { icDecaySpec, type IcDecayInput } from "./icDecayChart.js";
import { interactiveSpec } from "./interactiveSpec.js";
import { positionsSpec } from "./positionsChart.js";
import { renderSvg, type VegaLiteSpec } from "./renderSvg.js";
import { signalSpec, type SignalChartInput } from "./signalChart.js";
import { TEARSHEET_CSS } from "./tearsheetCss.js";
import type { TableColumns } from "./textTable.js";
import type { TimeSeriesInput } from "./timeSeriesRows.js";
import { viewerScript } from "./viewerScript.js";
import type { Manifest } from "../store/createManifest.js";

/** A headline number shown as a tile. `percent` shows 0.123 as 12.3%; `signed` colours it by sign. */
export interface MetricTile {
  readonly label: string;
  readonly value: number;
  readonly format?: "percent" | "number" | "integer" | "money";
  readonly signed?: boolean;
}

/** A table inside a section. */
export interface TearsheetTable {
  readonly title: string;
  readonly table: TableColumns;
  /** Columns coloured by sign. */
  readonly signed?: readonly string[];
  /** Per-column number formatter. */
  readonly format?: Readonly<Record<string, (value: number) => string>>;
  readonly maxRows?: number;
  /** One line shown above the table: what a reader must know to read it (e.g. why it differs from another). */
  readonly note?: string;
}

/** One section (card) of the tearsheet; every part is optional and drawn in this order. */
export interface TearsheetSection {
  readonly title: string;
  /** Anchor id [derived from the title]. */
  readonly id?: string;
  /** A sentence under the title: what this section shows and how it was made. */
  readonly intro?: string;
  readonly metrics?: readonly MetricTile[];
  /** Equity curves (e.g. strategy and buy-and-hold): drawn with their drawdowns. */
  readonly equity?: TimeSeriesInput;
  /** Rebase the equity curves to 1 [false]. */
  readonly normalizeEquity?: boolean;
  /** A signal over price with its trades. */
  readonly signal?: SignalChartInput & { readonly priceTitle?: string; readonly scoreTitle?: string };
  /** Positions over time (one series per coin). */
  readonly positions?: TimeSeriesInput;
  /** Returns (or any statistic) by regime, as bars. */
  readonly regimeReturns?: BarChartInput & { readonly title?: string; readonly options?: BarChartOptions };
  /** IC per forward horizon. */
  readonly icDecay?: IcDecayInput & { readonly title?: string; readonly horizonTitle?: string };
  /** Contribution per component, as horizontal bars. */
  readonly attribution?: BarChartInput & { readonly title?: string; readonly options?: BarChartOptions };
  /** Extra pre-rendered SVG charts (e.g. from {@link barChart}). */
  readonly charts?: readonly { readonly title?: string; readonly svg: string }[];
  /** Extra charts as vega-lite specs, rendered with the page (e.g. from `performanceSection`); `half` ones pair up side by side. */
  readonly specs?: readonly { readonly spec: VegaLiteSpec; readonly half?: boolean }[];
  readonly tables?: readonly TearsheetTable[];
  /** The trade list. */
  readonly trades?: readonly Trade[];
  /** Most trades listed (first and last halves) [40]. */
  readonly maxTrades?: number;
}

/** Input of {@link renderTearsheet}: plain arrays and records, no DataFrame needed. */
export interface TearsheetInput {
  readonly title: string;
  readonly subtitle?: string;
  /** Short facts under the title: data source, period, costs, seed. */
  readonly notes?: readonly string[];
  /** Key facts, shown as a list under the title. */
  readonly highlights?: readonly string[];
  /** A table above the sections, e.g. the scorecard of every strategy. */
  readonly summary?: TearsheetTable;
  readonly sections: readonly TearsheetSection[];
  /** Shown in the footer; omit for byte-identical reruns. */
  readonly generatedAt?: number;
  /**
   * The run manifest behind the report (createManifest: package, git commit, parameters,
   * SHA-256 of the inputs, time range), shown in a "Run manifest" section at the end. Its
   * `createdAt` is shown only with `generatedAt`, so a report without it stays byte-identical.
   */
  readonly manifest?: Manifest;
}

/** The manifest as a small table and its parameters as JSON. */
function manifestSection(m: Manifest, showCreated: boolean): string {
  const rows: [string, string][] = [
    ["kind", m.kind],
    ["package", `${m.package.name} ${m.package.version}`],
    ["git commit", m.gitCommit ?? "(not a git checkout)"],
    ["inputs (SHA-256)", m.inputs.sha256],
    ...Object.entries(m.inputs.columns).map(([name, c]): [string, string] => [`  ${name} (${c.length})`, c.sha256]),
    ["time range", m.timeRange === null ? "–" : `${m.timeRange.start} to ${m.timeRange.end}`],
    ["seed", m.seed === null ? "–" : String(m.seed)],
    ["clock", m.clock === null ? "wall clock" : formatUtc(m.clock) + " UTC"],
  ];
  if (showCreated) rows.push(["created at", m.createdAt]);
  // every parameter in sight (not folded away): what a re-run must repeat
  // data columns are under the inputs (hashed): the objects that held them are not parameters
  const parameters = withoutEmptyObjects(m.parameters) ?? {};
  const params = typeof parameters === "object" && parameters !== null && !Array.isArray(parameters) ? Object.entries(parameters) : [];
  if (params.length > 0) rows.push(["parameters", "as used by this run (defaults included)"]);
  for (const [k, v] of params) rows.push([`  ${k}`, typeof v === "string" ? v : JSON.stringify(v)]);
  const body = rows.map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td><code>${escapeHtml(v)}</code></td></tr>`).join("");
  return `<section class="card" id="run-manifest"><h2>Run manifest</h2><p>What produced this report: re-run it with the same package, parameters and inputs (the hashes say whether the inputs are the same).</p><table class="data"><tbody>${body}</tbody></table><details><summary>parameters as JSON</summary><pre>${escapeHtml(JSON.stringify(parameters, null, 2))}</pre></details></section>`;
}

function slug(text: string, used: Set<string>): string {
  const base = text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "section";
  let id = base;
  for (let k = 2; used.has(id); k++) id = `${base}-${k}`;
  used.add(id);
  return id;
}

function formatTile(tile: MetricTile): string {
  const v = tile.value;
  if (!Number.isFinite(v)) return Number.isNaN(v) ? "–" : v > 0 ? "∞" : "-∞";
  switch (tile.format) {
    case "percent":
      return `${(v * 100).toFixed(Math.abs(v) < 0.1 ? 2 : 1)}%`;
    case "integer":
      return Math.round(v).toLocaleString("en-US");
    case "money":
      return v.toLocaleString("en-US", { maximumFractionDigits: Math.abs(v) >= 100 ? 0 : 2 });
    default:
      return Math.abs(v) >= 100 ? v.toLocaleString("en-US", { maximumFractionDigits: 1 }) : v.toFixed(2);
  }
}

function tiles(metrics: readonly MetricTile[]): string {
  const items = metrics.map((m) => {
    const cls = m.signed === true && Number.isFinite(m.value) && m.value !== 0 ? (m.value > 0 ? " pos" : " neg") : "";
    return `<div class="tile"><div class="label">${escapeHtml(m.label)}</div><div class="value${cls}">${escapeHtml(formatTile(m))}</div></div>`;
  });
  return `<div class="tiles">${items.join("")}</div>`;
}

function figure(svg: string): string {
  return `<figure class="chart">${svg}</figure>`;
}

const pct = (v: number): string => (Number.isFinite(v) ? `${(v * 100).toFixed(2)}%` : "–");

/** The trade list as table columns (times in UTC, returns in percent). @internal */
export function tradeColumns(trades: readonly Trade[]): TableColumns {
  const withCoin = trades.some((t) => t.coin !== undefined);
  return {
    ...(withCoin ? { coin: trades.map((t) => t.coin ?? "") } : {}),
    side: trades.map((t) => t.side),
    entry: trades.map((t) => formatUtc(t.entryTime)),
    exit: trades.map((t) => (t.open ? "open" : formatUtc(t.exitTime))),
    "entry price": trades.map((t) => t.entryPrice),
    "exit price": trades.map((t) => t.exitPrice),
    bars: trades.map((t) => t.barsHeld),
    return: trades.map((t) => t.return),
    pnl: trades.map((t) => t.pnl),
    fees: trades.map((t) => t.fees),
    funding: trades.map((t) => t.funding),
    // why it closed: the strategy's signal, a stop, a take-profit, a liquidation, or still open at the end
    "exit reason": trades.map((t) => (t.open ? "open" : (EXIT_REASON_TEXT[t.reason ?? "signal"] ?? t.reason ?? "signal"))),
  };
}

/** Exit reasons as a reader says them. */
const EXIT_REASON_TEXT: Readonly<Record<string, string>> = { signal: "signal", stop: "stop-loss", take_profit: "take-profit", liquidation: "liquidation", end: "open" };

/**
 * The trade list's number formats, one per column (columnDecimals): cash with 2 decimals, prices
 * with the decimals their column needs, returns in percent. @internal
 */
export function tradeFormats(trades: readonly Trade[]): Readonly<Record<string, (value: number) => string>> {
  const cash = columnDecimals([], 2);
  const prices = columnDecimals(trades.flatMap((t) => [t.entryPrice, t.exitPrice]));
  return { return: pct, pnl: cash, fees: cash, funding: cash, "entry price": prices, "exit price": prices };
}

function table(t: TearsheetTable): string {
  return `<h3>${escapeHtml(t.title)}</h3>${t.note !== undefined ? `<p class="note">${escapeHtml(t.note)}</p>` : ""}<div class="table-wrap">${htmlTable(t.table, {
    ...(t.signed !== undefined ? { signed: t.signed } : {}),
    ...(t.format !== undefined ? { format: t.format } : {}),
    maxRows: t.maxRows ?? 60,
  })}</div>`;
}

/** Options of {@link renderTearsheet}. */
export interface RenderOptions {
  /** Called after each chart is rendered, with the count so far and the total (for a progress bar). */
  readonly onChart?: (done: number, total: number) => void;
  /**
   * Draw the charts live as well [false]: hover tooltips, drag to pan and wheel to zoom (see
   * interactiveSpec), by vega-embed bundled into the page (about 1.2 MB, no network at view
   * time; needs `npm run build`). The static SVGs stay for print and without script.
   */
  readonly interactive?: boolean;
}

/** Charts a section draws (equity counts twice: equity and drawdown). @internal */
export function chartCount(s: TearsheetSection): number {
  return (
    (s.equity !== undefined ? 2 : 0) +
    [s.signal, s.positions, s.regimeReturns, s.icDecay, s.attribution].filter((x) => x !== undefined).length +
    (s.specs?.length ?? 0)
  );
}

/** The charts of one page: each spec is rendered to static SVG; with `interactive`, kept for the live view too. */
interface PageCharts {
  readonly interactive: boolean;
  /** Live specs by key `<section>.<chart>` (keys, not push order, so reruns are byte-identical). */
  readonly specs: Record<string, VegaLiteSpec>;
  readonly tick: <T>(p: Promise<T>) => Promise<T>;
}

/** The charts of one section: the page's, with the section's own numbering. */
interface SectionCharts extends PageCharts {
  readonly section: number;
  count: number;
}

/** A chart as a figure: its static SVG and, on an interactive page, the index of its spec for the live view. */
async function chartFigure(spec: VegaLiteSpec, page: SectionCharts): Promise<string> {
  const key = `${page.section}.${page.count++}`;
  if (page.interactive) page.specs[key] = interactiveSpec(spec);
  const svg = await page.tick(renderSvg(spec));
  return page.interactive ? `<figure class="chart" data-spec="${key}">${svg}</figure>` : figure(svg);
}

async function renderSection(s: TearsheetSection, id: string, page: SectionCharts): Promise<string> {
  const parts: string[] = [`<section class="card" id="${escapeHtml(id)}"><h2>${escapeHtml(s.title)}</h2>`];
  if (s.intro !== undefined) parts.push(`<p class="intro">${escapeHtml(s.intro)}</p>`);
  if (s.metrics !== undefined && s.metrics.length > 0) parts.push(tiles(s.metrics));
  // specs first (argument errors surface before any rendering), then figures in page order
  const big: VegaLiteSpec[] = [];
  if (s.equity !== undefined) big.push(equitySpec(s.equity, { title: "Equity", normalize: s.normalizeEquity ?? false }), drawdownSpec(s.equity, { title: "Drawdown" }));
  if (s.signal !== undefined) {
    big.push(
      signalSpec(s.signal, {
        title: "Signal over price (▲ long entry, ▼ short entry, ✕ exit)",
        ...(s.signal.priceTitle !== undefined ? { priceTitle: s.signal.priceTitle } : {}),
        ...(s.signal.scoreTitle !== undefined ? { scoreTitle: s.signal.scoreTitle } : {}),
      }),
    );
  }
  if (s.positions !== undefined) big.push(positionsSpec(s.positions, { title: "Positions" }));
  const small: VegaLiteSpec[] = [];
  if (s.regimeReturns !== undefined) small.push(barSpec(s.regimeReturns, { title: s.regimeReturns.title ?? "Returns by regime", ...s.regimeReturns.options }));
  if (s.icDecay !== undefined) small.push(icDecaySpec(s.icDecay, { title: s.icDecay.title ?? "IC decay", ...(s.icDecay.horizonTitle !== undefined ? { horizonTitle: s.icDecay.horizonTitle } : {}) }));
  if (s.attribution !== undefined) small.push(barSpec(s.attribution, { title: s.attribution.title ?? "Component attribution", horizontal: true, ...s.attribution.options }));
  for (const spec of big) parts.push(await chartFigure(spec, page));
  if (small.length > 0) parts.push(`<div class="grid2">${(await Promise.all(small.map((spec) => chartFigure(spec, page)))).join("")}</div>`);
  const extra = s.specs ?? [];
  for (let k = 0; k < extra.length; k++) {
    const c = extra[k]!;
    const next = extra[k + 1];
    if (c.half === true && next?.half === true) {
      parts.push(`<div class="grid2">${await chartFigure(c.spec, page)}${await chartFigure(next.spec, page)}</div>`);
      k++;
    } else parts.push(await chartFigure(c.spec, page));
  }
  for (const c of s.charts ?? []) parts.push(`${c.title !== undefined ? `<h3>${escapeHtml(c.title)}</h3>` : ""}${figure(c.svg)}`);
  for (const t of s.tables ?? []) parts.push(table(t));
  if (s.trades !== undefined) {
    const open = s.trades.filter((t) => t.open).length;
    parts.push(
      table({
        title: `Trades (${s.trades.length.toLocaleString("en-US")}${open > 0 ? `, ${open} still open at the end` : ""})`,
        table: tradeColumns(s.trades),
        signed: ["return", "pnl"],
        format: tradeFormats(s.trades),
        maxRows: s.maxTrades ?? 40,
      }),
    );
  }
  parts.push("</section>");
  return parts.join("\n");
}

/**
 * Render a tearsheet as one self-contained HTML page: inline CSS and inline
 * SVG charts (vega-lite, rendered in Node), no external resource, so it opens
 * offline, prints, and can be mailed as one file. Without `interactive` the
 * page has no script; with it, the charts are also drawn live (tooltips, pan,
 * zoom) by a viewer bundled into the page, the static SVGs kept for print.
 * Each section can show headline tiles, equity with drawdown, a signal over
 * price with trades, positions, returns by regime, IC decay, component
 * attribution, tables and the trade list.
 * @throws InvalidArgumentError when a chart's arrays differ in length
 * @example
 * const html = await renderTearsheet({
 *   title: "Composite signal — BTC",
 *   sections: [{ title: "BTC", equity: { time: result.time, series: { strategy: result.equity } }, trades: result.trades }],
 * });
 */
export async function renderTearsheet(input: TearsheetInput, options: RenderOptions = {}): Promise<string> {
  const used = new Set<string>();
  const ids = input.sections.map((s) => (s.id !== undefined ? (used.add(s.id), s.id) : slug(s.title, used)));
  const total = input.sections.reduce((n, s) => n + chartCount(s), 0);
  let done = 0;
  const onChart = options.onChart;
  const tick = <T>(p: Promise<T>): Promise<T> => (onChart === undefined ? p : p.then((v) => (onChart(++done, total), v)));
  const interactive = options.interactive === true;
  const specs: Record<string, VegaLiteSpec> = {};
  const sections = await Promise.all(input.sections.map((s, i) => renderSection(s, ids[i] as string, { interactive, specs, tick, section: i, count: 0 })));
  // the live charts: their specs as JSON (fractions to 6 significant digits, what a tooltip shows; integers such as
  // epoch-ms times exact; no "<" left to end the element early), then the bundled viewer that draws them
  const compact = (_key: string, v: unknown): unknown => (typeof v === "number" && Number.isFinite(v) && !Number.isInteger(v) ? Number(v.toPrecision(6)) : v);
  const live = interactive && Object.keys(specs).length > 0
    ? `<script type="application/json" id="milab-specs">${JSON.stringify(specs, compact).replace(/</g, "\\u003c")}</script>\n<script>${await viewerScript()}</script>\n`
    : "";
  const notes = (input.notes ?? []).map((n) => `<li>${escapeHtml(n)}</li>`).join("");
  const toc =
    input.sections.length > 1
      ? `<nav class="toc">${input.sections.map((s, i) => `<a href="#${escapeHtml(ids[i] as string)}">${escapeHtml(s.title)}</a>`).join("")}</nav>`
      : "";
  const summary =
    input.summary !== undefined ? `<section class="card" id="summary"><h2>${escapeHtml(input.summary.title)}</h2>${table({ ...input.summary, title: "" }).replace("<h3></h3>", "")}</section>` : "";
  const highlights =
    input.highlights !== undefined && input.highlights.length > 0
      ? `<section class="card highlights" id="highlights"><h2>Key facts</h2><ul>${input.highlights.map((h) => `<li>${escapeHtml(h)}</li>`).join("")}</ul></section>`
      : "";
  const generated = input.generatedAt !== undefined ? ` on ${formatUtc(input.generatedAt)} UTC` : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)}</title>
<style>${TEARSHEET_CSS}</style>
</head>
<body>
<main>
<header class="page"><h1>${escapeHtml(input.title)}</h1>${input.subtitle !== undefined ? `<p class="subtitle">${escapeHtml(input.subtitle)}</p>` : ""}${notes !== "" ? `<ul class="notes">${notes}</ul>` : ""}${toc}</header>
${highlights}
${summary}
${sections.join("\n")}
${input.manifest !== undefined ? manifestSection(input.manifest, input.generatedAt !== undefined) : ""}
<footer class="page">Generated by market-intel-lab${escapeHtml(generated)}. Hypothetical, backtested results: no real orders were placed.</footer>
</main>
${live}</body>
</html>
`;
}
