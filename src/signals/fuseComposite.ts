import { scoreBasis, scoreFunding, scoreGas, scoreImbalance, scoreMomentum, CHEAP_GAS_GWEI, type Scorer } from "./scorers.js";

/**
 * What each component's column holds and how it is scored in {@link fuseComposite}:
 * 0..4 the default scorers (imbalance, funding, basis, momentum, gas) inlined,
 * 5 any other scorer (called), 6 already a score (read as is, nothing written).
 * @internal
 */
export type ScorerKind = 0 | 1 | 2 | 3 | 4 | 5 | 6;

/** The kind of a scorer: one of the inlined defaults, or 5 (called). @internal */
export function scorerKind(f: Scorer): ScorerKind {
  return f === scoreImbalance ? 0 : f === scoreFunding ? 1 : f === scoreBasis ? 2 : f === scoreMomentum ? 3 : f === scoreGas ? 4 : 5;
}

/** Inputs of {@link fuseComposite}: one entry per component, in weight order. @internal */
export interface FuseInput {
  readonly n: number;
  readonly kinds: Int32Array;
  /** Value columns (or score columns for kind 6). */
  readonly cols: readonly Float64Array[];
  /** Scorer per component (used for kind 5 only). */
  readonly fns: readonly Scorer[];
  /** Score columns written (the same arrays as `cols` for kind 6, not written). */
  readonly outs: readonly Float64Array[];
  readonly weights: Float64Array;
  /** 0 renormalise, 1 zero, 2 nan. */
  readonly policy: number;
  readonly total: number;
  readonly threshold: number;
}

function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/**
 * Score every component and combine the scores into the composite and its label.
 *
 * Each component is one monomorphic loop (the default scorers inlined: the same
 * expressions as scorers.ts, so the same numbers) that writes its score column
 * once and adds weight x score to the running sum of its row: the rows' sums
 * therefore run in weight order, as compositeScore's. A row with every score
 * present needs nothing more (weight present = total weight, so the composite is
 * the sum under every policy). Any missing score makes the row's sum NaN; those
 * rows alone are recomputed by the row-by-row rule (policy, renormalisation) in the
 * labelling pass. Same arithmetic, same order: results agree bit for bit.
 * @internal
 */
export function fuseComposite(p: FuseInput, composite: Float64Array, label: Int8Array): void {
  const { n, kinds, cols, fns, outs, weights, policy, total, threshold } = p;
  const k = kinds.length;
  const rescale = Math.abs(total - 1) > 1e-12;
  // Blocks of rows small enough for the block's sums to stay in cache between
  // the components' loops: each column is then read or written from memory once.
  for (let lo = 0; lo < n; lo += BLOCK) {
    const hi = Math.min(n, lo + BLOCK);
    // composite is fresh (all 0): row sums start at 0, as compositeScore's.
    for (let j = 0; j < k; j++) {
      const v = cols[j] as Float64Array;
      const out = outs[j] as Float64Array;
      const w = weights[j] as number;
      switch (kinds[j]) {
        case 0:
          addImbalance(v, out, w, composite, lo, hi);
          break;
        case 1:
          addFunding(v, out, w, composite, lo, hi);
          break;
        case 2:
          addBasis(v, out, w, composite, lo, hi);
          break;
        case 3:
          addMomentum(v, out, w, composite, lo, hi);
          break;
        case 4:
          addGas(v, out, w, composite, lo, hi);
          break;
        case 5:
          addScored(fns[j] as Scorer, v, out, w, composite, lo, hi);
          break;
        default:
          addScores(v, w, composite, lo, hi);
      }
    }
    for (let i = lo; i < hi; i++) {
      let c = composite[i] as number;
      if (c !== c) {
        // a missing score (or a NaN sum): the row-by-row rule
        let sum = 0;
        let used = 0;
        let present = 0;
        let anyNaN = false;
        for (let j = 0; j < k; j++) {
          const x = (outs[j] as Float64Array)[i] as number;
          if (x === x) {
            const w = weights[j] as number;
            sum = sum + w * x;
            used = used + w;
            present++;
          } else anyNaN = true;
        }
        if (present === 0 || (anyNaN && policy === 2)) c = Number.NaN;
        else if (policy === 0 && Math.abs(used - total) >= 1e-12) c = rescale ? (sum / used) * total : sum / used;
        else c = sum;
        composite[i] = c;
      }
      label[i] = c >= threshold && c > 0 ? 1 : c <= -threshold && c < 0 ? -1 : 0;
    }
  }
}

