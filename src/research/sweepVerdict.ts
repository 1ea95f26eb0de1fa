import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** The numbers a verdict on a sweep's winner is read from (those of {@link assessSweep}). */
export interface SweepVerdictInput {
  /** Deflated Sharpe ratio of the winner, a probability. */
  readonly dsr: number;
  /** Probability of backtest overfitting of the sweep (NaN when not computed). */
  readonly pbo: number;
  /** Annualised Sharpe of the walk-forward's stitched out-of-sample returns; omit without a walk-forward. */
  readonly outOfSampleSharpe?: number;
}

/**
 * What each test says, and the verdict they make together:
 * - `deflated`: the winner's Sharpe survives deflation, DSR ≥ 0.95 (Bailey & López de Prado 2014's bar;
 *   equivalently, the bars observed reach the minimum track record against SR₀);
 * - `selectionHolds`: PBO < 0.5, the in-sample winner usually lands in the better half out of sample
 *   (undefined when PBO is NaN);
 * - `outOfSampleHolds`: the walk-forward's out-of-sample Sharpe is > 0 (undefined without a finite one);
 * - `verdict`: `"edge"` when the DSR passes and no out-of-sample test fails; `"luck"` when the DSR fails
 *   and no out-of-sample test passes (the winner is what the best of that many skill-less variants would
 *   often reach); `"unproven"` when the tests disagree.
 */
export interface SweepVerdict {
  readonly deflated: boolean;
  readonly selectionHolds: boolean | undefined;
  readonly outOfSampleHolds: boolean | undefined;
  readonly verdict: "edge" | "unproven" | "luck";
}

/**
 * The library's one rule for judging a sweep's winner from its statistics (used by the tearsheet's
 * "Is it real?" section, isItRealVerdict, and the CLI): see {@link SweepVerdict}.
 * @throws InvalidArgumentError when dsr or pbo is not a probability (a number in [0, 1], or NaN: not computed)
 *   or outOfSampleSharpe is not a number
 * @example sweepVerdict({ dsr: 0.24, pbo: 0.01, outOfSampleSharpe: 10.27 }).verdict // "unproven": the out-of-sample tests pass, the DSR does not
 */
export function sweepVerdict(input: SweepVerdictInput): SweepVerdict {
  if (input === null || typeof input !== "object") throw new InvalidArgumentError("input", `sweepVerdict: needs { dsr, pbo, outOfSampleSharpe? }, got ${String(input)}`);
  for (const name of ["dsr", "pbo"] as const) {
    const p = input[name];
    if (typeof p !== "number" || p < 0 || p > 1) {
      throw new InvalidArgumentError(name, `sweepVerdict: ${name} must be a probability in [0, 1] (NaN when not computed), got ${String(p)}`);
    }
  }
  if (input.outOfSampleSharpe !== undefined && typeof input.outOfSampleSharpe !== "number") {
    throw new InvalidArgumentError("outOfSampleSharpe", `sweepVerdict: outOfSampleSharpe must be a number (annualised Sharpe) or omitted, got ${String(input.outOfSampleSharpe)}`);
  }
  const deflated = input.dsr >= 0.95;
  const selectionHolds = Number.isFinite(input.pbo) ? input.pbo < 0.5 : undefined;
  const oos = input.outOfSampleSharpe;
  const outOfSampleHolds = oos !== undefined && Number.isFinite(oos) ? oos > 0 : undefined;
  const oosTests = [selectionHolds, outOfSampleHolds];
  const verdict = deflated ? (oosTests.includes(false) ? "unproven" : "edge") : oosTests.includes(true) ? "unproven" : "luck";
  return { deflated, selectionHolds, outOfSampleHolds, verdict };
}
