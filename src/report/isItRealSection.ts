import type { SweepAssessment } from "../research/assessSweep.js";
import { sweepVerdict, type SweepEvidence, type SweepVerdict } from "../research/sweepVerdict.js";
import { pboLogitChart } from "./pboLogitChart.js";
import type { MetricTile, TearsheetSection } from "./renderTearsheet.js";
import { sweepHeatmap, type SweepTable } from "./sweepHeatmap.js";
import { thresholdChart } from "./thresholdChart.js";
import { walkForwardChart, type WalkForwardChartInput } from "./walkForwardChart.js";

/** The statistics of {@link isItRealSection}: plain numbers, computed by src/research (assessSweep gives them all). */
export interface IsItRealInput {
  /** Variants tried (the sweep's size): the raw number of trials the DSR deflates for. */
  readonly trials: number;
  /**
   * The effective number of independent trials (assessSweep's `effective.trials`, by correlation eigenvalue entropy),
   * shown for information: it undercounts, so it never lowers the bar.
   */
  readonly effectiveTrials?: number;
  /** Annualised Sharpe ratio of the in-sample winner. */
  readonly inSampleSharpe: number;
  /** Hansen's SPA p-value of the variants against flat (superiorPredictiveAbility's `pValue`): the headline test when given. */
  readonly spa?: number;
  /** Variants the SPA tested, its mean block in bars, and how many beat flat by the Romano–Wolf step-down at 5 %. */
  readonly spaVariants?: number;
  readonly spaMeanBlock?: number;
  readonly beatFlat?: number;
  /** Deflated Sharpe ratio of the winner at the raw number of trials (deflatedSharpeRatio's `dsr`, a probability). */
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
  /** The winner's evidence (round trips, bars, bars held, independent bets): the verdict's guards read it. */
  readonly evidence?: SweepEvidence;
  /** The first lookahead the probe saw (checkLookahead's finding), when it saw one. */
  readonly lookahead?: { readonly firstBar: number; readonly time?: number; readonly params: Readonly<Record<string, unknown>> };
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
 * in-sample Sharpe, the SPA p-value and the Romano–Wolf count, DSR and SR₀ at the raw trial count, PSR, PBO,
 * MinTRL against SR₀, bars, the winner's evidence, the lookahead probe's first finding and, with a walk-forward,
 * its out-of-sample Sharpe): what isItRealVerdict and isItRealSection read.
 * @example isItRealVerdict(isItRealInput(assessSweep(sweep, { walkForward })))
 */
