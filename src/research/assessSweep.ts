import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { nanMoments } from "../metrics/nanMoments.js";
import { sharpeRatio } from "../metrics/sharpeRatio.js";
import { deflatedSharpeRatio } from "./deflatedSharpeRatio.js";
import { effectiveTrials, type EffectiveTrials } from "./effectiveTrials.js";
import { minTrackRecordLength } from "./minTrackRecordLength.js";
import { probabilisticSharpeRatio } from "./probabilisticSharpeRatio.js";
import { probabilityOfBacktestOverfitting } from "./probabilityOfBacktestOverfitting.js";
import { runWalkForward, type WalkForwardResult } from "./runWalkForward.js";
import { sampleRows } from "./sampleRows.js";
import { selectBestVariant } from "./selectBestVariant.js";
import { sharpeStats, type SharpeStats } from "./sharpeStats.js";
import { sourceOf, type SweepBest, type SweepResult } from "./SweepResult.js";
import { StrategyNotPureError } from "../errors/StrategyNotPureError.js";
import type { LookaheadReport } from "./checkLookahead.js";
import { agree } from "./checkPurity.js";
import type { SuperiorPredictiveAbility } from "./superiorPredictiveAbility.js";
import { spaKernel } from "./spaKernel.js";
import { resolveSpaPlan, SPA_OPTION_SPECS, type SpaPlan } from "./spaPlan.js";
import { checkOptions } from "../options/checkOptions.js";
import type { OptionSpec } from "../options/OptionSpec.js";
import { sweepVerdict, type SweepEvidence, type SweepVerdict } from "./sweepVerdict.js";
import { windowSharpe } from "./windowSharpe.js";
import { winnerEvidence } from "./winnerEvidence.js";
import { walkForward, type WalkForwardBarOptions, type WalkForwardTimeOptions } from "./walkForward.js";

/** Options of {@link assessSweep}. */
export interface AssessSweepOptions {
  /** CSCV blocks for the PBO (even, 2..24). Default 16. */
  readonly splits?: number;
  /**
   * Most variants whose return series enter the PBO and the walk-forward (each is T doubles).
   * A larger sweep is thinned to a uniform random sample of `maxVariants` rows, drawn from the
   * row numbers alone (seeded by `seed`), never from performance: the in-sample winner is in
   * it only by chance, as every other row (forcing it in would bias the PBO down and the
   * walk-forward up). The DSR always counts every variant. Default 5,000.
   */
  readonly maxVariants?: number;
  /** Seed of the thinning sample (a 32-bit integer); default 0. The same seed gives the same rows. */
  readonly seed?: number;
  /** Walk-forward windows (walkForward's options without `n`, in bars or, with `time`, in ms); none by default. */
  readonly walkForward?: Omit<WalkForwardBarOptions, "n"> | WalkForwardTimeOptions;
  /**
   * Hansen's SPA: bootstrap resamples (default 499), mean block (default: optimalBlockLength's median) and the most
   * variants it tests (default 1,000: beyond them a seeded sample of the PBO's rows, drawn from row numbers alone, as
   * the thinning is; a valid test of the sampled variants, at some loss of power); seeded by `seed`.
   */
  readonly spa?: { readonly draws?: number; readonly meanBlock?: number; readonly maxVariants?: number };
  /** Variants the lookahead probe runs (the winner and a seeded sample of the rest), for a strategy function's sweep; 0 skips it. Default 4. */
  readonly lookaheadVariants?: number;
}

