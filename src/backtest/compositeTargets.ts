import { labelCode } from "../signals/classifySignal.js";
import { compositeRowAt, fusedModel, scorerOf, weightedSumSource } from "../signals/fuseComposite.js";
import type { Scorer } from "../signals/scorers.js";
import { inlineExpression } from "./kernel/inlineExpression.js";
import type { VariantSignalSource } from "./kernel/spanLoop.js";
import { cappedTarget, carriedTarget, signalSide, type TargetRule } from "./targetPositions.js";

/**
 * Composite strategies whose targets a generated loop computes bar by bar (kernel/runVariants):
 * component columns (each scored by its scorer, or already scores), one or more weight vectors
 * over them, and accounts, each labelling one vector's composite at its own threshold and
 * following the target rule. @internal
 */
export interface CompositeTargets {
  /** Component columns, and the scorer of each (null: the column holds scores). */
  readonly cols: readonly Float64Array[];
  readonly fns: readonly (Scorer | null)[];
  /** Each weight vector: the indexes of its components in `cols`, in its key order, and their weights. */
  readonly vectors: readonly { readonly order: readonly number[]; readonly weights: readonly number[] }[];
  /** The missing-score policy code (policyCode). */
  readonly policy: number;
  /** Each account's weight vector (an index into `vectors`) and label threshold. */
  readonly of: readonly number[];
  readonly thresholds: readonly number[];
  /** The target rule (resolveTargets) of every account: a signal, fixed sizing, no regime filter. */
  readonly rule: TargetRule;
}

/**
 * The signal of a generated loop (VariantSignalSource) and its parameters for composite
 * targets: per bar, each column read (and scored) once, each vector's composite summed once
 * by its one definition (weightedSumSource in its key order; a row with a score missing by
 * the row rule, compositeRowAt, under the policy), then for each account its label
 * (labelCode), held side (signalSide), size, leverage cap (cappedTarget, bars it bound counted)
 * and target carried over a bar without a price (carriedTarget): the target rule's own
 * functions, their expressions written in place (inlineExpression). The same numbers as the
 * replay's streamed labels through targetsInto and carryOnMissingPrice, bit for bit.
 * @internal
 */
export function compositeTargets(c: CompositeTargets): { signal: VariantSignalSource & { key: string }; params: { readonly sig: Float64Array; readonly capped: Float64Array } } {
  const { cols, fns, vectors, of, thresholds, rule } = c;
  const k = cols.length;
  const accounts = of.length;
  const range = (m: number): number[] => Array.from({ length: m }, (_, x) => x);
  const W = vectors.flatMap((v) => [...v.weights]);
  const at = vectors.map((_, g) => vectors.slice(0, g).reduce((a, v) => a + v.order.length, 0));
  const rows = vectors.map((v) => {
    let total = 0;
    for (const w of v.weights) total += w;
    const m = fusedModel(v.order.map((j) => cols[j] as Float64Array), v.order.map((j) => fns[j] ?? null), Float64Array.from(v.weights), total, c.policy, 1);
    return (i: number): number => compositeRowAt(m, i);
  });
  const scorers = fns.map((f) => (f === null ? null : scorerOf(f)));
  const prologue = `
    ${range(k).map((j) => `const col${j} = P.cols[${j}]; ${scorers[j] === null ? "" : `const fn${j} = P.scorers[${j}];`}`).join(" ")}
    ${vectors.map((v, g) => `const row${g} = P.rows[${g}]; ${v.order.map((_, j) => `const W${g}_${j} = P.W[${(at[g] as number) + j}];`).join(" ")}`).join("\n")}
    ${range(accounts).map((s) => `const thr${s} = P.thresholds[${s}]; let side${s} = P.sig[${2 * s}], target${s} = P.sig[${2 * s + 1}];`).join("\n")}
    let cappedBars = 0;`;
  const bar = `
    ${range(k).map((j) => (scorers[j] === null ? `const x${j} = col${j}[i];` : `const x${j} = fn${j}(col${j}[i]);`)).join(" ")}
    ${vectors.map((v, g) => `let cmp${g} = ${weightedSumSource("0", v.order.map((j, t) => [`W${g}_${t}`, `x${j}`] as const))}; if (cmp${g} !== cmp${g}) cmp${g} = row${g}(i);`).join("\n")}
    const price = close0[i];
    ${range(accounts)
      .map(
        (s) =>
          `{ const label = ${inlineExpression(labelCode, [`cmp${of[s]}`, `thr${s}`])}; ` +
          `side${s} = ${inlineExpression(signalSide, ["label", `side${s}`, `${rule.shorts}`, `${rule.holdOnNeutral}`])}; ` +
          `const w = side${s} * ${rule.size}; const capped = ${inlineExpression(cappedTarget, ["w", `${rule.maxLeverage}`])}; ` +
          `if (capped !== w && w === w) cappedBars++; ` +
          `target${s} = ${inlineExpression(carriedTarget, ["capped", "price", "i", `target${s}`])}; }`,
      )
      .join("\n")}`;
  const epilogue = `${range(accounts).map((s) => `P.sig[${2 * s}] = side${s}; P.sig[${2 * s + 1}] = target${s};`).join(" ")} P.capped[0] += cappedBars;`;
  const key = `composite|${scorers.map((f) => (f === null ? "s" : "v")).join("")}|${vectors.map((v) => v.order.join(",")).join(";")}|${of.join(",")}|${rule.shorts}|${rule.holdOnNeutral}|${rule.size}|${rule.maxLeverage}`;
  const params = { cols, scorers, W: Float64Array.from(W), rows, thresholds: Float64Array.from(thresholds), sig: new Float64Array(2 * accounts), capped: new Float64Array(1) };
  return { signal: { key, prologue, bar, epilogue, target: (s) => `target${s}` }, params };
}
