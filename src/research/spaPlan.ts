import type { OptionSpec } from "../options/OptionSpec.js";
import { checkNumberOption } from "./checkNumberOption.js";

/**
 * The options of Hansen's SPA, checked once where they enter ({@link resolveSpaPlan}); the kernel
 * ({@link spaKernel}) trusts them and checks nothing again.
 * @internal
 */
export interface SpaPlan {
  /** Bootstrap resamples, a whole number ≥ 1. */
  readonly draws: number;
  /** 32-bit integer seed of the resampling. */
  readonly seed: number;
  /** Level of the Romano–Wolf claims, in (0, 1). */
  readonly alpha: number;
  /** Mean block length in bars (≥ 1), or undefined: the median optimalBlockLength of the variants. */
  readonly meanBlock: number | undefined;
}

/** What a caller may set; `undefined` or `null` (a missing key) takes the default. @internal */
export interface SpaPlanInput {
  readonly draws?: number | undefined;
  readonly seed?: number | undefined;
  readonly alpha?: number | undefined;
  readonly meanBlock?: number | undefined;
}

/** superiorPredictiveAbility's options, their units and defaults (its strict schema: checkOptions). @internal */
export const SPA_OPTION_SPECS = {
  draws: { unit: "bootstrap resamples", default: "999" },
  meanBlock: { unit: "bars (mean block of the stationary bootstrap)", default: "median optimalBlockLength of the variants" },
  seed: { unit: "32-bit integer", default: "0" },
  alpha: { unit: "level of the Romano–Wolf claims, in (0, 1)", default: "0.05" },
} as const satisfies Record<keyof SpaPlanInput, OptionSpec>;

/**
 * Resolve the SPA's options, once, where they enter: `draws` (default `defaultDraws`), `seed` (0), `alpha` (0.05)
 * and `meanBlock` (undefined: estimated from the data), each checked against its range. The caller has refused
 * unknown keys (checkOptions with its own spec table); `prefix` names the options as its user wrote them
 * (`"spa."` for assessSweep's `spa.draws`).
 * @throws InvalidArgumentError naming the function, the option, the rule and the value
 * @internal
 */
export function resolveSpaPlan(o: SpaPlanInput, where: string, defaultDraws: number, prefix = ""): SpaPlan {
  const draws = checkNumberOption(o.draws ?? defaultDraws, `${prefix}draws`, where, { min: 1, integer: true, hint: "e.g. 999" });
  const seed = checkNumberOption(o.seed ?? 0, "seed", where, { integer: true, hint: "a 32-bit integer" });
  const alpha = checkNumberOption(o.alpha ?? 0.05, `${prefix}alpha`, where, { min: 0, minExclusive: true, max: 1, maxExclusive: true, hint: "0.05" });
  const meanBlock = o.meanBlock === undefined ? undefined : checkNumberOption(o.meanBlock, `${prefix}meanBlock`, where, { min: 1, hint: "bars per block on average" });
  return { draws, seed, alpha, meanBlock };
}