/** Is the sweep's best variant real? The numbers of {@link assessSweep}. */
export interface SweepAssessment {
  /** The in-sample winner by Sharpe ratio. */
  readonly best: SweepBest;
  /**
   * Variants tried: the whole sweep's variant count (`sweep.total`, every shard included, so a
   * shard's DSR deflates for the whole sweep), or the rows evaluated when the sweep was stopped.
   * The DSR's raw number of trials.
   */
  readonly trials: number;
  /** The winner's per-period return statistics (`sharpePerPeriod`, n, skewness, excess kurtosis). */
  readonly stats: SharpeStats;
  /** Sample variance of the variants' annualised Sharpe ratios (the DSR's V). */
  readonly trialSharpeVariance: number;
  /**
   * Deflated Sharpe ratio of the winner at the raw number of trials (`trials`: every variant tried), and the annualised
   * Sharpe the best of `trials` skill-less variants would reach (SR₀). The verdict reads this DSR; the effective count
   * below is information and never lowers the bar.
   */
  readonly dsr: number;
  readonly expectedMaxSharpe: number;
  /** Probabilistic Sharpe ratio of the winner against 0. */
  readonly psr: number;
  /**
   * Bars needed for the winner's Sharpe to beat SR₀ (`expectedMaxSharpe`, not 0: the deflated
   * track record) at 95 %, Infinity when its Sharpe does not exceed SR₀; and the bars it has.
   * `bars >= minTrackRecordLength` exactly when `dsr >= 0.95`.
   */
  readonly minTrackRecordLength: number;
  readonly bars: number;
  /** PBO of the sweep (over `variantsUsed` of its variants), with the CSCV logits. */
  readonly pbo: number;
  readonly logits: Float64Array;
  /**
   * Information only (never read by the verdict: the count undercounts, since sample correlation noise
   * lowers the rank unless bars far outnumber variants and a strategy and its mirror count as one): the DSR at
   * the effective number of independent trials: `trials` is N_eff = exp(entropy of the correlation
   * eigenvalues) of the variants' returns ({@link effectiveTrials}), measured on `variants` rows (all of
   * them up to 300, else a seeded sample of 300 of `variantsUsed`). A sample stands for the whole sweep
   * when its N_eff is at most a third of its size (every family of near-duplicates is in it); otherwise,
   * or when the sample is not the whole sweep and is not saturated, the raw `trials` is kept
   * (`sampled` says a sample was used). `dsr`, `expectedMaxSharpe` (SR₀, annualised) and
   * `minTrackRecordLength` (against that SR₀) are those at this N.
   */
  readonly effective: {
    readonly trials: number;
    readonly measured: number;
    readonly method: EffectiveTrials["method"];
    readonly variants: number;
    readonly sampled: boolean;
    readonly dsr: number;
    readonly expectedMaxSharpe: number;
    readonly minTrackRecordLength: number;
  };
  /** Hansen's SPA of the variants in `variantsUsed` (up to `spa.maxVariants` of them) against flat, with the Romano–Wolf step-down. */
  readonly spa: SuperiorPredictiveAbility;
  /** Sweep rows that beat flat by the Romano–Wolf step-down at 5 %. */
  readonly beatFlat: readonly number[];
  /** The winner's evidence (round trips, bars, bars held, independent bets = bars held / the SPA's mean block). */
  readonly evidence: SweepEvidence;
  /** The lookahead probe of the winner and a sample of variants (a strategy function's sweep made in this process). */
  readonly lookahead?: LookaheadReport;
  /** The verdict by the one rule, {@link sweepVerdict}, from the numbers above. */
  readonly verdict: SweepVerdict;
  /** Sweep rows whose return series entered the PBO, the SPA and the walk-forward (ascending; all rows, or the thinning sample). */
  readonly variantsUsed: readonly number[];
  /** The walk-forward of "choose the best variant by Sharpe" (annualised Sharpe in and out of sample), when asked for. */
  readonly walkForward?: {
    /** One row per fold: windows, the chosen sweep row (`choice`), its annualised Sharpe in sample and out of sample. */
    readonly folds: WalkForwardResult["folds"];
    /** Annualised Sharpe of the stitched out-of-sample returns. */
    readonly outOfSampleSharpe: number;
    /** The stitched out-of-sample returns (NaN outside the test windows). */
    readonly returns: Float64Array;
  };
}

/**
 * Is the best variant of a sweep an edge or the luck of many trials? The statistics of
 * Bailey & López de Prado applied to a sweep in one call:
 * - the in-sample winner by Sharpe ratio and its per-period stats (sharpeStats of `returnsOf`);
 * - its deflated Sharpe ratio for `trials` = every variant of the sweep and V = the sample
 *   variance of their annualised Sharpe ratios (the sweep's `sharpeRatio` column);
 * - Hansen's SPA p-value of the variants against flat (the verdict's headline test) and the Romano–Wolf
 *   step-down of which variants beat it ({@link superiorPredictiveAbility});
 * - the winner's evidence, the lookahead probe (a strategy function's sweep) and the verdict ({@link sweepVerdict});
 * - for information, the DSR at the effective number of independent trials (correlation eigenvalue entropy);
 * - its probabilistic Sharpe ratio against 0, and the minimum track record length for a Sharpe
 *   above SR₀ (the DSR's bar) at 95 %;
 * - the sweep's probability of backtest overfitting by CSCV over the variants' returns (a
 *   seeded random sample of them beyond `maxVariants`, chosen without looking at performance);
 * - optionally a walk-forward of "choose the best variant by (annualised) Sharpe on the
 *   training window" with the stitched out-of-sample Sharpe.
 * Needs a sweep made in this process (returnsOf), with at least 2 variants with a Sharpe.
 * @throws InvalidArgumentError when no variant has a Sharpe ratio, or on bad options (from the statistics)
 * @throws StrategyNotPureError when returnsOf(best) does not give the Sharpe of the winner's table row (a stateful or random strategy)
 * @example
 * const a = assessSweep(sweep, { walkForward: { time, trainMs: 14 * DAY, testMs: 7 * DAY } });
 * a.dsr; a.pbo; a.walkForward?.outOfSampleSharpe
 */