export function isItRealInput(a: SweepAssessment): IsItRealInput {
  const finding = a.lookahead?.findings[0];
  return {
    trials: a.trials,
    ...(a.effective.trials !== a.trials ? { effectiveTrials: a.effective.trials } : {}),
    inSampleSharpe: a.best.value,
    spa: a.spa.pValue,
    spaVariants: a.spa.variants,
    spaMeanBlock: a.spa.meanBlock,
    beatFlat: a.beatFlat.length,
    dsr: a.dsr,
    expectedMaxSharpe: a.expectedMaxSharpe,
    psr: a.psr,
    pbo: a.pbo,
    minTrackRecordLength: a.minTrackRecordLength,
    bars: a.bars,
    evidence: a.evidence,
    ...(finding !== undefined ? { lookahead: { firstBar: finding.firstBar, ...(finding.time !== undefined ? { time: finding.time } : {}), params: finding.params } } : {}),
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
const pv = (x: number): string => (x < 0.001 ? x.toFixed(4) : x.toFixed(3));

/** What each evidence number is, in words, for "too little evidence". */
const EVIDENCE_WORDS: Record<keyof SweepEvidence, (v: number) => string> = {
  trades: (v) => `the winner made ${v} round trip${v === 1 ? "" : "s"}`,
  bars: (v) => `the sweep has ${v} bars`,
  barsHeld: (v) => `the winner held a position on ${v} bars`,
  independentBets: (v) => `the winner's bars held make about ${Math.floor(v)} independent bets`,
};

/** The verdict input of one IsItRealInput: what sweepVerdict reads. */
function verdictOf(s: IsItRealInput): SweepVerdict {
  return sweepVerdict({
    ...(s.spa !== undefined ? { spa: s.spa } : {}),
    dsr: s.dsr,
    pbo: s.pbo,
    ...(s.outOfSampleSharpe !== undefined ? { outOfSampleSharpe: s.outOfSampleSharpe } : {}),
    ...(s.lookahead !== undefined ? { lookahead: true } : {}),
    ...(s.evidence !== undefined ? { evidence: s.evidence } : {}),
  });
}

/**
 * The verdict sentences of the "Is it real?" section, from the numbers alone, by one rule
 * ({@link sweepVerdict}): first the verdict ("lookahead", "too little evidence", "an edge", "not proven" or
 * "no evidence of an edge"), naming the test that decided it and the numbers it read; then one sentence per
 * statistic: the SPA p-value and how many variants beat flat (Romano–Wolf), the DSR at the raw trial count
 * (the PSR beside it always with the trades and bars it rests on), the PBO by the literature's thresholds,
 * the observed bars against the minimum track record for a Sharpe above SR₀ (bars ≥ MinTRL(SR₀) exactly when
 * DSR ≥ 95 %; when MinTRL is infinite no track record of this kind would settle it), and the out-of-sample Sharpe.
 * The CLI and the notebook text form print these same sentences.
 * @example isItRealVerdict({ trials: 3003, inSampleSharpe: 2.1, spa: 0.41, dsr: 0.41, expectedMaxSharpe: 2.6, psr: 0.97, pbo: 0.62, minTrackRecordLength: Infinity, bars: 720 })[0] // "Verdict: no evidence of an edge: Hansen's SPA does not reject ... so the best of this many variants is what luck alone would often produce."
 */
export function isItRealVerdict(s: IsItRealInput): string[] {
  const v = verdictOf(s);
  const n = `${s.trials} trials`;
  const spaTest =
    v.superior === undefined ? undefined : v.superior ? `Hansen's SPA rejects that no variant beats flat (p = ${pv(s.spa as number)} < 0.05)` : `Hansen's SPA does not reject that no variant beats flat (p = ${pv(s.spa as number)} >= 0.05)`;
  const dsrTest = v.deflated ? `the winner's Sharpe survives deflation for ${n} (DSR ${pct(s.dsr)} >= 95%)` : `the winner's Sharpe does not survive deflation for ${n} (DSR ${pct(s.dsr)} < 95%)`;
  const pboTest =
    v.selection === "holds" ? `the selection holds out of sample (PBO ${pct(s.pbo)} <= 5%)` : v.selection === "overfit" ? `the selection is overfit (PBO ${pct(s.pbo)} >= 50%)` : undefined;
  const oosTest =
    v.outOfSampleHolds === undefined ? undefined : v.outOfSampleHolds ? `the walk-forward earns out of sample (Sharpe ${num(s.outOfSampleSharpe as number)} > 0)` : `the walk-forward loses out of sample (Sharpe ${num(s.outOfSampleSharpe as number)} <= 0)`;
  const tests = [
    ...(spaTest !== undefined ? [{ text: spaTest, pass: v.superior as boolean }] : []),
    { text: dsrTest, pass: v.deflated },
    ...(pboTest !== undefined ? [{ text: pboTest, pass: v.selection === "holds" }] : []),
    ...(oosTest !== undefined ? [{ text: oosTest, pass: v.outOfSampleHolds as boolean }] : []),
  ];
  const list = (xs: string[]): string => (xs.length <= 1 ? (xs[0] ?? "") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`);
  const passed = list(tests.filter((t) => t.pass).map((t) => t.text));
  const failed = list(tests.filter((t) => !t.pass).map((t) => t.text));
  const settle =
    s.minTrackRecordLength === Infinity
      ? "; no track record of this kind would settle it (the winner's Sharpe does not exceed SR₀)"
      : Number.isFinite(s.minTrackRecordLength) && s.bars < s.minTrackRecordLength
        ? `; a track record of about ${Math.ceil(s.minTrackRecordLength)} bars (${s.bars} here) would settle it`
        : "";
  const e = s.evidence;
  const backing = e !== undefined ? ` over ${e.trades} round trip${e.trades === 1 ? "" : "s"} and ${e.bars} bars` : ` over ${s.bars} bars`;
  const out: string[] = [];
  switch (v.verdict) {
    case "lookahead": {
      const l = s.lookahead as NonNullable<IsItRealInput["lookahead"]>;
      out.push(
        `Verdict: lookahead: the strategy's position at bar ${l.firstBar}${l.time !== undefined ? ` (${new Date(l.time).toISOString()})` : ""} changed when later bars were added (parameters ${JSON.stringify(l.params)}), so it used data it could not have had; no statistic here means anything until it is fixed (checkLookahead).`,
      );
      break;
    }
    case "too little evidence":
      out.push(
        `Verdict: too little evidence: ${list(v.short.map((x) => `${EVIDENCE_WORDS[x.name](x.value)} (at least ${x.minimum} needed)`))}; no test can tell an edge from luck on so little, whatever its p-value or PSR.`,
      );
      break;
    case "edge":
      out.push(`Verdict: an edge, decided by ${v.decidedBy === "spa" ? "Hansen's SPA" : "the DSR"}: ${passed}${failed !== "" ? `; not decisive here: ${failed}` : ""}.`);
      break;
    case "unproven":
      out.push(
        v.decidedBy === "walk-forward"
          ? `Verdict: not proven: ${passed}, but ${failed}, and the walk-forward decides against it.`
          : `Verdict: not proven: ${passed}, but ${failed}${settle}.`,
      );
      break;
    case "luck":
      out.push(`Verdict: no evidence of an edge: ${failed}, so the best of this many variants is what luck alone would often produce.`);
      break;
  }
  if (s.spa !== undefined && Number.isFinite(s.spa)) {
    out.push(
      `SPA p = ${pv(s.spa)}: how often the best of ${s.spaVariants ?? "the"} variants would look this good if none beat flat (Hansen 2005, studentised, stationary bootstrap${s.spaMeanBlock !== undefined && Number.isFinite(s.spaMeanBlock) ? ` with mean block ${s.spaMeanBlock.toFixed(1)} bars` : ""})${s.beatFlat !== undefined ? `; ${s.beatFlat} variant${s.beatFlat === 1 ? "" : "s"} beat flat by the Romano–Wolf step-down at 5%` : ""}.`,
    );
  }
  out.push(
    `DSR ${pct(s.dsr)}: the probability that the winner's true Sharpe is above 0 after deflating for ${n}${s.effectiveTrials !== undefined ? ` (the variants' correlation suggests about ${s.effectiveTrials} independent ones; shown for information, it never lowers the bar)` : ""}, whose best would reach a Sharpe of ${num(s.expectedMaxSharpe)} (SR₀) by luck alone; before deflation, PSR ${pct(s.psr)}${backing}.`,
  );
  if (Number.isFinite(s.pbo)) {
    out.push(
      v.selection === "overfit"
        ? `PBO ${pct(s.pbo)}: the in-sample winner ranks at or below the median out of sample in ${pct(s.pbo)} of the splits — selecting by in-sample Sharpe is overfitting here.`
        : v.selection === "holds"
          ? `PBO ${pct(s.pbo)}: the in-sample winner stays in the better half out of sample in nearly every split (at most 5% of them overfit).`
          : `PBO ${pct(s.pbo)}: inconclusive — between 5% and 50%, where pure noise often lands too (about 20–90%); it neither shows nor rules out overfitting.`,
    );
  }
  if (s.minTrackRecordLength === Infinity) {
    out.push(`The winner's Sharpe (${num(s.inSampleSharpe)}) does not exceed SR₀ = ${num(s.expectedMaxSharpe)}, so no track record of this kind, however long, would show a Sharpe above SR₀ at 95%.`);
  } else if (Number.isFinite(s.minTrackRecordLength)) {
    out.push(
      `A Sharpe above SR₀ = ${num(s.expectedMaxSharpe)} (not 0: the best of ${s.trials} trials) at 95% needs ${Math.ceil(s.minTrackRecordLength)} bars; the ${s.bars} observed ${s.bars >= s.minTrackRecordLength ? "are enough" : "fall short"}.`,
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
    ...(input.spa !== undefined ? [{ label: "SPA p-value (vs flat)", value: input.spa, format: "number" as const }] : []),
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
    intro: `${isItRealVerdict(input).join(" ")} The SPA tests whether any of the variants beats flat, allowing for how many were tried and how alike they are; DSR deflates the winner's Sharpe for the number of variants tried and the spread of their Sharpe ratios; PBO is the share of combinatorial splits in which the in-sample winner lands in the bottom half out of sample; the minimum track record is judged against SR₀, the Sharpe the best of that many skill-less variants would reach.`,
    metrics,
    charts,
  };
}
