import { kindOf } from "./compositeTargets.js";
import { inlineExpression } from "./kernel/inlineExpression.js";
import type { VariantSignalSource } from "./kernel/spanLoop.js";
import { capBound, cappedTarget, carriedTarget, type TargetRule } from "./targetPositions.js";

/**
 * The signal of a generated loop (VariantSignalSource) for a column of target positions (backtest's
 * `position` with no latency or sizing): per bar the position read as a number (NaN: flat), 0 where the
 * regime filter `flatWhen` is truthy, capped at the leverage (cappedTarget, the bars it bound counted by capBound) and carried
 * over a bar without a price (carriedTarget): the target rule's own one-expression functions, their
 * text written in place (inlineExpression), so the loop gives the numbers of targetsInto then
 * carryOnMissingPrice, bit for bit, without their block buffer. The loop is compiled once per kind
 * of column (a Float64Array, an Int8Array, a plain array...: the key names its constructor).
 * @internal
 */
export function positionTargets(position: ArrayLike<number>, rule: TargetRule): { signal: VariantSignalSource & { key: string }; params: PositionParams } {
  // The regime filter, as targetsInto has it: 0 where flatWhen[i] is truthy, before the cap.
  const flat = rule.flatWhen;
  const prologue = `const POS = P.position, maxLeverage = P.maxLeverage;${flat === undefined ? "" : " const FW = P.flatWhen;"} let target0 = P.sig[0]; let cappedBars = 0;`;
  const bar = `{
    let w = +POS[i];
    if (w !== w) w = 0;${flat === undefined ? "" : " if (FW[i]) w = 0;"}
    const c = ${inlineExpression(cappedTarget, ["w", "maxLeverage"])};
    cappedBars += ${inlineExpression(capBound, ["w", "c"])};
    target0 = ${inlineExpression(carriedTarget, ["c", "close_i", "i", "target0"])};
  }`;
  const epilogue = "P.sig[0] = target0; P.capped[0] += cappedBars;";
  const params = new PositionParams(position, rule.maxLeverage, new Float64Array(1), new Float64Array(1), flat);
  return { signal: { key: `position|${kindOf(position)}${flat === undefined ? "" : `|flat:${kindOf(flat)}`}`, prologue, bar, epilogue, target: () => "target0" }, params };
}

/**
 * The parameters of a position loop (its source's `P`): a class, not an object literal, whose
 * field types V8 would generalise on a later call and so deoptimise the loop (as compositeTargets'
 * CompositeParams).
 */
class PositionParams {
  constructor(
    readonly position: ArrayLike<number>,
    readonly maxLeverage: number,
    readonly sig: Float64Array,
    readonly capped: Float64Array,
    readonly flatWhen: ArrayLike<number | boolean> | undefined,
  ) {}
}
