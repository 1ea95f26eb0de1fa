import { labelCode } from "./classifySignal.js";
import { compositeAt } from "./compositeScore.js";
import { scoringNaNAsNaN, type Scorer } from "./scorers.js";

/** Components scored by one row loop of {@link fuseComposite}; a model with more runs one loop per group of this many. */
const SLOTS = 5;

/**
 * Up to SLOTS components of a model, in weight order: value column `v`, scorer
 * `f` and weight `w` per slot. A slot past the model's last component reads the
 * group's first column and scores 0 with weight 0 (adds +0 to a sum that is
 * never -0: no change).
 *
 * A class rather than an object literal: V8 types the fields of a literal built from its
 * boilerplate (the literal's second run in a process) as any value, a change of the field type
 * the label loop optimised during the process's first replay depends on (v0..v4: a Float64Array),
 * so the second replay of every process threw that code away and compiled it again
 * (`--trace-deopt`: "marking dependent code labelGroup ... reason: code dependencies", after
 * `--trace-generalization`'s "v0:h{Class();const}->h{Any;const}" at fusedModel). A constructor's
 * fields keep their type.
 */
class Group {
  readonly v0: Float64Array;
  readonly v1: Float64Array;
  readonly v2: Float64Array;
  readonly v3: Float64Array;
  readonly v4: Float64Array;
  readonly f0: Scorer;
  readonly f1: Scorer;
  readonly f2: Scorer;
  readonly f3: Scorer;
  readonly f4: Scorer;
  readonly w0: number;
  readonly w1: number;
  readonly w2: number;
  readonly w3: number;
  readonly w4: number;
  constructor(slots: readonly Slot[]) {
    const [s0, s1, s2, s3, s4] = slots as readonly [Slot, Slot, Slot, Slot, Slot];
    this.v0 = s0.v;
    this.v1 = s1.v;
    this.v2 = s2.v;
    this.v3 = s3.v;
    this.v4 = s4.v;
    this.f0 = s0.f;
    this.f1 = s1.f;
    this.f2 = s2.f;
    this.f3 = s3.f;
    this.f4 = s4.f;
    this.w0 = s0.w;
    this.w1 = s1.w;
    this.w2 = s2.w;
    this.w3 = s3.w;
    this.w4 = s4.w;
  }
}

/** One slot of a Group: value column, scorer, weight. */
interface Slot {
  readonly v: Float64Array;
  readonly f: Scorer;
  readonly w: number;
}

/** A composite model resolved for {@link fuseComposite}, with its block buffer. @internal */
export interface FusedModel {
  readonly groups: readonly Group[];
  /** Rows per block: the most one fuseComposite call takes. */
  readonly block: number;
  /** Composite of the last block fused: row lo + r at r. */
  readonly composite: Float64Array;
  /** Value (or score) column and scorer of each component, in weight order; the scorer maps NaN to NaN. */
  readonly cols: readonly Float64Array[];
  readonly fns: readonly Scorer[];
  /** Scores of one row, one single-place column per component (a row with a score missing, for compositeAt). */
  readonly row: readonly Float64Array[];
  readonly weights: Float64Array;
  /** Sum of the weights, in weight order. */
  readonly total: number;
  /** 0 renormalise, 1 zero, 2 nan (see policyCode). */
  readonly policy: number;
}

const asScore: Scorer = (x) => x;
const zero: Scorer = () => 0;

/**
 * The scorer used for a component: the identity for a column of scores (null),
 * else `f` under the rule "a NaN value scores NaN" ({@link scoringNaNAsNaN}).
 * @internal
 */
export function scorerOf(f: Scorer | null): Scorer {
  return f === null ? asScore : scoringNaNAsNaN(f);
}

/**
 * Resolve a composite model for {@link fuseComposite}: one entry per component in
 * weight order, `fns[j]` its scorer or null when column j already holds scores.
 * @param block rows per block (the composite buffer's length), >= 1
 * @internal
 */
export function fusedModel(
  cols: readonly Float64Array[],
  fns: readonly (Scorer | null)[],
  weights: Float64Array,
  total: number,
  policy: number,
  block: number,
): FusedModel {
  const k = cols.length;
  const scorers = fns.map(scorerOf);
  const groups: Group[] = [];
  for (let a = 0; a < k; a += SLOTS) {
    const slot = (s: number): Slot =>
      a + s < k
        ? { v: cols[a + s] as Float64Array, f: scorers[a + s] as Scorer, w: weights[a + s] as number }
        : { v: cols[a] as Float64Array, f: zero, w: 0 };
    groups.push(new Group([slot(0), slot(1), slot(2), slot(3), slot(4)]));
  }
  const row = cols.map(() => new Float64Array(1));
  return { groups, block, composite: new Float64Array(block), cols, fns: scorers, row, weights, total, policy };
}

