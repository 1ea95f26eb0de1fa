import { InvalidArgumentError } from "./InvalidArgumentError.js";

/** Keys that reach an object's prototype machinery when followed or assigned. */
const UNSAFE_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/**
 * The one rule for a key read from a file (a manifest's column path, a sweep
 * shard's component, a coverage entry) before it is followed or assigned:
 * `__proto__`, `constructor` and `prototype` are refused, since following them
 * reaches `Object.prototype` (an inputs key `"__proto__.close"` would give
 * every object in the process a `close`).
 * @param where the function and the field, for the message, e.g. `"replayManifest: inputs key \"__proto__.close\""`
 * @param argument the argument the key came from, for the error's `argument`
 * @returns the key, unchanged
 * @throws InvalidArgumentError for `__proto__`, `constructor` or `prototype`
 * @example safeKey("close", "replayManifest: inputs key", "manifest") // "close"
 * @example safeKey("__proto__", "replayManifest: inputs key", "manifest") // throws
 * @internal
 */
export function safeKey(key: string, where: string, argument: string): string {
  if (UNSAFE_KEYS.has(key)) {
    throw new InvalidArgumentError(argument, `${where} holds the segment ${JSON.stringify(key)}, which would reach Object.prototype; __proto__, constructor and prototype are refused as keys (rename it)`);
  }
  return key;
}
