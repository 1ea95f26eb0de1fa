import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import type { RomanoWolf } from "./romanoWolf.js";
import { spaKernel } from "./spaKernel.js";
import { resolveSpaPlan, SPA_OPTION_SPECS } from "./spaPlan.js";
import { checkOptions } from "../options/checkOptions.js";

/** Options of {@link superiorPredictiveAbility}. */
export interface SuperiorPredictiveAbilityOptions {
  /**
   * Mean block length of the stationary bootstrap, in bars (≥ 1). Default: the median over the
   * variants (at most 64 of them, evenly spaced) of {@link optimalBlockLength}, at least 1
   * (⌈n^(1/3)⌉ where it is undefined).
   */
  readonly meanBlock?: number;
  /** Bootstrap resamples; default 999 (so that 5 % of 1 + draws is a whole number). */
  readonly draws?: number;
  /** 32-bit integer seed of the resampling (the library's mulberry32); default 0. The same seed gives the same p-values. */
  readonly seed?: number;
  /** Level of the Romano–Wolf claims (which variants beat the benchmark), in (0, 1); default 0.05. */
  readonly alpha?: number;
}

/** The result of {@link superiorPredictiveAbility}. */
export interface SuperiorPredictiveAbility {
  /** Hansen's consistent p-value (SPA_c): the probability, if no variant beats the benchmark, of a best studentised mean this large. */
  readonly pValue: number;
  /** The lower (SPA_l, recentred at max(mean, 0)) and upper (White's Reality Check, studentised: recentred at the mean) p-values that bound it. */
  readonly pValueLower: number;
  readonly pValueUpper: number;
  /** T = max(0, max_k t_k): the best studentised mean return. */
  readonly statistic: number;
  /** t_k = √n · mean_k / sd_k of every variant (NaN for a constant variant: it takes no part). */
  readonly t: Float64Array;
  /** Bars used (those where every variant's return is a number), variants with a t, the mean block and the resamples. */
  readonly bars: number;
  readonly variants: number;
  readonly meanBlock: number;
  readonly draws: number;
  /** Romano–Wolf step-down: which variants beat the benchmark (zero) at `alpha`. */
  readonly romanoWolf: RomanoWolf;
}

/**
 * Hansen's test for Superior Predictive Ability (Hansen, P. R. (2005), "A test for superior
 * predictive ability", Journal of Business & Economic Statistics 23(4)) of K variants' returns
 * against a benchmark of zero (flat), with White's Reality Check (2000) as its upper bound and
 * Romano & Wolf's step-down ({@link RomanoWolf}) for which variants beat it. The null: no variant
 * has a positive mean return. With d_k the variant's returns over the n bars where all are
 * numbers, t_k = √n d̄_k / s_k (s_k the sample standard deviation, ddof 1) and T = max(0, max_k t_k).
 * Each of `draws` resamples is one stationary-bootstrap draw of the bars (Politis & Romano 1994,
 * mean block `meanBlock`; the same bars for every variant, so their correlation is kept) and gives
 * T* = max(0, max_k √n (d̄*_k − μ_k) / s*_k), studentised by the resample's own standard deviation
 * s*_k (a bootstrap-t: a fixed s_k over-rejects when bars are few and variants many), with Hansen's
 * recentring μ_k = d̄_k · 1{t_k ≥ −√(2 ln ln n)} (consistent), max(d̄_k, 0) (lower) or d̄_k
 * (upper). The p-value is (1 + the resamples with T* ≥ T) / (1 + draws), the Monte Carlo p-value that counts
 * the observed statistic as one of the draws (Davison & Hinkley 1997, §4.2; exact for a Monte Carlo test, never 0).
 * NaN p-values with fewer than 8 bars or no variant with a t (all constant).
 * Deterministic for a seed. Cost: draws × K × (runs per resample), on prefix sums ({@link spaKernel}).
 * Options are checked here, once (an unknown key is refused with the nearest valid name).
 * @throws InvalidArgumentError on a returns that is not an array of equally long arrays, or a bad option
 * @example superiorPredictiveAbility(sweep.variantsUsed.map((i) => sweep.returnsOf(i)), { seed: 1 }).pValue // below 0.05: some variant beats flat
 */
export function superiorPredictiveAbility(returns: readonly ArrayLike<number>[], options: SuperiorPredictiveAbilityOptions = {}): SuperiorPredictiveAbility {
  const where = "superiorPredictiveAbility";
  if (!Array.isArray(returns)) throw new InvalidArgumentError("returns", `${where}: returns must be an array of the variants' return series, got ${String(returns)}`);
  const len = returns[0]?.length ?? 0;
  returns.forEach((r, k) => {
    if (r === null || typeof r !== "object" || typeof r.length !== "number" || r.length !== len) {
      throw new InvalidArgumentError("returns", `${where}: every variant's returns must be an array of ${len} numbers (one per bar), variant ${k} is ${r === null || typeof r !== "object" ? String(r) : `${r.length} long`}`);
    }
  });
  const o = checkOptions(options, { where, specs: SPA_OPTION_SPECS, example: "superiorPredictiveAbility(returns, { draws: 999, seed: 1 })" }) ?? {};
  return spaKernel(returns, resolveSpaPlan(o, where, 999));
}
