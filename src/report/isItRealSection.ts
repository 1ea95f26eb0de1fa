import type { SweepAssessment } from "../research/assessSweep.js";
import { sweepVerdict } from "../research/sweepVerdict.js";
import { pboLogitChart } from "./pboLogitChart.js";
import type { MetricTile, TearsheetSection } from "./renderTearsheet.js";
import { sweepHeatmap, type SweepTable } from "./sweepHeatmap.js";
import { thresholdChart } from "./thresholdChart.js";
import { walkForwardChart, type WalkForwardChartInput } from "./walkForwardChart.js";

/** The statistics of {@link isItRealSection}: plain numbers, computed by src/research (assessSweep gives them all). */
export interface IsItRealInput {
  /** Variants tried (the sweep's size): the raw number of trials. */
  readonly trials: number;
  /**
   * The effective number of independent trials the DSR, SR₀ and MinTRL below deflate for, when it is not
   * `trials` (assessSweep's `effective.trials`, by correlation eigenvalue entropy).
   */
  readonly effectiveTrials?: number;
  /** Annualised Sharpe ratio of the in-sample winner. */
  readonly inSampleSharpe: number;
  /** Deflated Sharpe ratio of the winner (deflatedSharpeRatio's `dsr`, a probability). */
  readonly dsr: number;
  /** SR₀, the annualised Sharpe the best of `trials` skill-less variants would reach (deflatedSharpeRatio's `expectedMaxSharpe`). */
  readonly expectedMaxSharpe: number;
  /** Probabilistic Sharpe ratio of the winner against 0 (probabilisticSharpeRatio's `psr`). */
  readonly psr: number;
  /** Probability of backtest overfitting of the sweep (CSCV). */
  readonly pbo: number;
  /**
   * Bars needed for the winner's Sharpe to beat SR₀ at 95 % (minTrackRecordLength with benchmark
   * `expectedMaxSharpe`, the deflated track record; Infinity when the winner's Sharpe does not exceed SR₀),
   * and the bars observed.
   */
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

/**
 * The numbers of an {@link assessSweep} result as an {@link IsItRealInput} (trials, the winner's
 * in-sample Sharpe, DSR and SR₀, PSR, PBO, MinTRL against SR₀, bars and, with a walk-forward, its
 * out-of-sample Sharpe): what isItRealVerdict and isItRealSection read. The DSR, SR₀ and MinTRL are
 * those at the effective number of trials (`assessment.effective`).
 * @example isItRealVerdict(isItRealInput(assessSweep(sweep, { walkForward })))
 */
export function isItRealInput(a: SweepAssessment): IsItRealInput {
  return {
    trials: a.trials,
    ...(a.effective.trials !== a.trials ? { effectiveTrials: a.effective.trials } : {}),
    inSampleSharpe: a.best.value,
    dsr: a.effective.dsr,
    expectedMaxSharpe: a.effective.expectedMaxSharpe,
    psr: a.psr,
    pbo: a.pbo,
    minTrackRecordLength: a.effective.minTrackRecordLength,
    bars: a.bars,
    ...(a.walkForward !== undefined ? { outOfSampleSharpe: a.walkForward.outOfSampleSharpe } : {}),
  };
}

/** Options of {@link isItRealSection}. */
export interface IsItRealOptions {
  /** Section title ["Is it real?"]. */
  readonly title?: string;
  /** Anchor id ["is-it-real"]. */
  readonly id?: string;
}

const pct = (x: number): string => (Number.isFinite(x) ? `${(x * 100).toFixed(0)}%` : "–");
const num = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : "–");

/**
 * The verdict sentences of the "Is it real?" section, from the numbers alone, by one rule
 * ({@link sweepVerdict}): first the verdict ("an edge", "not proven" or "no evidence of an edge"),
 * naming the tests that pass and fail, then one sentence per statistic: the DSR against 95 %, the PBO
 * against 50 %, the observed bars against the minimum track record for a Sharpe above SR₀ (the deflated
 * bar, so it agrees with the DSR: bars ≥ MinTRL(SR₀) exactly when DSR ≥ 95 %), and the out-of-sample
 * Sharpe against 0 and against the in-sample one. "What luck alone would often produce" is said only when
 * no test contradicts it.
 * @example isItRealVerdict({ trials: 3003, inSampleSharpe: 2.1, dsr: 0.41, expectedMaxSharpe: 2.6, psr: 0.97, pbo: 0.62, minTrackRecordLength: Infinity, bars: 720 })[0] // "Verdict: no evidence of an edge: the winner's Sharpe does not survive deflation for 3003 trials (DSR 41% < 95%) and the selection does not hold out of sample (PBO 62% >= 50%), so ..."
 */
