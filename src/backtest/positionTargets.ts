import type { VariantSignalSource } from "./kernel/spanLoop.js";
import type { TargetRule } from "./targetPositions.js";
import { kindOf, targetRuleBar, targetRuleKey, targetRulePrologue, targetRuleSource } from "./targetRuleSource.js";

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
  return { signal: { key: `position|${kindOf(position)}|${targetRuleKey(rule)}`, prologue, bar, epilogue, target: () => "target0" }, params };
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
  ) {}
}
