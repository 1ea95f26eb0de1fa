import type { SignalTearsheet } from "../metrics/signalTearsheet.js";
import { barSpec } from "./barChart.js";
import { equitySpec } from "./equityChart.js";
import { histogramSpec } from "./histogramChart.js";
import { qqSpec } from "./qqChart.js";
import type { MetricTile, TearsheetSection } from "./renderTearsheet.js";
import { rollingIcSpec } from "./rollingIcChart.js";

/** Options of {@link signalTearsheetSection}. */
export interface SignalTearsheetSectionOptions {
  readonly title: string;
  readonly id?: string;
  readonly intro?: string;
  /** Length of one bar as text for labels, e.g. "4h" ["bar"]. */
  readonly barLabel?: string;
}

const pct = (v: number): string => (Number.isFinite(v) ? `${(v * 100).toFixed(3)}%` : "–");
const f3 = (v: number): string => (Number.isFinite(v) ? v.toFixed(3) : "–");

/**
 * A tearsheet section for a signal (alphalens for one time series), from
 * `signalTearsheet`: tiles (IC with its interval, top-minus-bottom spread and
 * its t-statistic, lag-1 autocorrelation), the IC per window with intervals,
 * the IC histogram and normal QQ plot, mean forward return by quantile,
 * cumulative return by quantile, and tables of quantiles, turnover and
 * autocorrelation. Charts are vega-lite specs rendered by `renderTearsheet`.
 * @example
 * const ts = signalTearsheet(replay.composite, close, { time, horizon: 6 });
 * await writeReport("out/signal.html", { title: "Composite", sections: [signalTearsheetSection(ts, { title: "Composite: BTC" })] });
 */
export function signalTearsheetSection(ts: SignalTearsheet, options: SignalTearsheetSectionOptions): TearsheetSection {
  const bar = options.barLabel ?? "bar";
  const h = ts.horizon;
  const horizon = `${h} ${bar}${h === 1 ? "" : "s"}`;
  const q = ts.quantiles.columns as Record<string, Float64Array>;
  const ac = ts.autocorrelation.columns as Record<string, Float64Array>;
  const ric = ts.rollingIc.columns as Record<string, Float64Array>;
  const ics = ric["ic"]!;
  let sum = 0;
  let count = 0;
  for (const v of ics) if (Number.isFinite(v)) (sum += v, count++);
  const tiles: MetricTile[] = [
    { label: `IC (${horizon})`, value: ts.ic.ic, signed: true },
    { label: "IC 95% low", value: ts.ic.ciLow, signed: true },
    { label: "IC 95% high", value: ts.ic.ciHigh, signed: true },
    { label: "Mean window IC", value: count > 0 ? sum / count : Number.NaN, signed: true },
    { label: "Top − bottom", value: ts.spread.spread, format: "percent", signed: true },
    { label: "Spread t-stat", value: ts.spread.tStat, signed: true },
    { label: "Autocorr (lag 1)", value: ac["autocorrelation"]![0] ?? Number.NaN },
  ];
  const buckets = Array.from(q["bucket"]!, (b) => `Q${b}`);
  const turnover = ts.turnover.columns as Record<string, Float64Array>;
  return {
    title: options.title,
    ...(options.id !== undefined ? { id: options.id } : {}),
    intro:
      options.intro ??
      `Does the signal rank the next ${horizon}? Spearman IC (interval overlap-corrected), IC per non-overlapping window with its 95% interval, its histogram and normal QQ plot, forward returns by signal quantile (quantiles of the whole sample: a description, not a tradeable rule) with the top-minus-bottom spread and Welch t-statistic, holding the coin only while the signal is in each quantile, quantile turnover and the signal's rank autocorrelation.`,
    metrics: tiles,
    specs: [
      { spec: rollingIcSpec(ric as never, { title: `IC per window (${horizon} forward; bars: 95% interval; dashed: mean)` }) },
      { half: true, spec: histogramSpec(ics, { title: "IC histogram (one IC per window)", valueTitle: "IC", format: ".2f", maxBins: 30, markers: [{ label: "mean", value: count > 0 ? sum / count : Number.NaN }] }) },
      { half: true, spec: qqSpec(ics, { title: "IC normal QQ plot", valueTitle: "IC" }) },
      { half: true, spec: barSpec({ category: buckets, value: q["meanForwardReturn"]! }, { title: `Mean ${horizon} forward return by signal quantile`, format: ".3%", valueTitle: "mean forward return", width: 380 }) },
      { half: true, spec: equitySpec(ts.cumulative, { title: "Holding the coin one bar while the signal is in each quantile (no costs)", logScale: true, yTitle: "growth of 1", width: 380 }) },
    ],
    tables: [
      {
        title: `By signal quantile (${horizon} forward)`,
        table: {
          quantile: buckets,
          bars: q["count"]!,
          "min signal": q["minSignal"]!,
          "max signal": q["maxSignal"]!,
          "mean forward": q["meanForwardReturn"]!,
          "hit rate": q["hitRate"]!,
          turnover: Array.from(q["bucket"]!, (b) => turnover["turnover"]![Array.from(turnover["bucket"]!).indexOf(b)] ?? Number.NaN),
        },
        signed: ["mean forward"],
        format: { "min signal": f3, "max signal": f3, "mean forward": pct, "hit rate": (v) => pct(v).replace(/(\.\d)\d\d%/, "$1%"), turnover: (v) => (Number.isFinite(v) ? `${(v * 100).toFixed(1)}%` : "–") },
      },
      {
        title: "Signal rank autocorrelation",
        table: { "lag (bars)": ac["lag"]!, autocorrelation: ac["autocorrelation"]! },
        format: { autocorrelation: f3 },
      },
    ],
  };
}
