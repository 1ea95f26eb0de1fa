import { fundingPerBar } from "../../backtest/fundingPerBar.js";
import type { Coin } from "../../domain/coins.js";
import { sharpeRatio } from "../../metrics/sharpeRatio.js";
import { assessSweep, type SweepAssessment } from "../../research/assessSweep.js";
import { probabilisticSharpeRatio } from "../../research/probabilisticSharpeRatio.js";
import { simplexGrid } from "../../research/simplexGrid.js";
import { sweepComposite } from "../../research/sweepComposite.js";
import type { SweepResult } from "../../research/SweepResult.js";
import { COMPONENT_NAMES, DEFAULT_WEIGHTS, type Weights } from "../../signals/weights.js";
import type { StudyData } from "./loadStudyData.js";
import type { Study, StudyOptions } from "./runStudy.js";
import { coinBars, studyGrid } from "./studyBars.js";

/** The what-if sweep: the weight grid, the thresholds and the walk-forward windows. */
export const WHAT_IF = Object.freeze({ grid: 0.1, thresholds: [0.05, 0.1, 0.2] as readonly number[], trainDays: 14, testDays: 7, splits: 10 });

/** One row of the what-if table: a rule, in sample and out of sample. */
export interface WhatIfRow {
  readonly coin: Coin;
  /** "your rule" (the study's weights and threshold, fixed before the data) or "best of N in sample". */
  readonly rule: string;
  /** `imbalance=0.3,funding=0.25,...`: the `milab backtest --weights` value. */
  readonly weights: string;
  readonly threshold: number;
  /** Annualised Sharpe over the whole period (in sample for the chosen variant). */
  readonly inSampleSharpe: number;
  readonly inSampleReturn: number;
  /**
   * Annualised Sharpe over the walk-forward's test windows: for the best-in-sample row, the
   * stitched returns of "choose the best variant on the last 14 days, trade it for 7";
   * for your rule, the rule itself over the same bars.
   */
  readonly outOfSampleSharpe: number;
  /**
   * Deflated Sharpe ratio of the winner at the raw number of trials (assessSweep's `dsr`, what the
   * "Is it real?" verdicts read; for your rule, tried once: its PSR).
   */
  readonly dsr: number;
  /** The effective number of independent trials (correlation eigenvalue entropy; 1 for your rule): information only, `dsr` deflates for `trials`. */
  readonly effectiveTrials: number;
  /** The sweep's probability of backtest overfitting (NaN for your rule). */
  readonly pbo: number;
  /** Variants tried. */
  readonly trials: number;
}

/** One coin's what-if sweep with its assessment. */
export interface CoinWhatIf {
  readonly coin: Coin;
  readonly sweep: SweepResult;
  readonly assessment: SweepAssessment;
}

const weightsText = (w: Weights): string =>
  Object.entries(w)
    .filter(([, v]) => v > 0)
    .map(([c, v]) => `${c}=${Number(v.toFixed(6))}`)
    .join(",");

/**
 * The demo's what-if table, made honest: per coin, sweep your rule's weights plus every weight
 * vector of the simplex at 0.1 x thresholds 0.05, 0.1, 0.2 (your threshold added), on the
 * study's bars (default mode, same costs and funding, no regime filter), then report your
 * rule and the best variant in sample side by side with their out-of-sample Sharpe (a
 * 14-day / 7-day walk-forward of "choose the best by Sharpe"), the winner's deflated Sharpe
 * ratio for every variant tried and the sweep's PBO. The in-sample winner's Sharpe is what a
 * grid search reports; the out-of-sample column and the DSR are what it is worth.
 */
