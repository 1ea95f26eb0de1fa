import { sharesMemory } from "../data/sharesMemory.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** The replay's columns a caller may give (replayComposite's `into`), with the typed array each must be. */
export const REPLAY_INTO = { label: Int8Array, strength: Int8Array, confidence: Float64Array } as const;
export type ReplayIntoColumn = keyof typeof REPLAY_INTO;

/**
 * Columns of the caller's that a replay writes into instead of fresh ones (replayComposite's
 * `into`): `label` and `strength` an Int8Array, `confidence` a Float64Array, one value per row each.
 * `replayComposite(values, { into: { label: buf } }).label === buf`, so a loop of replays at one
 * length (the users' path: replay, their own loop over `.label`, `backtest({ position, into })`)
 * touches no fresh memory. The column is written when the field is first read, as a fresh one
 * would be built. The caller owns it: a later replay given the same column overwrites it, so copy
 * what is kept (`buf.slice()`) before the next one is read.
 */
export type ReplayInto = Readonly<{ label?: Int8Array; strength?: Int8Array; confidence?: Float64Array }>;

/**
 * `into` checked: an object whose fields are replay columns, each of its typed array and length n,
 * none sharing memory with another or with an input column (the replay would overwrite what it reads).
 * @throws InvalidArgumentError naming the field and the fix
 * @internal
 */
export function checkReplayInto(into: unknown, n: number, inputs: readonly ArrayBufferView[], where: string): ReplayInto | undefined {
  if (into === undefined) return undefined;
  if (typeof into !== "object" || into === null) {
    throw new InvalidArgumentError("into", `${where}: into must be an object of columns like { label: new Int8Array(n) }, got ${into === null ? "null" : typeof into}`);
  }
  const given: ArrayBufferView[] = [];
  for (const [name, col] of Object.entries(into)) {
    if (col === undefined) continue;
    const type = (REPLAY_INTO as Readonly<Record<string, Int8ArrayConstructor | Float64ArrayConstructor>>)[name];
    if (type === undefined) {
      throw new InvalidArgumentError("into", `${where}: into.${name} is not a column a replay writes into; use ${Object.keys(REPLAY_INTO).join(", ")}`);
    }
    if (!(col instanceof type) || col.length !== n) {
      const got = ArrayBuffer.isView(col) ? `${article(col.constructor.name)} of ${(col as Int8Array).length} values` : String(col);
      throw new InvalidArgumentError("into", `${where}: into.${name} must be ${article(type.name)} of ${n} values (one per row), got ${got}`);
    }
    if ([...given, ...inputs].some((other) => sharesMemory(col, other))) {
      throw new InvalidArgumentError("into", `${where}: into.${name} shares memory with an input column or another into column; give each a column of its own`);
    }
    given.push(col);
  }
  return into as ReplayInto;
}

/** "an Int8Array", "a Float64Array". */
function article(name: string): string {
  return `${/^[AEIOU]/.test(name) ? "an" : "a"} ${name}`;
}
