import { z } from "zod";
import { checkOptionsObject } from "../errors/checkOptionsObject.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { refuseRenamedOptions } from "../errors/refuseRenamedOptions.js";
import { nearestName } from "./nearestName.js";
import type { OptionSpec, OptionSpecs } from "./OptionSpec.js";
import { strategyParametersOf } from "./strategyParameters.js";

/** How a public options object is checked where it enters (see {@link checkOptions}). */
export interface OptionsCheck {
  /** The function's name, for the messages. */
  readonly where: string;
  /** Every option it takes. */
  readonly specs: OptionSpecs;
  /** A correct call, shown when the options are not an object, e.g. `"backtest({ close, position })"`. */
  readonly example: string;
  /** Options renamed in an earlier version: old name -> the new one (and how the value changes). */
  readonly renamed?: Readonly<Record<string, string>>;
  /** The function cannot run without them (`backtest`, the sweeps): undefined is refused here too, with `example`. */
  readonly required?: boolean;
}

/**
 * Check a public options object once, where it enters, by one strict schema (zod, built from
 * `specs`), and return it resolved for the inner functions to trust:
 * - not an object (or, when `required`, absent): refused with a correct call (checkOptionsObject);
 * - a renamed option: refused with its new name (refuseRenamedOptions);
 * - an unknown key: refused with the nearest valid name by edit distance
 *   (`backtest: unknown option stoploss; did you mean stopLoss?`), every unknown key named;
 * - a number in the wrong scale (see {@link OptionSpec.scale}): refused with the value probably
 *   meant (`stopLoss: 3` -> `did you mean stopLoss: 0.03?`);
 * - `null` and `undefined` mean unset: such keys are dropped, so the option takes its default
 *   (a sweep's `best().params` hands back null for an option its grid left unset);
 * - keys a sweep marked as its strategy's own parameters (STRATEGY_PARAMETERS, carried by a
 *   spread of `best().params`) are dropped: they set nothing here.
 * Only keys and scales are checked here; each option's range and type is checked by the
 * function that resolves it (e.g. resolveExecution), once.
 * @returns a copy without the unset and the strategy's keys (undefined stays undefined)
 * @throws InvalidArgumentError naming the function, the key and the fix
 * @example checkOptions({ stoploss: 0.03 }, backtestCheck) // throws: backtest: unknown option stoploss; did you mean stopLoss?
 * @internal
 */
export function checkOptions<T>(options: T, check: OptionsCheck): T {
  const { where, specs } = check;
  checkOptionsObject(options, where, check.example);
  if (options === undefined) {
    if (check.required === true) throw new InvalidArgumentError("options", `${where}: options are required, e.g. ${check.example}`);
    return options;
  }
  if (check.renamed !== undefined) refuseRenamedOptions(options as object, where, check.renamed);
  const theirs = new Set(strategyParametersOf(options as object));
  const given: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options as object)) {
    if (value === null || value === undefined) continue;
    if (theirs.has(key) && !Object.prototype.hasOwnProperty.call(specs, key)) continue;
    given[key] = value;
  }
  const parsed = schemaOf(specs).safeParse(given);
  if (!parsed.success) throw optionsError(parsed.error.issues, check);
  return given as T;
}

/** One strict object schema per spec table, built on first use. */
const SCHEMAS = new WeakMap<OptionSpecs, z.ZodType>();

function schemaOf(specs: OptionSpecs): z.ZodType {
  let schema = SCHEMAS.get(specs);
  if (schema === undefined) {
    const shape: Record<string, z.ZodType> = {};
    for (const [name, spec] of Object.entries(specs)) {
      shape[name] =
        spec.scale === undefined
          ? z.unknown()
          : z.unknown().superRefine((value, ctx) => {
              const meant = scaleMistake(name, value, spec);
              if (meant !== undefined) ctx.addIssue({ code: "custom", message: meant });
            });
    }
    schema = z.strictObject(shape);
    SCHEMAS.set(specs, schema);
  }
  return schema;
}

/** The issues of the strict schema as one typed error: every unknown key with its nearest valid name, or the scale mistake. */
function optionsError(issues: readonly z.core.$ZodIssue[], check: OptionsCheck): InvalidArgumentError {
  const names = Object.keys(check.specs);
  const parts: string[] = [];
  let first: string | undefined;
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        first ??= key;
        const near = nearestName(key, names);
        parts.push(near !== undefined ? `unknown option ${key}; did you mean ${near}?` : `unknown option ${key}; the options are ${names.join(", ")}`);
      }
    } else {
      first ??= String(issue.path[0] ?? "options");
      parts.push(issue.message);
    }
  }
  return new InvalidArgumentError(first ?? "options", `${check.where}: ${parts.join("; ")}`);
}

/**
 * The message refusing `value` of option `name` as given in the wrong scale, with the value
 * probably meant, or undefined when it is in its scale (or not a number: its type is checked
 * where the option is resolved). A list is checked item by item.
 * @internal
 */
export function scaleMistake(name: string, value: unknown, spec: OptionSpec): string | undefined {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const m = scaleMistake(`${name}[${i}]`, value[i], spec);
      if (m !== undefined) return m;
    }
    return undefined;
  }
  if (typeof value !== "number" || !Number.isFinite(value)) return undefined;
  if (spec.scale === "fraction") {
    const max = spec.max ?? 1;
    const over = spec.maxExclusive === true ? value >= max : value > max;
    if (over && value <= 100) {
      return `${name} takes a ${spec.unit}, got ${value}, which reads as a percent: did you mean ${name}: ${round(value / 100)} (${value}%)?`;
    }
  } else if (spec.scale === "bps" && value > 0 && value < 0.01) {
    return `${name} takes basis points (1 bp = 0.01%: 5 for a 0.05% fee), got ${value}, which reads as a fraction: did you mean ${name}: ${round(value * 10_000)}?`;
  } else if (spec.scale === "ms" && value > 0 && value < 1000) {
    return `${name} takes milliseconds, got ${value}, which reads as seconds: did you mean ${name}: ${round(value * 1000)} (${value} s)?`;
  }
  return undefined;
}

/** x without the float noise of a scale change (0.0005 x 1e4 = 5.000000000000001 -> 5). */
function round(x: number): number {
  return Number(x.toPrecision(12));
}