export function assessSweep(sweep: SweepResult, options: AssessSweepOptions = {}): SweepAssessment {
  const where = "assessSweep";
  const plan = resolveAssessPlan(options, where);
  const best = sweep.best("sharpeRatio");
  if (best === undefined) {
    throw new InvalidArgumentError("sweep", `${where}: no variant of the sweep has a Sharpe ratio (too few bars, or no variant ever traded)`);
  }
  const ppy = sweep.periodsPerYear;
  const sharpes = Array.from(sweep.columns["sharpeRatio"] as Float64Array).filter((s) => Number.isFinite(s));
  const { std } = nanMoments(sharpes, 1);
  const trialSharpeVariance = sharpes.length > 1 ? std * std : 0;
  // returnsOf gives NaN at bar 0 (no return yet): every statistic skips it, and bars stay aligned with time
  const winner = sweep.returnsOf(best.index);
  const again = sharpeRatio(winner, { periodsPerYear: ppy });
  if (!agree(again, best.value)) {
    throw new StrategyNotPureError(
      best.index,
      best.params,
      `${where}: the strategy is not a pure function of its columns and parameters: the winner, variant ${best.index} (${JSON.stringify(best.params)}), has Sharpe ${best.value} in the sweep's table and ${again} when returnsOf reruns it; ` +
        "a strategy must return the same positions for the same input (no state kept between calls, no random numbers, no clock)",
    );
  }
  const stats = sharpeStats(winner);
  const trials = sweep.aborted ? sweep.length : sweep.total;
  const deflated = deflatedSharpeRatio(stats, { trials, trialSharpeVariance, periodsPerYear: ppy });
  const { maxVariants, seed } = plan;
  const used = sampleRows(sweep.length, maxVariants, seed);
  const returns = used.map((i) => sweep.returnsOf(i));
  const effective = effectiveOf(sweep, used, returns, seed, trials, (n) => {
    const d = deflatedSharpeRatio(stats, { trials: n, trialSharpeVariance, periodsPerYear: ppy });
    return { ...d, minTrackRecordLength: minTrackRecordLength(stats, { benchmark: d.expectedMaxSharpe, periodsPerYear: ppy, confidence: 0.95 }).n };
  });
  const pbo = probabilityOfBacktestOverfitting(returns, options.splits !== undefined ? { splits: options.splits } : {});
  const spaRows = sampleRows(used.length, plan.spaMaxVariants, seed); // positions in `used`
  const spa = spaKernel(
    spaRows.map((k) => returns[k] as Float64Array),
    plan.spa,
  );
  const lookahead = probeLookahead(sweep, best.index, plan.lookaheadVariants, seed);
  const evidence = winnerEvidence(winner, (sweep.columns["trades"] as Float64Array | undefined)?.[best.index] ?? Number.NaN, spa.meanBlock);
  let wf: SweepAssessment["walkForward"];
  if (options.walkForward !== undefined) {
    const w = options.walkForward;
    const n = returns[0]?.length ?? 0;
    const folds = walkForward("time" in w ? w : { ...w, n });
    // a fold in which the chosen variant never trades scores 0, as a flat CSCV half does in the PBO
    const metric = windowSharpe(ppy);
    const res = runWalkForward(folds, { ...selectBestVariant(returns, { metric }), metric });
    // choices are positions in `used`: report sweep rows
    const choice = Float64Array.from(res.folds.columns.choice, (c) => (c >= 0 ? (used[c] as number) : c));
    wf = { folds: { rows: res.folds.rows, columns: { ...res.folds.columns, choice } }, outOfSampleSharpe: res.outOfSample, returns: res.returns };
  }
  const verdict = sweepVerdict({
    spa: spa.pValue,
    dsr: deflated.dsr,
    pbo: pbo.pbo,
    ...(wf !== undefined ? { outOfSampleSharpe: wf.outOfSampleSharpe } : {}),
    ...(lookahead !== undefined ? { lookahead: lookahead.lookahead } : {}),
    evidence,
  });
  return {
    best,
    trials,
    stats,
    trialSharpeVariance,
    dsr: deflated.dsr,
    expectedMaxSharpe: deflated.expectedMaxSharpe,
    psr: probabilisticSharpeRatio(stats).psr,
    minTrackRecordLength: minTrackRecordLength(stats, { benchmark: deflated.expectedMaxSharpe, periodsPerYear: ppy, confidence: 0.95 }).n,
    bars: stats.n,
    effective,
    pbo: pbo.pbo,
    logits: pbo.logits,
    variantsUsed: used,
    spa,
    beatFlat: spa.romanoWolf.rejected.map((k) => used[spaRows[k] as number] as number),
    evidence,
    ...(lookahead !== undefined ? { lookahead } : {}),
    verdict,
    ...(wf !== undefined ? { walkForward: wf } : {}),
  };
}

