import { annualisedSharpe } from "./annualisedSharpe.js";
import { finiteCopy, percentileOf } from "../metrics/valueAtRisk.js";
import { checkReturns, periodsPerYearOf, type AnnualisationFields } from "../metrics/ReturnsOptions.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { createRng } from "../random/prng.js";
import { checkNumberOption } from "./checkNumberOption.js";
import { optimalBlockLength } from "./optimalBlockLength.js";
import { stationaryResample } from "./stationaryResample.js";

/** Options of {@link stationaryBootstrap}. */
export interface StationaryBootstrapOptions extends AnnualisationFields {
  /**
   * Mean block length in bars (the blocks' lengths are geometric with this
   * mean); ≥ 1. Default: the data-driven choice of Politis & White (2004, corrected
   * 2009), {@link optimalBlockLength} of the NaN-free returns, at least 1 (⌈n^(1/3)⌉
   * when it is undefined: under about 8 returns, or a constant series). Give a block
   * at least as long as the returns' dependence (e.g. the holding period) to override
   * it; 1 is the i.i.d. bootstrap.
   */
  readonly meanBlock?: number;
  /** Number of resampled series; default 1000. */
  readonly draws?: number;
  /** 32-bit integer seed of the generator; the same seed gives the same interval. Default 0. */
  readonly seed?: number;
  /**
   * The statistic of a series; default its annualised Sharpe ratio
   * (`sharpeRatio` with `periodsPerYear`, or inferred from `time`, one of which
   * it then needs). The array passed in is reused for the next draw: copy it to keep it.
   */
  readonly statistic?: (returns: Float64Array) => number;
  /** Coverage of the percentile interval, in (0, 1); default 0.95. */
  readonly confidence?: number;
}

/** A bootstrap percentile interval. */
export interface BootstrapInterval {
  /** The statistic of the original (NaN-free) series. */
  readonly estimate: number;
  /** The (1 − confidence)/2 percentile of the resampled statistics. */
  readonly lower: number;
  /** The (1 + confidence)/2 percentile of the resampled statistics. */
  readonly upper: number;
  readonly confidence: number;
  /** The statistic of every resampled series, in draw order. */
  readonly samples: Float64Array;
}

/**
 * Percentile confidence interval of a statistic of a return series by the
 * stationary bootstrap (Politis & Romano 1994, "The stationary bootstrap",
 * JASA 89(428)): each resampled series of length n is built from blocks that
 * start at a uniformly drawn bar and run on (wrapping from the last bar to
 * the first) for a geometric number of bars with mean `meanBlock`; at each
 * step a new block starts with probability 1/meanBlock. Blocks keep the
 * serial dependence of returns that an i.i.d. bootstrap destroys.
 *
 * The interval is the numpy-style (linear) percentiles of the resampled
 * statistics at (1 ∓ confidence)/2; resamples whose statistic is NaN are
 * left out. NaN returns are dropped first (the series is resampled as if
 * they were not there). Fewer than 2 returns: estimate, lower and upper NaN.
 * Deterministic for a given seed (mulberry32 from the simulator).
 * @throws InvalidArgumentError on a non-array input, a bad meanBlock, draws, seed or confidence, or neither statistic nor periodsPerYear/time
 * @example stationaryBootstrap(result.returns, { meanBlock: 24, draws: 2000, seed: 7, periodsPerYear: 8760 }) // { estimate, lower, upper, ... } of the annualised Sharpe
 */
export function stationaryBootstrap(returns: ArrayLike<number>, options: StationaryBootstrapOptions = {}): BootstrapInterval {
  const where = "stationaryBootstrap";
  checkReturns(returns, where);
  const x = finiteCopy(returns);
  const n = x.length;
  const meanBlock = checkNumberOption(options.meanBlock ?? defaultMeanBlock(x), "meanBlock", where, {
    min: 1,
    hint: "bars per block on average, e.g. the holding period",
  });
  const draws = checkNumberOption(options.draws ?? 1000, "draws", where, { min: 1, integer: true, hint: "e.g. 1000" });
  const seed = checkNumberOption(options.seed ?? 0, "seed", where, { integer: true, hint: "a 32-bit integer" });
  const confidence = checkNumberOption(options.confidence ?? 0.95, "confidence", where, {
    min: 0,
    minExclusive: true,
    max: 1,
    maxExclusive: true,
    hint: "0.95 for a 95 % interval",
  });
  const statistic = options.statistic ?? annualisedSharpe(periodsPerYearOf(options, where));
  if (typeof statistic !== "function") {
    throw new InvalidArgumentError("statistic", `${where}: statistic must be a function of a Float64Array, got ${String(statistic)}`);
  }
  const samples = new Float64Array(draws).fill(Number.NaN);
  if (n < 2) return { estimate: Number.NaN, lower: Number.NaN, upper: Number.NaN, confidence, samples };
  const estimate = statistic(x);
  const rng = createRng(seed);
  const resample = new Float64Array(n);
  const starts = new Int32Array(n);
  const lengths = new Int32Array(n);
  for (let d = 0; d < draws; d++) {
    stationaryResample(x, meanBlock, rng, resample, starts, lengths);
    samples[d] = statistic(resample);
  }
  const work = finiteCopy(samples);
  const lower = percentileOf(work, (1 - confidence) / 2);
  const upper = percentileOf(work, (1 + confidence) / 2);
  return { estimate, lower, upper, confidence, samples };
}

/** The default mean block: Politis & White's, at least 1; ⌈n^(1/3)⌉ where theirs is undefined. */
function defaultMeanBlock(x: Float64Array): number {
  const b = optimalBlockLength(x);
  return Number.isNaN(b) ? Math.max(1, Math.ceil(Math.cbrt(x.length))) : Math.max(1, b);
}
