import { StrategyFailedError } from "../errors/StrategyFailedError.js";
import type { SweepValue } from "./SweepResult.js";
import type { SharedValues, StrategyFunction } from "./strategyVariant.js";


/** Pristine copies of each plan's columns, made once per thread, to tell whether a call changed them. */
const pristine = new WeakMap<object, Record<string, Float64Array>>();

/** The pristine copies of a plan's columns (made on first use in this thread). */
function pristineOf(columns: Readonly<Record<string, Float64Array>>): Record<string, Float64Array> {
  let copy = pristine.get(columns);
  if (copy === undefined) {
    copy = {};
    for (const [name, col] of Object.entries(columns)) copy[name] = Float64Array.from(col);
    pristine.set(columns, copy);
  }
  return copy;
}

/**
 * A frozen copy of a record (a variant's parameters, a plan's columns), built key by key: every copy with the same keys
 * then has one hidden class (a spread copy, `{ ...params }`, gets a new one per call in V8), so the strategy's
 * `params.fast` and `columns.close` stay monomorphic and its optimised code is not thrown away ("wrong map") mid-sweep
 * or at the next sweep.
 */
function frozenCopy<T>(record: Readonly<Record<string, T>>): Readonly<Record<string, T>> {
  const copy: Record<string, T> = {};
  for (const key of Object.keys(record)) {
    if (key === "__proto__") Object.defineProperty(copy, key, { value: record[key], enumerable: true, writable: true, configurable: true });
    else copy[key] = record[key] as T;
  }
  return Object.freeze(copy);
}

/** Each plan's frozen record of its columns, made once per thread (frozenColumnsOf). */
const frozenColumns = new WeakMap<object, Readonly<Record<string, Float64Array>>>();

/**
 * The frozen record of `columns` a strategy function is given: one per plan and thread, the same object for every
 * variant (frozen, so no call can change it for the next), so the function meets one hidden class at `columns.close`
 * and V8 does not deoptimise it there ("wrong map") when a fresh copy per call changes map mid-sweep.
 */
function frozenColumnsOf(columns: Readonly<Record<string, Float64Array>>): Readonly<Record<string, Float64Array>> {
  let record = frozenColumns.get(columns);
  if (record === undefined) frozenColumns.set(columns, (record = frozenCopy(columns)));
  return record;
}

/**
 * The name of the first data column a strategy call changed since its pristine copy was made
 * (byte comparison), that column put back (for any variant that reads it after), or undefined
 * when none changed. @internal
 */
export function changedColumn(columns: Readonly<Record<string, Float64Array>>): string | undefined {
  const copy = pristineOf(columns);
  for (const [name, col] of Object.entries(columns)) {
    const was = copy[name];
    if (was === undefined || Buffer.compare(bytesOf(col), bytesOf(was)) !== 0) {
      if (was !== undefined) col.set(was);
      return name;
    }
  }
  return undefined;
}

function bytesOf(a: Float64Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

function describe(thrown: unknown): string {
  if (thrown instanceof Error) return `${thrown.name}: ${thrown.message}`;
  if (thrown === null) return "null";
  if (thrown === undefined) return "undefined";
  try {
    return `${typeof thrown} ${JSON.stringify(thrown) ?? String(thrown)}`.slice(0, 200);
  } catch {
    return typeof thrown;
  }
}

/** "variant 17 (fast 5, slow 20)". */
export function variantText(v: number, params: Readonly<Record<string, unknown>>): string {
  const list = Object.entries(params).map(([k, x]) => `${k} ${typeof x === "string" ? JSON.stringify(x) : String(x)}`);
  return `variant ${v}${list.length > 0 ? ` (${list.join(", ")})` : ""}`;
}

/**
 * Call a sweep's strategy function for variant `v`, the one rule for how it
 * is called wherever the variant runs (calling thread or worker): it gets a
 * frozen record of the data's columns and frozen parameters (and the engine's `out` buffer and
 * `shared` cache, as StrategyFunction documents); anything it
 * throws (an Error, `null`, `undefined`, any value) and any change it makes
 * to the columns (shared by every variant) become StrategyFailedError naming
 * the variant and its parameters, so no variant ever reports numbers from a
 * failed or corrupting call.
 * With `check` false the columns are not compared after the call: the
 * caller compares them once for a block of variants (changedColumn) and,
 * when one changed, runs the block's variants again one by one, checked
 * (evaluateStrategyVariants). Cost of the per-call check (issue 31, measured 2026-11-27 at load ~20 on
 * the SMA 20 x 20 x 500k sweep): 0.81 ms of CPU a variant per 500k-row
 * column (5.5% of that sweep with one column, about 18% with five), mostly
 * reading the cold pristine copy. Byte comparison (memcmp) is the cheapest
 * full check measured: zlib's CRC-32 of the column alone costs 6.5x more
 * and a 4-lane JavaScript hash 6.6x; checking only the columns the strategy
 * touched needs getters on the record, which slow a strategy's
 * `columns.close[i]` loop 1.5-2.5x. Sampling would miss a single changed
 * value.
 * @throws StrategyFailedError (reason "threw" or "mutated")
 * @internal
 */
export function callStrategy(fn: StrategyFunction, columns: Readonly<Record<string, Float64Array>>, params: Record<string, SweepValue>, v: number, where: string, out: Float64Array, shared: SharedValues, check = true): unknown {
  pristineOf(columns);
  const frozenParams = frozenCopy(params);
  let result: unknown;
  try {
    result = fn(frozenColumnsOf(columns), frozenParams, out, shared);
  } catch (thrown) {
    throw new StrategyFailedError(v, frozenParams, "threw", `${where}: the strategy threw ${describe(thrown)} on ${variantText(v, frozenParams)}; the sweep stops rather than report numbers for it: fix the strategy (or guard that case inside it)`, { cause: thrown });
  }
  const name = check ? changedColumn(columns) : undefined;
  if (name !== undefined) {
    throw new StrategyFailedError(v, frozenParams, "mutated", `${where}: the strategy changed the data column ${JSON.stringify(name)} on ${variantText(v, frozenParams)}; the columns are shared by every variant, so the sweep stops: copy a column before changing it (Float64Array.from(columns.${name}))`);
  }
  return result;
}