export function isItRealVerdict(s: IsItRealInput): string[] {
  const v = sweepVerdict(s);
  const n = s.effectiveTrials !== undefined ? `${s.effectiveTrials} effective trials (of ${s.trials} tried)` : `${s.trials} trials`;
  const dsrTest = v.deflated
    ? `the winner's Sharpe survives deflation for ${n} (DSR ${pct(s.dsr)} >= 95%)`
    : `the winner's Sharpe does not survive deflation for ${n} (DSR ${pct(s.dsr)} < 95%)`;
  const pboTest = v.selectionHolds === undefined ? undefined : v.selectionHolds ? `the selection holds out of sample (PBO ${pct(s.pbo)} < 50%)` : `the selection does not hold out of sample (PBO ${pct(s.pbo)} >= 50%)`;
  const oosTest =
    v.outOfSampleHolds === undefined ? undefined : v.outOfSampleHolds ? `the walk-forward earns out of sample (Sharpe ${num(s.outOfSampleSharpe as number)} > 0)` : `the walk-forward loses out of sample (Sharpe ${num(s.outOfSampleSharpe as number)} <= 0)`;
  const tests = [
    { text: dsrTest, pass: v.deflated },
    ...(pboTest !== undefined ? [{ text: pboTest, pass: v.selectionHolds as boolean }] : []),
    ...(oosTest !== undefined ? [{ text: oosTest, pass: v.outOfSampleHolds as boolean }] : []),
  ];
  const list = (xs: string[]): string => (xs.length <= 1 ? (xs[0] ?? "") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`);
  const passed = list(tests.filter((t) => t.pass).map((t) => t.text));
  const failed = list(tests.filter((t) => !t.pass).map((t) => t.text));
  const out: string[] = [
    v.verdict === "edge"
      ? `Verdict: an edge by every test here: ${passed}.`
      : v.verdict === "luck"
        ? `Verdict: no evidence of an edge: ${failed}, so the best of this many variants is what luck alone would often produce.`
        : `Verdict: not proven: ${passed}, but ${failed}${v.deflated ? "." : "; a longer track record would settle it."}`,
  ];
  out.push(
    `DSR ${pct(s.dsr)}: the probability that the winner's true Sharpe is above 0 after deflating for ${n}${s.effectiveTrials !== undefined ? " (correlation eigenvalue entropy: near-identical variants count as one)" : ""}, whose best would reach a Sharpe of ${num(s.expectedMaxSharpe)} (SR₀) by luck alone; before deflation, PSR ${pct(s.psr)}.`,
  );
  if (Number.isFinite(s.pbo)) {
    out.push(
      v.selectionHolds === false
        ? `PBO ${pct(s.pbo)}: the in-sample winner ranks at or below the median out of sample in ${pct(s.pbo)} of the splits — selecting by in-sample Sharpe is overfitting here.`
        : `PBO ${pct(s.pbo)}: the in-sample winner usually stays in the better half out of sample.`,
    );
  }
  if (s.minTrackRecordLength === Infinity) {
    out.push(`The winner's Sharpe (${num(s.inSampleSharpe)}) does not exceed SR₀ = ${num(s.expectedMaxSharpe)}, so no track record is long enough for a Sharpe above SR₀ at 95%.`);
  } else if (Number.isFinite(s.minTrackRecordLength)) {
    out.push(
      `A Sharpe above SR₀ = ${num(s.expectedMaxSharpe)} (not 0: the best of ${s.effectiveTrials ?? s.trials} trials) at 95% needs ${Math.ceil(s.minTrackRecordLength)} bars; the ${s.bars} observed ${s.bars >= s.minTrackRecordLength ? "are enough" : "fall short"}.`,
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
 * const section = await isItRealSection({ trials: r.length, inSampleSharpe, dsr, expectedMaxSharpe, psr, pbo, minTrackRecordLength, bars, logits, sweep: r, heatmap: { x: "imbalance", y: "momentum_5m" } });
 * await writeReport("out/real.html", { title: "Is the composite real?", sections: [section] });
 */
export async function isItRealSection(input: IsItRealInput, options: IsItRealOptions = {}): Promise<TearsheetSection> {
  const metrics: MetricTile[] = [
    { label: `best in-sample Sharpe (of ${input.trials})`, value: input.inSampleSharpe, format: "number", signed: true },
    { label: "deflated Sharpe (DSR)", value: input.dsr, format: "percent" },
    { label: "probabilistic Sharpe (PSR)", value: input.psr, format: "percent" },
    { label: "overfitting probability (PBO)", value: input.pbo, format: "percent" },
    { label: "min. track record vs SR₀ (bars)", value: Math.ceil(input.minTrackRecordLength), format: "integer" },
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
    intro: `${isItRealVerdict(input).join(" ")} DSR deflates the winner's Sharpe for the number of variants tried and the spread of their Sharpe ratios; PBO is the share of combinatorial splits in which the in-sample winner lands in the bottom half out of sample; the minimum track record is judged against SR₀, the Sharpe the best of that many skill-less variants would reach.`,
    metrics,
    charts,
  };
}
