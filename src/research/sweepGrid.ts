import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { SWEEP_METRICS } from "./sweepMetrics.js";
import type { SweepValue } from "./SweepResult.js";

/**
 * A sweep's grid: parameter -> the values to try (every combination, the first parameter
 * outermost), or the list of parameter objects to try, in that order (each with the same keys).
 */
export type SweepGrid = Readonly<Record<string, readonly SweepValue[]>> | readonly Readonly<Record<string, SweepValue>>[];

/** A grid checked and laid out; plain data, so it can be posted to a worker thread. @internal */
export interface GridPlan {
  /** Parameter names, in column order. */
  readonly parameters: readonly string[];
  /** Cartesian form: the values of each parameter (variant v's value of parameter j is digit j of v, the last parameter fastest). */
  readonly lists: readonly (readonly SweepValue[])[] | undefined;
  /** List form: each variant's values, in parameter order. */
  readonly rows: readonly (readonly SweepValue[])[] | undefined;
  /** Number of variants. */
  readonly count: number;
}

/** Names a parameter cannot take: the table's own columns and what the strategy itself provides. */
const RESERVED = new Set<string>(["variant", ...SWEEP_METRICS, "position", "signal", "data", "time", "close", "open", "high", "low"]);

/** Most variants one grid may describe (a sweep's table holds 13 numbers per variant). */
const MAX_VARIANTS = 1e8;

function checkValue(name: string, value: unknown, where: string): SweepValue {
  if (typeof value === "number" && Number.isNaN(value)) {
    throw new InvalidArgumentError("grid", `${where}: grid parameter ${name} has the value NaN; use null to leave an option unset`);
  }
  if (value === null || typeof value === "number" || typeof value === "string" || typeof value === "boolean") return value;
  throw new InvalidArgumentError(
    "grid",
    `${where}: grid parameter ${name} has a value ${Array.isArray(value) ? "array" : typeof value === "object" ? "object" : String(value)}; values are numbers, strings, booleans or null (option unset). Name arrays (e.g. regime filters) and pick them by name`,
  );
}

function checkName(name: string, where: string): void {
  if (RESERVED.has(name)) {
    throw new InvalidArgumentError(
      "grid",
      `${where}: grid parameter ${name} is reserved (${name === "variant" || (SWEEP_METRICS as readonly string[]).includes(name) ? "a column of the sweep's table" : "the strategy provides it"}); rename it`,
    );
  }
}

/**
 * Check a grid and lay it out: the parameter names and, for each variant, its values.
 * @throws InvalidArgumentError (argument "grid", naming the parameter) on an empty grid, a
 *   parameter with no values or a value that is not a number, string, boolean or null, a
 *   reserved name, list entries with other keys than the first, or more than 1e8 variants
 * @internal
 */
export function gridPlan(grid: SweepGrid, where: string): GridPlan {
  if (Array.isArray(grid)) {
    const list = grid as readonly unknown[];
    if (list.length === 0) throw new InvalidArgumentError("grid", `${where}: grid must list at least one parameter object, got []`);
    const first = list[0];
    if (typeof first !== "object" || first === null || Array.isArray(first)) {
      throw new InvalidArgumentError("grid", `${where}: grid entry 0 must be an object of parameter values like { fast: 5, slow: 20 }, got ${String(first)}`);
    }
    const parameters = Object.keys(first);
    if (parameters.length === 0) throw new InvalidArgumentError("grid", `${where}: grid entry 0 has no parameter; give each entry the same parameters, e.g. { fast: 5, slow: 20 }`);
    parameters.forEach((p) => checkName(p, where));
    const rows = list.map((entry, i) => {
      if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
        throw new InvalidArgumentError("grid", `${where}: grid entry ${i} must be an object of parameter values, got ${String(entry)}`);
      }
      const keys = Object.keys(entry);
      const extra = keys.find((k) => !parameters.includes(k));
      if (extra !== undefined) throw new InvalidArgumentError("grid", `${where}: grid entry ${i} has parameter ${extra}, which entry 0 has not; give every entry the same parameters`);
      const lacking = parameters.find((k) => !keys.includes(k));
      if (lacking !== undefined) throw new InvalidArgumentError("grid", `${where}: grid entry ${i} lacks parameter ${lacking} (entry 0 has it); give it (null leaves an option unset)`);
      return parameters.map((p) => checkValue(p, (entry as Record<string, unknown>)[p], where));
    });
    return { parameters, lists: undefined, rows, count: rows.length };
  }
  if (typeof grid !== "object" || grid === null) {
    throw new InvalidArgumentError("grid", `${where}: grid must be an object of parameter -> values like { fast: [5, 10], slow: [20, 50] } or a list of parameter objects, got ${String(grid)}`);
  }
  const parameters = Object.keys(grid);
  if (parameters.length === 0) throw new InvalidArgumentError("grid", `${where}: grid has no parameter; give at least one, e.g. { fast: [5, 10] }`);
  let count = 1;
  const lists = parameters.map((p) => {
    checkName(p, where);
    const values = (grid as Record<string, unknown>)[p];
    if (!Array.isArray(values) || values.length === 0) {
      throw new InvalidArgumentError("grid", `${where}: grid parameter ${p} must be a non-empty list of values, got ${Array.isArray(values) ? "[]" : String(values)}`);
    }
    count *= values.length;
    return values.map((v) => checkValue(p, v, where));
  });
  if (count > MAX_VARIANTS) throw new InvalidArgumentError("grid", `${where}: the grid has ${count} variants, more than ${MAX_VARIANTS}; shard it or sample it (a list of parameter objects)`);
  return { parameters, lists, rows: undefined, count };
}

/** Variant v's values, in parameter order (cartesian: the last parameter varies fastest). @internal */
export function gridValues(grid: GridPlan, v: number): SweepValue[] {
  if (grid.rows !== undefined) return [...(grid.rows[v] as readonly SweepValue[])];
  const lists = grid.lists as readonly (readonly SweepValue[])[];
  const out = new Array<SweepValue>(lists.length);
  let rest = v;
  for (let j = lists.length - 1; j >= 0; j--) {
    const list = lists[j] as readonly SweepValue[];
    out[j] = list[rest % list.length] as SweepValue;
    rest = Math.floor(rest / list.length);
  }
  return out;
}

/** Variant v's parameters by name. @internal */
export function gridParams(grid: GridPlan, v: number): Record<string, SweepValue> {
  const values = gridValues(grid, v);
  const out: Record<string, SweepValue> = {};
  grid.parameters.forEach((p, j) => (out[p] = values[j] as SweepValue));
  return out;
}

/** Every value a parameter takes in the grid, in order (duplicates kept). @internal */
export function gridValuesOf(grid: GridPlan, j: number): readonly SweepValue[] {
  return grid.lists !== undefined ? (grid.lists[j] as readonly SweepValue[]) : (grid.rows as readonly (readonly SweepValue[])[]).map((r) => r[j] as SweepValue);
}
