import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/**
 * The least evidence a winner needs before any test is read (a winner short of one of them is
 * "too little evidence", whatever its p-values): its round trips, the bars of the sweep, the bars on
 * which it held a position, and its independent bets (bars held / the bootstrap's mean block: runs of
 * bars whose returns are roughly independent of one another). Below them a PSR of 98 % or a small
 * p-value rests on a handful of observations (a one-trade winner's PSR is ≥ 95 % on pure noise).
 */
export const EVIDENCE_MINIMUMS = { trades: 10, bars: 50, barsHeld: 30, independentBets: 20 } as const;

/** The winner's evidence {@link EVIDENCE_MINIMUMS} is checked against. */
export interface SweepEvidence {
  /** Round trips of the winner. */
  readonly trades: number;
  /** Bars the tests were run on. */
  readonly bars: number;
  /** Bars on which the winner held a position (a non-zero return). */
  readonly barsHeld: number;
  /** barsHeld / the bootstrap's mean block length. */
  readonly independentBets: number;
}

/** The numbers a verdict on a sweep's winner is read from (those of {@link assessSweep}). */
export interface SweepVerdictInput {
  /**
   * Hansen's SPA p-value (consistent, studentised) of the sweep's variants against flat: the headline test
   * when given (NaN: not computed). Without it the DSR is the headline test.
   */
  readonly spa?: number;
  /** Deflated Sharpe ratio of the winner at the raw number of trials, a probability. */
  readonly dsr: number;
  /** Probability of backtest overfitting of the sweep (NaN when not computed). */
  readonly pbo: number;
  /** Annualised Sharpe of the walk-forward's stitched out-of-sample returns; omit without a walk-forward. */
  readonly outOfSampleSharpe?: number;
  /** True when a lookahead probe saw positions change as later bars were added (checkLookahead). */
  readonly lookahead?: boolean;
  /** The winner's evidence; omit when unknown (no guard is then applied). */
  readonly evidence?: SweepEvidence;
}

/** A shortfall of evidence: which number, its value and the minimum. */
export interface EvidenceShortfall {
  readonly name: keyof SweepEvidence;
  readonly value: number;
  readonly minimum: number;
}

/**
 * What each test says, and the verdict they make together (one rule, {@link sweepVerdict}):
 * - `superior`: Hansen's SPA rejects "no variant beats flat" at 5 % (p < 0.05; undefined without a finite p);
 * - `deflated`: the winner's DSR at the raw number of trials is ≥ 0.95 (Bailey & López de Prado 2014);
 * - `selection`: PBO ≤ 0.05 "holds" (the level Bailey, Borwein, López de Prado & Zhu 2015 use to reject),
 *   PBO ≥ 0.5 "overfit" (the in-sample winner usually lands in the bottom half out of sample), between
 *   "inconclusive" (pure noise spans roughly 0.2–0.9), undefined when PBO is NaN; `selectionHolds` is it as a boolean
 *   (true holds, false overfit, undefined otherwise);
 * - `outOfSampleHolds`: the walk-forward's out-of-sample Sharpe is > 0 (undefined without a finite one);
 * - `short`: the evidence below {@link EVIDENCE_MINIMUMS};
 * - `verdict`, in this order: `"lookahead"` when the probe saw lookahead; `"too little evidence"` when any
 *   evidence is short; `"edge"` when the headline test (SPA, or the DSR without an SPA p-value) passes and the
 *   walk-forward, if any, does not lose; `"unproven"` when it passes but the walk-forward loses, or when it fails
 *   but another test passes (DSR, walk-forward, or a PBO that holds); `"luck"` otherwise (the best of that many
 *   skill-less variants would often do as well);
 * - `decidedBy`: the test that made the verdict. PBO never vetoes an edge (measured: it rejects a fifth of
 *   planted edges).
 */
export interface SweepVerdict {
  readonly superior: boolean | undefined;
  readonly deflated: boolean;
  readonly selection: "holds" | "inconclusive" | "overfit" | undefined;
  readonly selectionHolds: boolean | undefined;
  readonly outOfSampleHolds: boolean | undefined;
  readonly short: readonly EvidenceShortfall[];
  readonly verdict: "lookahead" | "too little evidence" | "edge" | "unproven" | "luck";
  readonly decidedBy: "lookahead" | "evidence" | "spa" | "dsr" | "walk-forward";
}