/** The lookahead probe of the winner and a seeded sample of `count` − 1 other rows, when the sweep can run one. */
function probeLookahead(sweep: SweepResult, best: number, count: number, seed: number): LookaheadReport | undefined {
  const probe = sourceOf(sweep)?.lookahead;
  if (probe === undefined || count === 0) return undefined;
  const rows = [...new Set([best, ...sampleRows(sweep.length, count - 1, seed)])].slice(0, count);
  return probe(rows);
}

/** assessSweep's options, checked once where they enter; the statistics below trust them. */
interface AssessPlan {
  readonly maxVariants: number;
  readonly seed: number;
  readonly lookaheadVariants: number;
  readonly spaMaxVariants: number;
  readonly spa: SpaPlan;
}

/** The keys of assessSweep's `spa` option (an unknown one is refused with the nearest of them). */
const ASSESS_SPA_OPTION_SPECS = {
  draws: { unit: "bootstrap resamples", default: "499" },
  meanBlock: SPA_OPTION_SPECS.meanBlock,
  maxVariants: { unit: "variants the SPA tests (a seeded sample of the PBO's rows beyond)", default: "1 000" },
} as const satisfies Record<keyof NonNullable<AssessSweepOptions["spa"]>, OptionSpec>;

/** Check assessSweep's numeric options (and its `spa` object's keys) before any work, into the plan the statistics trust. */
function resolveAssessPlan(options: AssessSweepOptions, where: string): AssessPlan {
  const maxVariants = options.maxVariants ?? 5000;
  if (!Number.isInteger(maxVariants) || maxVariants < 2) {
    throw new InvalidArgumentError("maxVariants", `${where}: maxVariants must be a whole number >= 2, got ${String(maxVariants)}`);
  }
  const lookaheadVariants = options.lookaheadVariants ?? 4;
  if (!Number.isInteger(lookaheadVariants) || lookaheadVariants < 0) {
    throw new InvalidArgumentError("lookaheadVariants", `${where}: lookaheadVariants must be a whole number >= 0, got ${String(lookaheadVariants)}`);
  }
  const spa = checkOptions(options.spa, { where: `${where} (spa)`, specs: ASSESS_SPA_OPTION_SPECS, example: "assessSweep(sweep, { spa: { draws: 999 } })" }) ?? {};
  const spaMaxVariants = spa.maxVariants ?? 1000;
  if (!Number.isInteger(spaMaxVariants) || spaMaxVariants < 1) {
    throw new InvalidArgumentError("spa.maxVariants", `${where}: spa.maxVariants must be a whole number >= 1, got ${String(spaMaxVariants)}`);
  }
  // the seed is checked once, by the SPA's plan (one seed serves the SPA, the PBO's sample and the probe)
  const spaPlan = resolveSpaPlan({ seed: options.seed, draws: spa.draws, meanBlock: spa.meanBlock }, where, 499, "spa.");
  return { maxVariants, seed: spaPlan.seed, lookaheadVariants, spaMaxVariants, spa: spaPlan };
}

/** Variants effectiveTrials reads at most (its cost grows as their cube). */
const EFFECTIVE_MAX_VARIANTS = 300;

/** SweepAssessment.effective: N_eff on all rows or a seeded sample of `used`, and the DSR at that N. */
function effectiveOf(
  sweep: SweepResult,
  used: readonly number[],
  returns: readonly Float64Array[],
  seed: number,
  trials: number,
  deflate: (trials: number) => { dsr: number; expectedMaxSharpe: number; minTrackRecordLength: number },
): SweepAssessment["effective"] {
  const pick = sampleRows(used.length, EFFECTIVE_MAX_VARIANTS, seed);
  const measured = effectiveTrials(pick.map((k) => returns[k] as Float64Array));
  const whole = pick.length === trials && sweep.length === trials;
  const saturated = measured.effective <= pick.length / 3;
  const n = whole || saturated ? Math.min(trials, Math.max(1, Math.round(measured.effective))) : trials;
  return { trials: n, measured: measured.effective, method: measured.method, variants: pick.length, sampled: !whole, ...deflate(n) };
}
