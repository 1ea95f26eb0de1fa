import { DEFAULT_SCORERS, EXTRA_SCORERS, type Scorer } from "./scorers.js";

/**
 * Score each component value with its scorer (the defaults of docs/DESIGN.md and
 * the extra components' EXTRA_SCORERS unless replaced). Components without a scorer are left out; a NaN value
 * scores NaN.
 * @param values raw component values, e.g. `{ imbalance: 0.63, funding: 0.0000048, ... }`
 * @param scorers per-component scorer overrides, merged over DEFAULT_SCORERS and EXTRA_SCORERS
 * @example scoreComponents({ imbalance: 0.6305, momentum_5m: 0.356 }) // { imbalance: 0.261, momentum_5m: 0.178 }
 */
export function scoreComponents(
  values: Readonly<Record<string, number>>,
  scorers: Readonly<Record<string, Scorer>> = {},
): Record<string, number> {
  const all: Readonly<Record<string, Scorer>> = { ...DEFAULT_SCORERS, ...EXTRA_SCORERS, ...scorers };
  const out: Record<string, number> = {};
  for (const name of Object.keys(values)) {
    const f = all[name];
    if (f === undefined) continue;
    const v = values[name] as number;
    out[name] = Number.isNaN(v) ? Number.NaN : f(v);
  }
  return out;
}