/** Rows per block: 11 columns of 1024 doubles (~90 KB) fit in a core's L2 cache. */
const BLOCK = 1024;

// One small monomorphic loop per scorer: score rows lo..hi-1, write the score, add weight x score to the row's sum.

function addImbalance(v: Float64Array, out: Float64Array, w: number, sum: Float64Array, lo: number, hi: number): void {
  for (let i = lo; i < hi; i++) {
    const x = 2 * (clamp(v[i] as number, 0, 1) - 0.5);
    out[i] = x;
    sum[i] = (sum[i] as number) + w * x;
  }
}

function addFunding(v: Float64Array, out: Float64Array, w: number, sum: Float64Array, lo: number, hi: number): void {
  for (let i = lo; i < hi; i++) {
    const x = clamp(-(v[i] as number) * 1e4, -1, 1);
    out[i] = x;
    sum[i] = (sum[i] as number) + w * x;
  }
}

function addBasis(v: Float64Array, out: Float64Array, w: number, sum: Float64Array, lo: number, hi: number): void {
  for (let i = lo; i < hi; i++) {
    const x = clamp(-(v[i] as number) / 50, -1, 1);
    out[i] = x;
    sum[i] = (sum[i] as number) + w * x;
  }
}

function addMomentum(v: Float64Array, out: Float64Array, w: number, sum: Float64Array, lo: number, hi: number): void {
  for (let i = lo; i < hi; i++) {
    const x = clamp((v[i] as number) / 2, -1, 1);
    out[i] = x;
    sum[i] = (sum[i] as number) + w * x;
  }
}

/** A local copy: an imported binding may be a getter once transpiled (tsx), too slow for a loop. */
const CHEAP = CHEAP_GAS_GWEI;

function addGas(v: Float64Array, out: Float64Array, w: number, sum: Float64Array, lo: number, hi: number): void {
  for (let i = lo; i < hi; i++) {
    const g = v[i] as number;
    const x = g !== g ? Number.NaN : g <= CHEAP ? 0.3 : clamp(0.3 - (g - CHEAP) / 10, -1, 0.3);
    out[i] = x;
    sum[i] = (sum[i] as number) + w * x;
  }
}

function addScored(f: Scorer, v: Float64Array, out: Float64Array, w: number, sum: Float64Array, lo: number, hi: number): void {
  for (let i = lo; i < hi; i++) {
    const g = v[i] as number;
    const x = g !== g ? Number.NaN : f(g);
    out[i] = x;
    sum[i] = (sum[i] as number) + w * x;
  }
}

/** Already scores: read, nothing written. */
function addScores(v: Float64Array, w: number, sum: Float64Array, lo: number, hi: number): void {
  for (let i = lo; i < hi; i++) sum[i] = (sum[i] as number) + w * (v[i] as number);
}

/**
 * Confidence per row from the scores and the composite: 0.5 x min(1, |c| / 0.3) +
 * 0.5 x (weight present whose score has the composite's sign) / (weight present);
 * NaN where the composite is NaN. Sums run in weight order, as signalConfidence's.
 * @internal
 */
export function confidenceColumn(scores: readonly Float64Array[], weights: Float64Array, composite: Float64Array): Float64Array {
  const n = composite.length;
  const k = scores.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = composite[i] as number;
    if (c !== c) {
      out[i] = Number.NaN;
      continue;
    }
    let used = 0;
    let agree = 0;
    const sc = Math.sign(c);
    for (let j = 0; j < k; j++) {
      const x = (scores[j] as Float64Array)[i] as number;
      if (x === x) {
        const w = weights[j] as number;
        used = used + w;
        if (c !== 0 && Math.sign(x) === sc) agree = agree + w;
      }
    }
    out[i] = 0.5 * Math.min(1, Math.abs(c) / 0.3) + 0.5 * (used > 0 ? agree / used : 0);
  }
  return out;
}

/** Strength per row: the label, doubled where |composite| >= strong. @internal */
export function strengthColumn(label: Int8Array, composite: Float64Array, strong: number): Int8Array {
  const n = label.length;
  const out = new Int8Array(n);
  for (let i = 0; i < n; i++) {
    const l = label[i] as number;
    out[i] = l !== 0 && Math.abs(composite[i] as number) >= strong ? 2 * l : l;
  }
  return out;
}