export async function runSweepWhatIf(data: StudyData, options: StudyOptions): Promise<{ rows: WhatIfRow[]; coins: CoinWhatIf[] }> {
  const grid = studyGrid(data, options.barMinutes);
  const yours: Weights = options.weights ?? DEFAULT_WEIGHTS;
  const weights: Weights[] = [yours, ...simplexGrid(COMPONENT_NAMES, WHAT_IF.grid)];
  const thresholds = [...new Set([options.threshold, ...WHAT_IF.thresholds])];
  const rows: WhatIfRow[] = [];
  const coins: CoinWhatIf[] = [];
  const DAY = 86_400_000;
  for (const coin of options.coins) {
    const c = coinBars(data, coin, grid);
    const sweep = await sweepComposite(
      { time: grid.time, close: c["close"] as Float64Array, imbalance: c["imbalance"] as Float64Array, funding: c["funding"] as Float64Array, basis_spread: c["basis_spread"] as Float64Array, momentum_5m: c["momentum_5m"] as Float64Array, gas: c["gas"] as Float64Array },
      {
        weights,
        thresholds,
        feeBps: options.feeBps,
        slippageBps: options.slippageBps,
        initialCash: options.initialCash,
        periodsPerYear: grid.periodsPerYear,
        ...(options.funding ? { barFunding: fundingPerBar(grid.time, c["fundingRate"] as Float64Array) } : {}),
      },
    );
    const assessment = assessSweep(sweep, { splits: WHAT_IF.splits, walkForward: { time: grid.time, trainMs: WHAT_IF.trainDays * DAY, testMs: WHAT_IF.testDays * DAY } });
    coins.push({ coin, sweep, assessment });
    // your rule: vector 0 at your threshold (the first threshold): variant 0
    const mine = sweep.returnsOf(0);
    const folds = assessment.walkForward?.folds.columns;
    const oos = new Float64Array(mine.length).fill(Number.NaN);
    if (folds !== undefined) {
      const a = folds["testStart"] as Float64Array;
      const b = folds["testEnd"] as Float64Array;
      for (let f = 0; f < a.length; f++) for (let i = a[f] as number; i < (b[f] as number); i++) oos[i] = mine[i] as number;
    }
    const col = (name: string, i: number): number => (sweep.columns[name] as Float64Array)[i] as number;
    rows.push({
      coin,
      rule: "your rule",
      weights: weightsText(yours),
      threshold: options.threshold,
      inSampleSharpe: col("sharpeRatio", 0),
      inSampleReturn: col("totalReturn", 0),
      outOfSampleSharpe: sharpeRatio(oos, { periodsPerYear: grid.periodsPerYear }),
      dsr: probabilisticSharpeRatio(mine).psr,
      effectiveTrials: 1,
      pbo: Number.NaN,
      trials: 1,
    });
    const best = assessment.best;
    rows.push({
      coin,
      rule: `best of ${sweep.length} in sample`,
      weights: weightsText(best.weights),
      threshold: best.threshold,
      inSampleSharpe: best.value,
      inSampleReturn: col("totalReturn", best.index),
      outOfSampleSharpe: assessment.walkForward?.outOfSampleSharpe ?? Number.NaN,
      dsr: assessment.dsr,
      effectiveTrials: assessment.effective.trials,
      pbo: assessment.pbo,
      trials: sweep.length,
    });
  }
  return { rows, coins };
}

/** The what-if table's columns (terminal and report alike). */
export function whatIfColumns(rows: readonly WhatIfRow[]): Record<string, string[] | number[]> {
  return {
    coin: rows.map((r) => r.coin),
    rule: rows.map((r) => r.rule),
    "in-sample Sharpe": rows.map((r) => r.inSampleSharpe),
    "out-of-sample Sharpe": rows.map((r) => r.outOfSampleSharpe),
    "in-sample return": rows.map((r) => r.inSampleReturn),
    DSR: rows.map((r) => r.dsr),
    PBO: rows.map((r) => r.pbo),
    threshold: rows.map((r) => r.threshold),
    weights: rows.map((r) => r.weights),
  };
}

const pct = (v: number): string => (Number.isFinite(v) ? `${(v * 100).toFixed(1)}%` : "–");
const ratio = (v: number): string => (Number.isFinite(v) ? v.toFixed(2) : "–");
const prob = (v: number): string => (Number.isFinite(v) ? `${(v * 100).toFixed(0)}%` : "–");

/** Number formats of the what-if table (terminal and report). */
export const WHAT_IF_FORMAT: Readonly<Record<string, (v: number) => string>> = {
  "in-sample Sharpe": ratio,
  "out-of-sample Sharpe": ratio,
  "in-sample return": pct,
  DSR: prob,
  PBO: prob,
  threshold: (v) => String(v),
};

/**
 * The one line that says why the what-if's "your rule" and the scorecard's differ: the sweep
 * runs your weights and threshold in the backtest's default mode (next-close fills, fractional
 * units, full size, shorts, no regime filter), so every study option outside that mode is left
 * out there; the line names those options and sets the two returns side by side per coin.
 * @example whatIfVsScorecard(study, rows) // '"Your rule" in the what-if runs your weights and threshold without the regime filter (...): BTC -25.9% here vs -28.7% in the scorecard, ...'
 */
export function whatIfVsScorecard(study: Study, rows: readonly WhatIfRow[]): string {
  const o = study.options;
  const left = [
    o.regimeFilter ? "the regime filter (flat in extreme volatility)" : undefined,
    o.sizing === "confidence" ? "confidence sizing" : undefined,
    o.shorts ? undefined : "long only (the sweep goes short)",
    o.fill === "next_open" ? "next-open fills" : undefined,
    o.units === "whole" ? "whole units" : undefined,
  ].filter((x): x is string => x !== undefined);
  const pairs = rows
    .filter((r) => r.trials === 1 && study.coins[r.coin] !== undefined)
    .map((r) => `${r.coin} ${pct(r.inSampleReturn)} here vs ${pct(study.coins[r.coin]!.summary.totalReturn)} in the scorecard`)
    .join(", ");
  return left.length === 0
    ? `"Your rule" in the what-if is the scorecard's rule (the sweep's default mode is yours): ${pairs}.`
    : `"Your rule" in the what-if runs your weights and threshold without ${left.join(", ")}: sweeps run the backtest's default mode, so its return differs from the scorecard's: ${pairs}.`;
}
