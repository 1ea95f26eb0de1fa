import { inlineExpression, numberSource } from "./kernel/inlineExpression.js";
import { columnLike, PRIMING } from "./kernel/primingBars.js";
import { capBound, cappedTarget, carriedTarget, confidenceSized, volatilitySized, type TargetRule } from "./targetPositions.js";

/**
 * The target rule's steps after the raw target, as source text for a generated loop, in
 * targetsInto's order: the local `w` sized (confidenceSized or volatilitySized by the sizing
 * column at bar i, `scale_i`), 0 where the regime filter's `flatBar` is truthy, capped at the
 * leverage (cappedTarget; capBound counts the bars it bound into `cappedBars`) and carried over a
 * bar without a price (carriedTarget, the close `price`) into `target`: each rule's one-expression
 * function written in place (inlineExpression). The loop's prologue declares what the text reads
 * ({@link targetRulePrologue}) and its bar reads `scale_i` and `flatBar` ({@link targetRuleBar}).
 * @internal
 */
export function targetRuleSource(w: string, target: string, rule: TargetRule): string {
  const sized =
    rule.sizing === 1
      ? `${w} = ${inlineExpression(confidenceSized, [w, "scale_i"])};`
      : rule.sizing === 2
        ? `${w} = ${inlineExpression(volatilitySized, [w, "scale_i", "volTarget"])};`
        : "";
  const flat = rule.flatWhen === undefined ? "" : `if (flatBar) ${w} = 0;`;
  return `${sized} ${flat} { const c = ${inlineExpression(cappedTarget, [w, numberSource(rule.maxLeverage)])}; cappedBars += ${inlineExpression(capBound, [w, "c"])}; ${target} = ${inlineExpression(carriedTarget, ["c", "price", "i", target])}; }`;
}

/** What {@link targetRuleSource}'s text reads, declared once before the loop: the sizing column and target, the filter (from the loop's `P`). @internal */
export function targetRulePrologue(rule: TargetRule): string {
  return `${rule.sizing === 0 ? "" : "const SC = P.scale, volTarget = P.volTarget;"} ${rule.flatWhen === undefined ? "" : "const FW = P.flatWhen;"}`;
}

/** The sizing column and the filter at bar i, read once per bar for every account. @internal */
export function targetRuleBar(rule: TargetRule): string {
  return `${rule.sizing === 0 ? "" : "const scale_i = SC[i];"} ${rule.flatWhen === undefined ? "" : "const flatBar = FW[i];"}`;
}

/** The part of a loop's key that names what the rule's text depends on (beyond the constants written in it). @internal */
export function targetRuleKey(rule: TargetRule): string {
  return `${rule.sizing}${rule.scale === undefined ? "" : `:${kindOf(rule.scale)}`}|${rule.flatWhen === undefined ? "" : `flat:${kindOf(rule.flatWhen)}`}|${rule.maxLeverage}`;
}

/** The kind of a column (its constructor's name: a loop is compiled per kind of array it reads). @internal */
export function kindOf(column: object): string {
  return (Object.getPrototypeOf(column) as { constructor?: { name?: string } } | null)?.constructor?.name ?? "object";
}

/**
 * The parameters of a loop's target rule over the priming bars (kernel/primingBars.ts): a sizing
 * column of 1s and a regime filter of 0s (never flat), each of the kind the run reads (columnLike),
 * so the same loop. @internal
 */
export function primingRuleColumns(rule: TargetRule): { readonly scale: ArrayLike<number> | undefined; readonly flatWhen: ArrayLike<number | boolean> | undefined } {
  const m = PRIMING.length;
  return {
    scale: rule.scale === undefined ? undefined : columnLike(rule.scale, new Array<number>(m).fill(1)),
    flatWhen: rule.flatWhen === undefined ? undefined : columnLike(rule.flatWhen, new Array<number>(m).fill(0)),
  };
}

/** The priming bars' target signs (+1, -1, 0), as a position or signal column's values. @internal */
export const PRIMING_SIGNS: readonly number[] = PRIMING.map(([x]) => Math.sign(x));