/**
 * The weighted sums of rows lo..hi-1 (at most `m.block` of them): `m.composite[r]`
 * for row lo + r, the composite itself wherever it is not NaN; a NaN is a row
 * with a score missing (or a NaN sum), whose composite is {@link compositeRowAt}.
 *
 * The scorers are those of scorers.ts, each called from its own slot of one row
 * loop (so the JIT inlines a default scorer at its monomorphic call site: a
 * specialisation, not a copy); a NaN value scores NaN. Each row adds weight x
 * score in weight order to a sum started at 0, so a row with every score present
 * is the plain weighted sum (what compositeAt gives, the weights present summing
 * to the total). Every column is read once, and nothing but the sums is written
 * (no score buffers: their stores cost the loop as much as the scoring).
 * @internal
 */
export function fuseComposite(m: FusedModel, lo: number, hi: number): void {
  const c = m.composite;
  c.fill(0, 0, hi - lo);
  const groups = m.groups;
  for (let g = 0; g < groups.length; g++) addGroup(groups[g] as Group, c, lo, hi);
}

/**
 * The composite of row i by the row rule, compositeAt (policy, renormalisation),
 * from that row's scores: for the rows whose sum {@link fuseComposite} left NaN.
 * @internal
 */
export function compositeRowAt(m: FusedModel, i: number): number {
  const { cols, fns, row } = m;
  for (let j = 0; j < cols.length; j++) (row[j] as Float64Array)[0] = (fns[j] as Scorer)((cols[j] as Float64Array)[i] as number);
  return compositeAt(row, m.weights, m.total, m.policy, 0);
}

/**
 * The composite's weighted sum as source text, the one definition of its order: `start`,
 * then + weight x score of each component in weight order, added left to right
 * (`((start + w0 * s0) + w1 * s1) + ...`). A row's sum starts at 0, so it is never -0.
 * fuseComposite's row loop is compiled from it, and so is the sweep's generated loop
 * (research/variantPass.ts), which sums each weight vector's scores once per bar.
 * @example weightedSumSource("0", [["w0", "s0"], ["w1", "s1"]]) // "0 + w0 * s0 + w1 * s1"
 * @internal
 */
export function weightedSumSource(start: string, terms: readonly (readonly [weight: string, score: string])[]): string {
  return [start, ...terms.map(([w, x]) => `${w} * ${x}`)].join(" + ");
}

/** One group over rows lo..hi-1: add weight x score of each slot, in slot order, to the row's sum. */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- compiled from weightedSumSource, this folder's one definition of the sum
const addGroup = new Function(
  "g",
  "sum",
  "lo",
  "hi",
  `"use strict";
  const { v0, v1, v2, v3, v4, f0, f1, f2, f3, f4, w0, w1, w2, w3, w4 } = g;
  for (let i = lo, r = 0; i < hi; i++, r++) {
    sum[r] = ${weightedSumSource("sum[r]", [0, 1, 2, 3, 4].map((s) => [`w${s}`, `f${s}(v${s}[i])`] as const))};
  }`,
) as (g: Group, sum: Float64Array, lo: number, hi: number) => void;

/**
 * The labels of rows lo..hi-1 written into `out[o ..]` (labelCode of each row's composite at
 * `threshold`: 1 buy, -1 sell, 0 neutral), with no composite buffer: for a model of one group (up
 * to five components, the service's model) one row loop sums weight x score exactly as
 * {@link fuseComposite} does (compiled from the same {@link weightedSumSource}, started at 0) and
 * labels the sum in place; a NaN sum (a score missing) is labelled from {@link compositeRowAt}.
 * A model of more groups is fused into `m.composite` block by block, then labelled.
 * Call it over blocks of rows (replayComposite's label column does), so the row loop is
 * compiled from calls rather than by on-stack replacement.
 * @internal
 */
export function fuseLabels(m: FusedModel, lo: number, hi: number, out: Int8Array, o: number, threshold: number): void {
  if (!labelRulePrimed) primeLabelRule();
  if (m.groups.length === 1) {
    labelGroup(m.groups[0] as Group, m, lo, hi, out, o, threshold);
    return;
  }
  for (let a = lo; a < hi; a += m.block) {
    const b = Math.min(hi, a + m.block);
    fuseComposite(m, a, b);
    const c = m.composite;
    for (let r = 0, at = o + (a - lo); r < b - a; r++) {
      const x = c[r] as number;
      out[at + r] = labelCode(x === x ? x : compositeRowAt(m, a + r), threshold);
    }
  }
}

let labelRulePrimed = false;
/**
 * The label rule run over a buy, a sell and a neutral score before the first label loop, so the
 * rule's feedback (which the optimised loop inlines) holds all three outcomes: otherwise the data's
 * first sell label, often thousands of rows in, deoptimises the loop just optimised, and V8 may
 * leave it running its slower on-stack-replacement code for the rest of the process (the slow
 * mode of issue 32, seen in 2 of 3 fresh processes; backtest/kernel/primingBars.ts). V8 records
 * feedback only after a function's first calls, hence the rounds.
 */
