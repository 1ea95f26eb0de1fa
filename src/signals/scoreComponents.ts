import { checkOptionsObject } from "../errors/checkOptionsObject.js";
import { DEFAULT_SCORERS, EXTRA_SCORERS, scoringNaNAsNaN, type Scorer } from "./scorers.js";

/**
 * Score each component value with its scorer (the defaults of docs/DESIGN.md and
 * the extra components' EXTRA_SCORERS unless replaced). Components without a scorer are left out; a NaN value
 * scores NaN.
 * @param values raw component values, e.g. `{ imbalance: 0.63, funding: 0.0000048, ... }`
 * @param options.scorers per-component scorer overrides, merged over DEFAULT_SCORERS and EXTRA_SCORERS
 * @throws InvalidArgumentError when options is not an object
 * @example scoreComponents({ imbalance: 0.6305, momentum_5m: 0.356 }) // { imbalance: 0.261, momentum_5m: 0.178 }
 */
export function scoreComponents(
  values: Readonly<Record<string, number>>,
  options?: { readonly scorers?: Readonly<Record<string, Scorer>> },
): Record<string, number> {
  checkOptionsObject(options, "scoreComponents", "scoreComponents(values, { scorers: { imbalance: (v) => 2 * v - 1 } })");
  const scorers = options?.scorers ?? {};
  const all: Readonly<Record<string, Scorer>> = { ...DEFAULT_SCORERS, ...EXTRA_SCORERS, ...scorers };
  const out: Record<string, number> = {};
  for (const name of Object.keys(values)) {
    const f = all[name];
    if (f === undefined) continue;
    out[name] = scoringNaNAsNaN(f)(values[name] as number);
  }
  return out;
}
