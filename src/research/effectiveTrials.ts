import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { symmetricEigenvalues } from "./symmetricEigenvalues.js";

/** The result of {@link effectiveTrials}. */
export interface EffectiveTrials {
  /** Variants given (the raw number of trials). */
  readonly raw: number;
  /** The effective number of independent trials, exp(H) of the correlation eigenvalues (1..raw). */
  readonly effective: number;
  /** How `effective` was measured. */
  readonly method: "correlation eigenvalue entropy";
}

/**
 * The effective number of independent trials among variants whose returns are correlated (near-identical
 * variants of a sweep are nearly one trial): the effective rank of their correlation matrix (Roy &
 * Vetterli 2007, "The effective rank"), `exp(H)` with `H = −Σ pᵢ ln pᵢ`, `pᵢ = λᵢ / Σλ` over the
 * correlation matrix's eigenvalues λᵢ (negative rounding residue counted as 0). N independent variants give
 * about N (exactly N for uncorrelated samples), K families of identical variants give K.
 *
 * Correlations are Pearson's over the bars where every variant has a finite return. Variants with no
 * variance there (never traded) are one strategy, doing nothing: together they count as one trial.
 * Feeding the DSR this N instead of the raw count stops near-duplicates from over-deflating (Bailey &
 * López de Prado 2014 ask for the number of independent trials). O(N²·T + N³): pass a sample of a large
 * sweep (assessSweep uses at most 300 variants).
 * @param returnsPerVariant one per-bar return series per variant, all the same length
 * @throws InvalidArgumentError with no variants or series of different lengths
 * @example effectiveTrials([a, a, b]).effective // ≈ 2 when a and b are uncorrelated
 */
export function effectiveTrials(returnsPerVariant: readonly ArrayLike<number>[]): EffectiveTrials {
  const where = "effectiveTrials";
  if (!Array.isArray(returnsPerVariant) || returnsPerVariant.length === 0) {
    throw new InvalidArgumentError("returnsPerVariant", `${where}: needs an array of per-variant return series, got ${String(returnsPerVariant)}`);
  }
  const raw = returnsPerVariant.length;
  const T = (returnsPerVariant[0] as ArrayLike<number>)?.length;
  returnsPerVariant.forEach((r, v) => {
    if (r === null || typeof r !== "object" || r.length !== T) {
      throw new InvalidArgumentError(
        "returnsPerVariant",
        `${where}: every variant needs one return per bar (${T}, like variant 0), got ${r === null || typeof r !== "object" ? String(r) : r.length} in variant ${v}`,
      );
    }
  });
  const method = "correlation eigenvalue entropy" as const;
  const bars: number[] = [];
  for (let t = 0; t < T; t++) if (returnsPerVariant.every((r) => Number.isFinite(r[t] as number))) bars.push(t);
  // standardised columns of the variants with variance; the others are one "idle" trial
  const z: Float64Array[] = [];
  let idle = false;
  for (const r of returnsPerVariant) {
    let mean = 0;
    for (const t of bars) mean += r[t] as number;
    mean /= bars.length;
    const col = Float64Array.from(bars, (t) => (r[t] as number) - mean);
    let ss = 0;
    for (const x of col) ss += x * x;
    if (!(ss > 0)) {
      idle = true;
      continue;
    }
    const norm = Math.sqrt(ss);
    for (let i = 0; i < col.length; i++) col[i] = (col[i] as number) / norm;
    z.push(col);
  }
  const n = z.length;
  if (n === 0) return { raw, effective: 1, method };
  const corr = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const zi = z[i] as Float64Array;
    for (let j = 0; j <= i; j++) {
      const zj = z[j] as Float64Array;
      let s = 0;
      for (let k = 0; k < zi.length; k++) s += (zi[k] as number) * (zj[k] as number);
      corr[i * n + j] = s;
      corr[j * n + i] = s;
    }
  }
  const lambda = symmetricEigenvalues(corr, n);
  let total = 0;
  for (const l of lambda) if (l > 0) total += l;
  let h = 0;
  for (const l of lambda) {
    if (!(l > 0)) continue;
    const p = l / total;
    h -= p * Math.log(p);
  }
  return { raw, effective: Math.min(raw, Math.exp(h) + (idle ? 1 : 0)), method };
}
