import { pboLogitChart } from "./pboLogitChart.js";
import type { MetricTile, TearsheetSection } from "./renderTearsheet.js";
import { sweepHeatmap, type SweepTable } from "./sweepHeatmap.js";
import { thresholdChart } from "./thresholdChart.js";
import { walkForwardChart, type WalkForwardChartInput } from "./walkForwardChart.js";

/** The statistics of {@link isItRealSection}: plain numbers, computed by src/research. */
export interface IsItRealInput {
  /** Variants tried (the sweep's size): the number of trials the DSR deflates for. */
  readonly trials: number;
  /** Annualised Sharpe ratio of the in-sample winner. */
  readonly inSampleSharpe: number;
  /** Deflated Sharpe ratio of the winner (deflatedSharpeRatio's `dsr`, a probability). */
  readonly dsr: number;
  /** Probabilistic Sharpe ratio of the winner against 0 (probabilisticSharpeRatio's `psr`). */
  readonly psr: number;
  /** Probability of backtest overfitting of the sweep (CSCV). */
  readonly pbo: number;
  /** Bars needed for the winner's Sharpe to be > 0 at 95 % (minTrackRecordLength's `n`), and the bars observed. */
  readonly minTrackRecordLength: number;
  readonly bars: number;
  /** Annualised Sharpe of the stitched walk-forward returns of "choose the best variant" (omit without a walk-forward). */
  readonly outOfSampleSharpe?: number;
  /** The walk-forward's folds, in sample vs out of sample (drawn when given). */
  readonly folds?: WalkForwardChartInput;
  /** The PBO's logits (drawn as a histogram when given). */
  readonly logits?: ArrayLike<number>;
  /** The sweep, with the two components of its heatmap (drawn when given); the metric vs threshold is drawn too. */
  readonly sweep?: SweepTable;
  /** Components on the heatmap's axes, and optionally its cell size (`bucket`: weights rounded to it, see sweepHeatmap). */
  readonly heatmap?: { readonly x: string; readonly y: string; readonly bucket?: number };
}

/** Options of {@link isItRealSection}. */
export interface IsItRealOptions {
  /** Section title ["Is it real?"]. */
  readonly title?: string;
  /** Anchor id ["is-it-real"]. */
  readonly id?: string;
}

const pct = (x: number): string => (Number.isFinite(x) ? `${(x * 100).toFixed(0)}%` : "–");

/**
 * The verdict sentences of the "Is it real?" section, from the numbers alone: the DSR against
 * 95 %, the PBO against 50 %, the observed bars against the minimum track record, and the
 * out-of-sample Sharpe against 0 and against the in-sample one.
 * @example isItRealVerdict({ trials: 3003, inSampleSharpe: 2.1, dsr: 0.41, psr: 0.97, pbo: 0.62, minTrackRecordLength: 900, bars: 720 })[0]
 */
export function isItRealVerdict(s: IsItRealInput): string[] {
  const out: string[] = [];
  out.push(
    s.dsr >= 0.95
      ? `The winner's Sharpe survives deflation for ${s.trials} trials (DSR ${pct(s.dsr)} >= 95%).`
      : `The winner's Sharpe does not survive deflation for ${s.trials} trials: DSR ${pct(s.dsr)} < 95% (before deflation, PSR ${pct(s.psr)}), so the best of this many variants is what luck alone would often produce.`,
  );
  if (Number.isFinite(s.pbo)) {
    out.push(
      s.pbo > 0.5
        ? `PBO ${pct(s.pbo)}: more often than not, the in-sample winner ranks below the median out of sample — selecting by in-sample Sharpe is overfitting here.`
        : `PBO ${pct(s.pbo)}: the in-sample winner usually stays in the better half out of sample.`,
    );
  }
  if (Number.isFinite(s.minTrackRecordLength)) {
    out.push(
      s.bars >= s.minTrackRecordLength
        ? `The ${s.bars} bars observed exceed the minimum track record (${Math.ceil(s.minTrackRecordLength)} bars) for a Sharpe above 0 at 95%.`
        : `The ${s.bars} bars observed fall short of the minimum track record (${Number.isFinite(s.minTrackRecordLength) ? Math.ceil(s.minTrackRecordLength) : "–"} bars) for a Sharpe above 0 at 95%.`,
    );
  }
  const oos = s.outOfSampleSharpe;
  if (oos !== undefined && Number.isFinite(oos)) {
    out.push(
      `Walk-forward, choosing the best variant on each training window: out-of-sample Sharpe ${oos.toFixed(2)} against ${s.inSampleSharpe.toFixed(2)} in sample${oos <= 0 ? " — the edge does not carry out of sample" : oos < s.inSampleSharpe / 2 ? " — most of the in-sample edge is gone out of sample" : ""}.`,
    );
  }
  return out;
}

