import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { conditionalValueAtRisk } from "../metrics/conditionalValueAtRisk.js";
import { cumReturns } from "../metrics/cumReturns.js";
import { monthlyReturns } from "../metrics/monthlyReturns.js";
import { rollingMetrics } from "../metrics/rollingMetrics.js";
import { topDrawdowns } from "../metrics/topDrawdowns.js";
import { valueAtRisk } from "../metrics/valueAtRisk.js";
import { yearlyReturns } from "../metrics/yearlyReturns.js";
import { barSpec } from "./barChart.js";
import { histogramSpec } from "./histogramChart.js";
import { formatUtc } from "./htmlTable.js";
import { monthlyHeatmapSpec } from "./monthlyHeatmapChart.js";
import { positionsSpec } from "./positionsChart.js";
import type { TearsheetSection, TearsheetTable } from "./renderTearsheet.js";
import type { VegaLiteSpec } from "./renderSvg.js";
import { rollingMetricsSpec } from "./rollingMetricsChart.js";
import { underwaterSpec } from "./underwaterChart.js";

/** What {@link performanceSection} reads: bar times and per-bar returns, optionally positions. */
export interface PerformanceInput {
  readonly time: ArrayLike<number>;
  readonly returns: ArrayLike<number>;
  /** Target position per bar (fraction of equity, signed): drawn as |target| over time when `exposure` is not given. */
  readonly positions?: ArrayLike<number>;
  /**
   * Weight held at each close (BacktestResult.exposure): drawn as |weight held| over time, the
   * series whose non-zero share is the "Bars held" tile (exposureTime). Preferred to `positions`.
   */
  readonly exposure?: ArrayLike<number>;
}

/** Options of {@link performanceSection}. */
export interface PerformanceSectionOptions {
  readonly title: string;
  readonly id?: string;
  readonly intro?: string;
  /**
   * The benchmark as an equity curve, one value per bar (e.g. buy & hold of the coin,
   * bought once and never rebalanced): its returns give the rolling beta and the yearly comparison.
   */
  readonly benchmark?: ArrayLike<number>;
  /** Name of the benchmark in charts and tables ["buy & hold"]. */
  readonly benchmarkName?: string;
  /** Rolling windows, ms [30 and 90 days]. */
  readonly windowsMs?: readonly number[];
  /** Drawdown episodes listed and shaded [5]. */
  readonly top?: number;
  /** Worst bars listed [10]. */
  readonly worst?: number;
}

const DAY = 86_400_000;
const pct = (v: number): string => (Number.isFinite(v) ? `${(v * 100).toFixed(2)}%` : "–");
const when = (v: number): string => (Number.isFinite(v) ? formatUtc(v) : "not recovered");
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function windowLabel(ms: number): string {
  return ms % DAY === 0 ? `${ms / DAY}d` : ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : `${ms / 60_000}m`;
}

/**
 * A tearsheet section with the quantstats-style performance views of one
 * return series: the year × month heatmap with yearly totals
 * (`monthlyReturns`, `yearlyReturns`), the top drawdowns as a table and
 * shaded on the underwater curve (`topDrawdowns`), rolling Sharpe, volatility
 * and beta to the benchmark (`rollingMetrics`, 30 and 90 days), the return
 * distribution with VaR and CVaR at 5 % marked, yearly returns against the
 * benchmark, exposure over time, and the worst bars and months.
 * Charts are vega-lite specs rendered by `renderTearsheet`.
 * @throws InvalidArgumentError when returns, positions or benchmark are not one per bar
 * @example
 * const section = performanceSection(result, { title: "BTC: performance", benchmark: buyHoldEquity });
 * await writeReport("out/btc.html", { title: "BTC", sections: [backtestSection(result, { title: "BTC" }), section] });
 */
