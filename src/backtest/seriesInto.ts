import { sharesMemory } from "../data/sharesMemory.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** The per-bar series of a backtest a caller may give columns for (`into`), by result field. */
export const INTO_SERIES = ["equity", "returns", "exposure", "holdings", "turnover", "fees", "fundingPaid"] as const;
export type IntoSeries = (typeof INTO_SERIES)[number];

/**
 * Columns of the caller's that a backtest writes its per-bar series into (backtest's `into`), each a
 * Float64Array with one value per bar, instead of fresh ones: `backtest({ ..., into: { equity: buf } })`
 * returns `result.equity === buf`. Reusing them from call to call (a loop of backtests at one length,
 * a notebook re-run) touches no fresh memory: a fresh 2e6-bar column costs ~3,900 page faults
 * (~48 ms on a shared VM), and V8 gives freed columns back only when its collector runs.
 * The caller owns them: a later call given the same column overwrites it, so copy what is kept
 * (`buf.slice()`) before the next call.
 */
export type BacktestInto = Readonly<Partial<Record<IntoSeries, Float64Array>>>;

/**
 * `into` checked: an object whose fields are series names, each a Float64Array of length n, no two
 * sharing memory, none sharing memory with an input column (the pass would overwrite what it reads).
 * @throws InvalidArgumentError naming the field and the fix
 * @internal
 */
export function checkInto(into: unknown, n: number, inputs: readonly (ArrayLike<unknown> | undefined)[], where: string): BacktestInto | undefined {
  if (into === undefined) return undefined;
  if (typeof into !== "object" || into === null) {
    throw new InvalidArgumentError("into", `${where}: into must be an object of Float64Array columns like { equity: new Float64Array(n) }, got ${into === null ? "null" : typeof into}`);
  }
  const given: Float64Array[] = [];
  for (const [name, col] of Object.entries(into)) {
    if (col === undefined) continue;
    if (!(INTO_SERIES as readonly string[]).includes(name)) {
      throw new InvalidArgumentError("into", `${where}: into.${name} is not a series a backtest writes; use ${INTO_SERIES.join(", ")}`);
    }
    if (!(col instanceof Float64Array) || col.length !== n) {
      throw new InvalidArgumentError("into", `${where}: into.${name} must be a Float64Array of ${n} values (one per bar), got ${col instanceof Float64Array ? `${col.length} values` : String(col)}`);
    }
    const clash = [...given, ...inputs].find((other) => other !== undefined && ArrayBuffer.isView(other) && sharesMemory(col, other));
    if (clash !== undefined) {
      throw new InvalidArgumentError("into", `${where}: into.${name} shares memory with another column of the call (an input or another into column); give each series a column of its own`);
    }
    given.push(col);
  }
  return into as BacktestInto;
}

/**
 * The column series `name` is written into: the caller's (zeroed: the pass adds to fees, turnover
 * and funding paid, and writes funding paid only where some was paid), or a fresh one.
 * @internal
 */
export function seriesColumn(into: BacktestInto | undefined, name: IntoSeries, n: number): Float64Array {
  const col = into?.[name];
  if (col === undefined) return new Float64Array(n);
  if (name === "fees" || name === "turnover" || name === "fundingPaid") col.fill(0);
  return col;
}