function primeLabelRule(): void {
  let s = 0;
  for (let k = 0; k < 64; k++) s += labelCode(0.75, 0.1) + labelCode(-0.75, 0.1) + labelCode(0, 0.1) + labelCode(0.05, 0.1) + labelCode(-0.05, 0.1);
  labelRulePrimed = s === 0;
}

/**
 * One group's labels over rows lo..hi-1 into out[o ..]: addGroup's sum from 0, labelled in the same
 * loop (fuseLabels). A NaN sum (a score missing) is written as the sentinel NAN_ROW there (no label is
 * 2) and the block flagged; a flagged block is walked once more over `out` alone, and each sentinel
 * replaced by the label of the row rule (compositeRowAt): the group's scorers run once per row, and the
 * row rule once per NaN row (the block was scored twice before, ~30 % of the column's time at 2 % of
 * rows missing). The sentinel is written by a select (`x === x ? labelCode(x) : 2`): an `if` around
 * the store, or a counter of NaN rows, measured ~4 ms slower over 2e6 rows without NaN. The row rule's call kept out of the hot loop makes the
 * label column ~15 % faster (2e6 rows, best of 30 calls: 26.3-31.8 -> 22.4-22.9 ms; docs/benchmarks.md):
 * V8 no longer keeps the call's frame state (every column, scorer and weight) live through each row.
 */
/** labelGroup's mark of a row whose sum is NaN, until the row rule labels it: no label (-1, 0, 1) is 2. */
const NAN_ROW = 2;
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- compiled from weightedSumSource, this folder's one definition of the sum
const labelGroup = new Function(
  "labelCode",
  "compositeRowAt",
  `"use strict";
  return function labelGroup(g, m, lo, hi, out, o, threshold) {
    const { v0, v1, v2, v3, v4, f0, f1, f2, f3, f4, w0, w1, w2, w3, w4 } = g;
    let missing = false;
    for (let i = lo, r = o; i < hi; i++, r++) {
      const x = ${weightedSumSource("0", [0, 1, 2, 3, 4].map((s) => [`w${s}`, `f${s}(v${s}[i])`] as const))};
      if (x !== x) missing = true;
      out[r] = x === x ? labelCode(x, threshold) : ${NAN_ROW};
    }
    if (!missing) return;
    for (let i = lo, r = o; i < hi; i++, r++) if (out[r] === ${NAN_ROW}) out[r] = labelCode(compositeRowAt(m, i), threshold);
  };`,
)(labelCode, compositeRowAt) as (g: Group, m: FusedModel, lo: number, hi: number, out: Int8Array, o: number, threshold: number) => void;

/**
 * Score whole columns: `outs[j][i]` = the score of `cols[j][i]` by `fns[j]` under
 * the rule "a NaN value scores NaN" (the replay's score columns). Five columns
 * per loop over the rows, a slot each, so the JIT inlines a default scorer at its
 * slot's call site as in {@link fuseComposite}; a slot past the last column repeats
 * the group's first one (the same score written twice to the same place).
 * @internal
 */
export function scoreColumns(cols: readonly Float64Array[], fns: readonly Scorer[], outs: readonly Float64Array[]): void {
  const k = cols.length;
  for (let a = 0; a < k; a += SLOTS) {
    const j = (s: number) => (a + s < k ? a + s : a);
    const [j0, j1, j2, j3, j4] = [j(0), j(1), j(2), j(3), j(4)];
    scoreGroup(
      cols[j0] as Float64Array, cols[j1] as Float64Array, cols[j2] as Float64Array, cols[j3] as Float64Array, cols[j4] as Float64Array,
      scorerOf(fns[j0] as Scorer), scorerOf(fns[j1] as Scorer), scorerOf(fns[j2] as Scorer), scorerOf(fns[j3] as Scorer), scorerOf(fns[j4] as Scorer),
      outs[j0] as Float64Array, outs[j1] as Float64Array, outs[j2] as Float64Array, outs[j3] as Float64Array, outs[j4] as Float64Array,
    );
  }
}

function scoreGroup(
  v0: Float64Array, v1: Float64Array, v2: Float64Array, v3: Float64Array, v4: Float64Array,
  f0: Scorer, f1: Scorer, f2: Scorer, f3: Scorer, f4: Scorer,
  o0: Float64Array, o1: Float64Array, o2: Float64Array, o3: Float64Array, o4: Float64Array,
): void {
  for (let i = 0; i < v0.length; i++) {
    o0[i] = f0(v0[i] as number);
    o1[i] = f1(v1[i] as number);
    o2[i] = f2(v2[i] as number);
    o3[i] = f3(v3[i] as number);
    o4[i] = f4(v4[i] as number);
  }
}