/**
 * The "Is it real?" tearsheet section: is the best variant of a sweep an edge or the luck of
 * many trials? Tiles for the winner's in-sample Sharpe, its deflated (DSR) and probabilistic
 * (PSR) Sharpe ratios, the sweep's probability of backtest overfitting (PBO), the minimum
 * track record length and the walk-forward's out-of-sample Sharpe; the verdict in words; and
 * the charts of the evidence given (heatmap, metric vs threshold, walk-forward folds, PBO logits).
 * References: Bailey & López de Prado, "The Sharpe ratio efficient frontier" (2012, PSR and
 * MinTRL), "The deflated Sharpe ratio" (2014), Bailey, Borwein, López de Prado & Zhu, "The
 * probability of backtest overfitting" (2015).
 * @example
 * const section = await isItRealSection({ trials: r.length, inSampleSharpe, dsr, psr, pbo, minTrackRecordLength, bars, logits, sweep: r, heatmap: { x: "imbalance", y: "momentum_5m" } });
 * await writeReport("out/real.html", { title: "Is the composite real?", sections: [section] });
 */
export async function isItRealSection(input: IsItRealInput, options: IsItRealOptions = {}): Promise<TearsheetSection> {
  const metrics: MetricTile[] = [
    { label: `best in-sample Sharpe (of ${input.trials})`, value: input.inSampleSharpe, format: "number", signed: true },
    { label: "deflated Sharpe (DSR)", value: input.dsr, format: "percent" },
    { label: "probabilistic Sharpe (PSR)", value: input.psr, format: "percent" },
    { label: "overfitting probability (PBO)", value: input.pbo, format: "percent" },
    { label: "min. track record (bars)", value: Math.ceil(input.minTrackRecordLength), format: "integer" },
    ...(input.outOfSampleSharpe !== undefined ? [{ label: "out-of-sample Sharpe", value: input.outOfSampleSharpe, format: "number" as const, signed: true }] : []),
  ];
  const charts: { title?: string; svg: string }[] = [];
  if (input.sweep !== undefined && input.heatmap !== undefined) charts.push({ svg: await sweepHeatmap(input.sweep, { x: input.heatmap.x, y: input.heatmap.y, ...(input.heatmap.bucket !== undefined ? { bucket: input.heatmap.bucket } : {}) }) });
  if (input.sweep !== undefined) charts.push({ svg: await thresholdChart(input.sweep) });
  if (input.folds !== undefined) charts.push({ svg: await walkForwardChart(input.folds) });
  if (input.logits !== undefined) charts.push({ svg: await pboLogitChart(input.logits, { pbo: input.pbo }) });
  return {
    title: options.title ?? "Is it real?",
    id: options.id ?? "is-it-real",
    intro: `${isItRealVerdict(input).join(" ")} DSR deflates the winner's Sharpe for the number of variants tried and the spread of their Sharpe ratios; PBO is the share of combinatorial splits in which the in-sample winner lands in the bottom half out of sample.`,
    metrics,
    charts,
  };
}
