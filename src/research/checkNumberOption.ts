import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** The allowed range of a numeric option. @internal */
export interface NumberRule {
  /** Smallest allowed value (inclusive unless `minExclusive`). */
  readonly min?: number;
  readonly minExclusive?: boolean;
  /** Largest allowed value (inclusive unless `maxExclusive`). */
  readonly max?: number;
  readonly maxExclusive?: boolean;
  /** Must be an integer. */
  readonly integer?: boolean;
  /** What a good value looks like, appended to the message, e.g. "0.95 for 95 %". */
  readonly hint?: string;
}

/**
 * Check one numeric option of a research function and return it; the
 * message names the function, the option, the rule and the value received.
 * Always finite.
 * @throws InvalidArgumentError when the value breaks the rule
 * @internal
 */
export function checkNumberOption(value: unknown, name: string, where: string, rule: NumberRule = {}): number {
  const v = value as number;
  const ok =
    typeof value === "number" &&
    Number.isFinite(v) &&
    (!rule.integer || Number.isInteger(v)) &&
    (rule.min === undefined || (rule.minExclusive ? v > rule.min : v >= rule.min)) &&
    (rule.max === undefined || (rule.maxExclusive ? v < rule.max : v <= rule.max));
  if (ok) return v;
  const kind = rule.integer ? "an integer" : "a finite number";
  const lo = rule.min === undefined ? "" : `${rule.minExclusive ? ">" : "≥"} ${rule.min}`;
  const hi = rule.max === undefined ? "" : `${rule.maxExclusive ? "<" : "≤"} ${rule.max}`;
  const range = [lo, hi].filter(Boolean).join(" and ");
  const hint = rule.hint ? ` (${rule.hint})` : "";
  throw new InvalidArgumentError(name, `${where}: ${name} must be ${kind}${range ? ` ${range}` : ""}${hint}, got ${String(value)}`);
}
