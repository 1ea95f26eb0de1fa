import { resolve } from "node:path";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { checkOptions, type OptionsCheck } from "../options/checkOptions.js";
import type { OptionSpec } from "../options/OptionSpec.js";
import { writeFileAtomic } from "../store/writeFileAtomic.js";
import { cumReturns } from "../metrics/cumReturns.js";
import { performanceSummary } from "../metrics/performanceSummary.js";
import { backtestSection, type BacktestLike } from "./backtestSection.js";
import { withDisplay, type Displayable } from "./display.js";
import { escapeHtml } from "./escapeHtml.js";
import { performanceSection } from "./performanceSection.js";
import { renderTearsheet, type TearsheetSection } from "./renderTearsheet.js";
import { summaryTiles } from "./summaryTiles.js";

/** Options of {@link tearsheet}. */
export interface TearsheetOptions {
  /** Page title ["Tearsheet"]. */
  readonly title?: string;
  /** Bar times, epoch ms UTC, when the input is a bare return series. */
  readonly time?: ArrayLike<number>;
  /** Benchmark returns per bar (same bars as the input), e.g. buy and hold of the coin. */
  readonly benchmark?: ArrayLike<number>;
  /** Name of the benchmark in charts and tables ["benchmark"]. */
  readonly benchmarkName?: string;
  /** Close prices of a backtest's bars: buy and hold on the equity chart (and the benchmark when none is given). */
  readonly close?: ArrayLike<number>;
  /** Also write the page to this file (folders created); its absolute path is in `file`. */
  readonly file?: string;
}

/** The result of {@link tearsheet}: the page, and where it was written. */
export interface Tearsheet extends Displayable {
  readonly title: string;
  /** The whole page: one self-contained HTML document (inline SVG charts, no network). */
  readonly html: string;
  /** Absolute path written, when `file` was given. */
  readonly file: string | undefined;
}

/** Every option of {@link tearsheet}, its unit and default. @internal */
export const TEARSHEET_OPTION_SPECS = {
  title: { unit: "text", default: '"Tearsheet"' },
  time: { unit: "epoch ms UTC per bar", default: "the backtest's (required for bare returns)" },
  benchmark: { unit: "return per bar", default: "none" },
  benchmarkName: { unit: "text", default: '"benchmark" ("buy & hold" from close)' },
  close: { unit: "price per bar", default: "none" },
  file: { unit: "path", default: "none (not written)" },
} as const satisfies Record<keyof TearsheetOptions, OptionSpec>;

/** How tearsheet's options are checked where they enter (checkOptions). */
const TEARSHEET_CHECK: OptionsCheck = { where: "tearsheet", specs: TEARSHEET_OPTION_SPECS, example: 'tearsheet(bt, { title: "BTC", file: "out/btc.html" })' };

function isBacktestLike(x: unknown): x is BacktestLike {
  const r = x as Partial<BacktestLike> | null;
  return typeof r === "object" && r !== null && r.time !== undefined && r.equity !== undefined && r.returns !== undefined && Array.isArray(r.trades);
}

/** Equity from per-bar returns, starting at 1 (a NaN return counts as 0, as in cumReturns). */
function equityOf(returns: ArrayLike<number>): Float64Array {
  return Float64Array.from(cumReturns(returns), (c) => c + 1);
}

/**
 * The whole tearsheet of a backtest, or of a return series, in one call: for a
 * backtest, its headline tiles, equity (with buy and hold given `close`),
 * drawdown, positions and trades (`backtestSection`); for both, the
 * quantstats-style performance views (`performanceSection`: monthly heatmap,
 * top drawdowns, rolling Sharpe / volatility / beta, return distribution,
 * yearly returns against the benchmark). In a notebook `show(await
 * tearsheet(bt))` draws it in a frame; with `file` it is also written as one
 * self-contained HTML file (what `writeReport` writes).
 * @throws InvalidArgumentError when a bare return series comes without `time`, or a benchmark or close is not one per bar
 * @throws FileWriteError when `file` cannot be written (a folder at the path, disk full, read-only, permissions); the file is written aside and renamed into place, never half-written
 * @example
 * const sheet = await tearsheet(bt, { title: "BTC composite", close, file: "out/btc.html" });
 * await tearsheet(returns, { time, benchmark: btcReturns, benchmarkName: "BTC" });
 */
export async function tearsheet(input: BacktestLike | ArrayLike<number>, options: TearsheetOptions = {}): Promise<Tearsheet> {
  options = checkOptions(options, TEARSHEET_CHECK);
  const title = options.title ?? "Tearsheet";
  const bt = isBacktestLike(input) ? input : undefined;
  const time = bt?.time ?? options.time;
  const returns = bt?.returns ?? (input as ArrayLike<number>);
  if (time === undefined) throw new InvalidArgumentError("time", "tearsheet: a bare return series needs its bar times: tearsheet(returns, { time })");
  const n = time.length;
  if (returns.length !== n) throw new InvalidArgumentError("time", `tearsheet: time must have one value per return (${returns.length}), got ${n}`);
  for (const [name, a] of [["benchmark", options.benchmark], ["close", options.close]] as const) {
    if (a !== undefined && a.length !== n) throw new InvalidArgumentError(name, `tearsheet: ${name} must have one value per bar (${n}), got ${a.length}`);
  }
  const sections: TearsheetSection[] = [];
  let benchmark: ArrayLike<number> | undefined;
  let benchmarkName = options.benchmarkName ?? "benchmark";
  if (options.benchmark !== undefined) benchmark = equityOf(options.benchmark);
  else if (options.close !== undefined) {
    const close = options.close;
    benchmark = Float64Array.from(close, (c) => c / (close[0] as number));
    benchmarkName = options.benchmarkName ?? "buy & hold";
  }
  if (bt !== undefined) {
    sections.push(backtestSection(bt, { title, ...(options.close !== undefined ? { close: options.close } : {}) }));
  } else {
    const summary = performanceSummary(returns, { time });
    const shown = new Set(["Total return", "CAGR", "Sharpe", "Sharpe SE", "Sortino", "Max drawdown", "Volatility"]);
    const series: Record<string, ArrayLike<number>> = { strategy: equityOf(returns) };
    if (benchmark !== undefined) series[benchmarkName] = benchmark;
    sections.push({
      title,
      metrics: summaryTiles(summary, { time, fees: Number.NaN, funding: Number.NaN }).filter((t) => shown.has(t.label)),
      equity: { time, series },
    });
  }
  sections.push(
    performanceSection(
      { time, returns, ...(bt !== undefined ? { positions: bt.positions, exposure: bt.exposure } : {}) },
      { title: `${title}: performance`, ...(benchmark !== undefined ? { benchmark, benchmarkName } : {}) },
    ),
  );
  const html = await renderTearsheet({ title, sections });
  let file: string | undefined;
  if (options.file !== undefined) {
    file = resolve(options.file);
    writeFileAtomic(file, Buffer.from(html, "utf8"), "tearsheet");
  }
  const sheet = { title, html, file };
  return withDisplay(sheet, () => ({
    text: `Tearsheet "${title}": ${Math.round(html.length / 1024)} kB of HTML${file !== undefined ? `, written to ${file}` : "; tearsheet(x, { file }) writes it"}`,
    html: `<iframe title="${escapeHtml(title)}" srcdoc="${escapeHtml(html)}" style="width:100%;height:900px;border:1px solid #dee2e6;border-radius:6px"></iframe>`,
  }));
}