export function performanceSection(input: PerformanceInput, options: PerformanceSectionOptions): TearsheetSection {
  const { time, returns } = input;
  const n = time.length;
  for (const [name, a] of [["returns", returns], ["positions", input.positions], ["exposure", input.exposure], ["benchmark", options.benchmark]] as const) {
    if (a !== undefined && a.length !== n) {
      throw new InvalidArgumentError(name, `performanceSection: ${name} must have one value per bar (${n}), got ${a.length}`);
    }
  }
  const benchName = options.benchmarkName ?? "buy & hold";
  const bench = options.benchmark;
  // Per-bar returns of the benchmark curve, NaN at the first bar (as a backtest's returns).
  const benchReturns = bench === undefined ? undefined : Float64Array.from(bench, (v, i) => (i === 0 ? Number.NaN : v / (bench[i - 1] as number) - 1));
  const monthly = monthlyReturns(returns, { time });
  const yearly = yearlyReturns(returns, { time });
  const drawdowns = topDrawdowns(returns, { time, top: options.top ?? 5 });
  const equity = Float64Array.from(cumReturns(returns), (c) => c + 1);
  const specs: { spec: VegaLiteSpec; half?: boolean }[] = [];
  specs.push({ spec: monthlyHeatmapSpec({ monthly: monthly.columns as never, yearly: yearly.columns as never }, { title: "Monthly returns (UTC months; last column: the year)" }) });
  specs.push({ spec: underwaterSpec({ time, equity, episodes: drawdowns.columns as never }, { title: `Underwater, top ${drawdowns.rows} drawdowns shaded (numbered by depth)` }) });
  if (n >= 2) {
    const windows = options.windowsMs ?? [30 * DAY, 90 * DAY];
    const panels: Record<string, Record<string, Float64Array>> = { Sharpe: {}, volatility: {}, ...(benchReturns !== undefined ? { [`beta to ${benchName}`]: {} } : {}) };
    for (const w of windows) {
      let m;
      try {
        m = rollingMetrics(returns, { time, windowMs: w, ...(benchReturns !== undefined ? { benchmark: benchReturns } : {}) });
      } catch (e) {
        if (e instanceof InvalidArgumentError && e.argument === "windowMs") continue; // window shorter than 2 bars
        throw e;
      }
      const label = windowLabel(w);
      panels["Sharpe"]![label] = m.columns["sharpe"] as Float64Array;
      panels["volatility"]![label] = m.columns["volatility"] as Float64Array;
      if (benchReturns !== undefined) panels[`beta to ${benchName}`]![label] = m.columns["beta"] as Float64Array;
    }
    if (Object.keys(panels["Sharpe"]!).length > 0) {
      specs.push({ spec: rollingMetricsSpec({ time, panels }, { title: "Rolling Sharpe, volatility and beta (annualised; window in days)", formats: { volatility: ".0%" } }) });
    }
  }
  const cutoff = 0.05;
  specs.push({
    half: true,
    spec: histogramSpec(returns, {
      title: "Distribution of bar returns",
      valueTitle: "return per bar",
      markers: [
        { label: "VaR 5%", value: valueAtRisk(returns) },
        { label: "CVaR 5%", value: conditionalValueAtRisk(returns) },
      ],
    }),
  });
  const yearsShown = Array.from(yearly.columns["year"] as Float64Array, String);
  const yearValues = Array.from(yearly.columns["return"] as Float64Array);
  const benchYearly = benchReturns !== undefined ? Array.from(yearlyReturns(benchReturns, { time }).columns["return"] as Float64Array) : [];
  specs.push({
    half: true,
    spec: barSpec(
      {
        category: [...yearsShown, ...(benchReturns !== undefined ? yearsShown : [])],
        value: [...yearValues, ...benchYearly],
        ...(benchReturns !== undefined ? { group: [...yearsShown.map(() => "strategy"), ...yearsShown.map(() => benchName)] } : {}),
      },
      { title: `Yearly returns${benchReturns !== undefined ? ` vs ${benchName}` : ""}`, format: ".0%", valueTitle: "return", labels: false, width: 380 },
    ),
  });
  if (input.exposure !== undefined) {
    const held = Float64Array.from(input.exposure, (w) => Math.abs(w));
    specs.push({ spec: positionsSpec({ time, series: { held } }, { title: "Exposure over time (|weight held at each close|, fraction of equity)", height: 110 }) });
  } else if (input.positions !== undefined) {
    const target = Float64Array.from(input.positions, (p) => Math.abs(p));
    specs.push({ spec: positionsSpec({ time, series: { target } }, { title: "Target exposure over time (|target position|, fraction of equity)", height: 110 }) });
  }
  const d = drawdowns.columns as Record<string, Float64Array>;
  const tables: TearsheetTable[] = [
    {
      title: `Top ${drawdowns.rows} drawdowns (peak: last bar at the high-water mark; valley: first bar at the low; days: peak to recovery or to the last bar)`,
      table: {
        "#": Float64Array.from({ length: drawdowns.rows }, (_, k) => k + 1),
        peak: Array.from(d["peak"]!, when),
        valley: Array.from(d["valley"]!, when),
        recovery: Array.from(d["recovery"]!, when),
        depth: d["depth"]!,
        days: d["days"]!,
      },
      format: { depth: pct, days: (v) => v.toFixed(1) },
    },
  ];
  const worst = options.worst ?? 10;
  const order = Array.from({ length: n }, (_, i) => i).filter((i) => Number.isFinite(returns[i] as number)).sort((a, b) => (returns[a] as number) - (returns[b] as number) || a - b).slice(0, worst);
  const mm = monthly.columns as Record<string, Float64Array>;
  const months = Array.from({ length: monthly.rows }, (_, i) => i).sort((a, b) => (mm["return"]![a] as number) - (mm["return"]![b] as number) || a - b).slice(0, 5);
  tables.push(
    { title: `Worst ${order.length} bars`, table: { time: order.map((i) => formatUtc(time[i] as number)), return: order.map((i) => returns[i] as number) }, format: { return: pct }, signed: ["return"] },
    { title: `Worst ${months.length} months`, table: { month: months.map((i) => `${mm["year"]![i]}-${MONTHS[(mm["month"]![i] as number) - 1]}`), return: months.map((i) => mm["return"]![i] as number) }, format: { return: pct }, signed: ["return"] },
  );
  return {
    title: options.title,
    ...(options.id !== undefined ? { id: options.id } : {}),
    intro:
      options.intro ??
      `Calendar returns (UTC months), drawdown episodes, rolling metrics, the distribution of bar returns with VaR and CVaR at ${cutoff * 100}% (historical), and exposure.${benchReturns !== undefined ? ` Benchmark: ${benchName}.` : ""}`,
    specs,
    tables,
  };
}
