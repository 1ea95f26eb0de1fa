import { compositeAt } from "./compositeScore.js";
import { scoreBasis, scoreFunding, scoreGas, scoreImbalance, scoreMomentum, type Scorer } from "./scorers.js";

/**
 * How a component's column is scored in {@link fuseComposite}: 0..4 the default
 * scorers (imbalance, funding, basis, momentum, gas), 5 any other scorer, 6 the
 * column already holds scores.
 * @internal
 */
export type ScorerKind = 0 | 1 | 2 | 3 | 4 | 5 | 6;

/** The kind of a scorer: one of the defaults, or 5 (any other). @internal */
export function scorerKind(f: Scorer): ScorerKind {
  return f === scoreImbalance ? 0 : f === scoreFunding ? 1 : f === scoreBasis ? 2 : f === scoreMomentum ? 3 : f === scoreGas ? 4 : 5;
}

/** A composite model resolved for the column kernel: one entry per component, in weight order. @internal */
export interface FusedModel {
  /** Raw value columns (score columns for kind 6), indexed by row. */
  readonly cols: readonly Float64Array[];
  readonly kinds: Int32Array;
  /** Scorer per component (kinds 0..5). */
  readonly fns: readonly Scorer[];
  readonly weights: Float64Array;
  /** Sum of the weights. */
  readonly total: number;
  /** 0 renormalise, 1 zero, 2 nan (see policyCode). */
  readonly policy: number;
}

/**
 * Score rows lo..hi-1 of every component and combine them into the composite:
 * `scores[j][i - base]` and `composite[i - base]` (whole columns with base 0, or
 * reused block buffers with base lo). A kind-6 column whose output is the input
 * itself is read, not written.
 *
 * The scorers are those of scorers.ts, called from one call site per kind (so
 * the JIT inlines the default ones: a specialisation, not a copy); a NaN value
 * scores NaN. Each component is one loop over the rows adding weight x score to
 * the row's running sum, so sums run in weight order; a row with every score
 * present is then the plain weighted sum (what compositeAt gives), and a row
 * with a score missing is recomputed by compositeAt (policy, renormalisation).
 * For rows that fit in cache (a block of ~1-4k rows) every column is read once.
 * @internal
 */
export function fuseComposite(m: FusedModel, lo: number, hi: number, base: number, scores: readonly Float64Array[], composite: Float64Array): void {
  const { cols, kinds, fns, weights } = m;
  const k = kinds.length;
  composite.fill(0, lo - base, hi - base);
  for (let j = 0; j < k; j++) {
    const v = cols[j] as Float64Array;
    const out = scores[j] as Float64Array;
    addScored(kinds[j] as number, fns[j] as Scorer, weights[j] as number, v, out !== v ? out : undefined, composite, lo, hi, base);
  }
  for (let i = lo; i < hi; i++) {
    const c = composite[i - base] as number;
    // a missing score (or a NaN sum): the row rule
    if (c !== c) composite[i - base] = compositeAt(scores, weights, m.total, m.policy, i - base);
  }
}

/** One component over rows lo..hi-1: score (by kind), write the score, add weight x score to the row's sum. */
function addScored(kind: number, f: Scorer, w: number, v: Float64Array, out: Float64Array | undefined, sum: Float64Array, lo: number, hi: number, base: number): void {
  for (let i = lo; i < hi; i++) {
    const g = v[i] as number;
    const x =
      kind === 6 || g !== g
        ? g
        : kind === 0
          ? scoreImbalance(g)
          : kind === 1
            ? scoreFunding(g)
            : kind === 2
              ? scoreBasis(g)
              : kind === 3
                ? scoreMomentum(g)
                : kind === 4
                  ? scoreGas(g)
                  : f(g);
    if (out !== undefined) out[i - base] = x;
    sum[i - base] = (sum[i - base] as number) + w * x;
  }
}
