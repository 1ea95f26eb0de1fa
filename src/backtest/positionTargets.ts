import type { VariantSignalSource } from "./kernel/spanLoop.js";
import { inlineExpression, numberSource } from "./kernel/inlineExpression.js";
import { labelValue, signalSide, type TargetRule } from "./targetPositions.js";
import { columnLike } from "./kernel/primingBars.js";
import { kindOf, primingRuleColumns, PRIMING_SIGNS, targetRuleBar, targetRuleKey, targetRulePrologue, targetRuleSource } from "./targetRuleSource.js";

/**
 * The signal of a generated loop (VariantSignalSource) for a column of target positions (backtest's
 * `position` with no latency): per bar the position read as a number (NaN: flat), then sized, filtered,
 * capped and carried as targetsInto has it (targetRuleSource: the target rule's own one-expression
 * functions, their text written in place), so the loop gives the numbers of targetsInto then
 * carryOnMissingPrice, bit for bit, without their block buffer. The loop is compiled once per kind
 * of column (a Float64Array, an Int8Array, a plain array...: the key names its constructor).
 * @internal
 */
export function positionTargets(position: ArrayLike<number>, rule: TargetRule): { signal: VariantSignalSource & { key: string }; params: PositionParams } {
  const prologue = `const POS = P.position; ${targetRulePrologue(rule)} let target0 = P.sig[0]; let cappedBars = 0;`;
  const bar = `const price = close_i; ${targetRuleBar(rule)} { let w = +POS[i]; if (w !== w) w = 0; ${targetRuleSource("w", "target0", rule)} }`;
  const epilogue = "P.sig[0] = target0; P.capped[0] += cappedBars;";
  const params = new PositionParams(position, new Float64Array(1), new Float64Array(1), rule.scale, rule.volTarget, rule.flatWhen);
  // Priming (kernel/primingBars.ts): a column of the same kind holding the priming bars' signs.
  const priming = (): PositionParams => {
    const { scale, flatWhen } = primingRuleColumns(rule);
    return new PositionParams(columnLike(position, PRIMING_SIGNS), new Float64Array(1), new Float64Array(1), scale, rule.volTarget, flatWhen);
  };
  return { signal: { key: `position|${kindOf(position)}|${targetRuleKey(rule)}`, prologue, bar, epilogue, target: () => "target0", priming }, params };
}

/**
 * The signal of a generated loop for a column of signal values (backtest's `signal` as an array:
 * numbers, > 0 buy, < 0 sell, else neutral, or "buy" / "sell" / "neutral"), with no latency: per bar
 * the value (a label string through labelValue, which throws on anything else), the held side
 * (signalSide, its options written as literals), side x size, then sized, filtered, capped and
 * carried (targetRuleSource): targetsInto's numbers, bit for bit, without its block buffer.
 * @internal
 */
export function signalColumnTargets(signal: ArrayLike<number | string>, rule: TargetRule): { signal: VariantSignalSource & { key: string }; params: PositionParams } {
  const prologue = `const SIG = P.position, labelOf = P.labelOf, labelWhere = P.where; ${targetRulePrologue(rule)} let target0 = P.sig[0], side0 = P.sig[1]; let cappedBars = 0;`;
  const side = inlineExpression(signalSide, ["sg", "side0", String(rule.shorts), String(rule.holdOnNeutral)]);
  const bar = `const price = close_i; ${targetRuleBar(rule)} { const raw = SIG[i]; const sg = typeof raw === "number" ? raw : labelOf(raw, i, labelWhere); side0 = ${side}; let w = side0 * ${numberSource(rule.size)}; ${targetRuleSource("w", "target0", rule)} }`;
  const epilogue = "P.sig[0] = target0; P.sig[1] = side0; P.capped[0] += cappedBars;";
  const params = new PositionParams(signal as ArrayLike<number>, new Float64Array(2), new Float64Array(1), rule.scale, rule.volTarget, rule.flatWhen, labelValue, rule.where);
  // Priming (kernel/primingBars.ts): the priming bars' signs, as labels when the column holds labels.
  const priming = (): PositionParams => {
    const { scale, flatWhen } = primingRuleColumns(rule);
    let labels = false;
    for (let i = 0; i < Math.min(64, signal.length); i++) labels ||= typeof signal[i] === "string";
    const column = labels ? PRIMING_SIGNS.map((x) => (x > 0 ? "buy" : x < 0 ? "sell" : "neutral")) : columnLike(signal, PRIMING_SIGNS);
    return new PositionParams(column as ArrayLike<number>, new Float64Array(2), new Float64Array(1), scale, rule.volTarget, flatWhen, labelValue, rule.where);
  };
  return { signal: { key: `signal|${kindOf(signal)}|${rule.shorts}|${rule.holdOnNeutral}|${rule.size}|${targetRuleKey(rule)}`, prologue, bar, epilogue, target: () => "target0", priming }, params };
}

/**
 * The parameters of a position loop (its source's `P`): a class, not an object literal, whose
 * field types V8 would generalise on a later call and so deoptimise the loop (as compositeTargets'
 * CompositeParams).
 */
class PositionParams {
  constructor(
    readonly position: ArrayLike<number>,
    readonly sig: Float64Array,
    readonly capped: Float64Array,
    readonly scale: ArrayLike<number> | undefined,
    readonly volTarget: number,
    readonly flatWhen: ArrayLike<number | boolean> | undefined,
    /**
     * A signal column's label strings to numbers (signalColumnTargets): labelValue itself, with the
     * caller's name apart (a closure made per run was a new call target for the loop each run: a deoptimisation).
     */
    readonly labelOf: ((raw: unknown, i: number, where: string) => number) | undefined = undefined,
    readonly where: string = "",
  ) {}
}