/**
 * The library's one rule for judging a sweep's winner from its statistics (used by the tearsheet's
 * "Is it real?" section, isItRealVerdict, the CLI and the notebook text form): see {@link SweepVerdict}.
 * Calibration (docs/guide.md, test/research/verdictCalibration.test.ts): on six families of skill-less
 * sweeps "edge" comes out in at most 5 % (+ 2 standard errors) of them.
 * @throws InvalidArgumentError when dsr, pbo or spa is not a probability (a number in [0, 1], or NaN: not computed),
 *   outOfSampleSharpe is not a number, or evidence is not an object of numbers
 * @example sweepVerdict({ spa: 0.01, dsr: 0.6, pbo: 0.3 }).verdict // "edge", decidedBy "spa"
 * @example sweepVerdict({ spa: 0.01, dsr: 0.99, pbo: 0.1, evidence: { trades: 1, bars: 184, barsHeld: 90, independentBets: 90 } }).verdict // "too little evidence"
 */
export function sweepVerdict(input: SweepVerdictInput): SweepVerdict {
  const where = "sweepVerdict";
  if (input === null || typeof input !== "object") throw new InvalidArgumentError("input", `${where}: needs { spa?, dsr, pbo, outOfSampleSharpe?, lookahead?, evidence? }, got ${String(input)}`);
  for (const name of ["dsr", "pbo", "spa"] as const) {
    const p = input[name];
    if (name === "spa" && p === undefined) continue;
    if (typeof p !== "number" || p < 0 || p > 1) {
      throw new InvalidArgumentError(name, `${where}: ${name} must be a probability in [0, 1] (NaN when not computed), got ${String(p)}`);
    }
  }
  if (input.outOfSampleSharpe !== undefined && typeof input.outOfSampleSharpe !== "number") {
    throw new InvalidArgumentError("outOfSampleSharpe", `${where}: outOfSampleSharpe must be a number (annualised Sharpe) or omitted, got ${String(input.outOfSampleSharpe)}`);
  }
  const short: EvidenceShortfall[] = [];
  if (input.evidence !== undefined) {
    const e = input.evidence;
    if (e === null || typeof e !== "object") throw new InvalidArgumentError("evidence", `${where}: evidence must be { trades, bars, barsHeld, independentBets }, got ${String(e)}`);
    for (const name of Object.keys(EVIDENCE_MINIMUMS) as (keyof SweepEvidence)[]) {
      const value = e[name];
      if (typeof value !== "number") throw new InvalidArgumentError("evidence", `${where}: evidence.${name} must be a number, got ${String(value)}`);
      // NaN counts as short: no evidence
      if (!(value >= EVIDENCE_MINIMUMS[name])) short.push({ name, value, minimum: EVIDENCE_MINIMUMS[name] });
    }
  }
  const spa = input.spa;
  const superior = spa !== undefined && Number.isFinite(spa) ? spa < 0.05 : undefined;
  const deflated = input.dsr >= 0.95;
  const pbo = input.pbo;
  const selection = Number.isFinite(pbo) ? (pbo <= 0.05 ? "holds" : pbo >= 0.5 ? "overfit" : "inconclusive") : undefined;
  const selectionHolds = selection === "holds" ? true : selection === "overfit" ? false : undefined;
  const oos = input.outOfSampleSharpe;
  const outOfSampleHolds = oos !== undefined && Number.isFinite(oos) ? oos > 0 : undefined;
  const base = { superior, deflated, selection, selectionHolds, outOfSampleHolds, short } as const;
  if (input.lookahead === true) return { ...base, verdict: "lookahead", decidedBy: "lookahead" };
  if (short.length > 0) return { ...base, verdict: "too little evidence", decidedBy: "evidence" };
  const headline = superior !== undefined ? "spa" : "dsr";
  const passes = superior ?? deflated;
  if (passes) return outOfSampleHolds === false ? { ...base, verdict: "unproven", decidedBy: "walk-forward" } : { ...base, verdict: "edge", decidedBy: headline };
  const other = (headline === "spa" && deflated) || outOfSampleHolds === true || selectionHolds === true;
  return { ...base, verdict: other ? "unproven" : "luck", decidedBy: headline };
}
