import { redactSecrets } from "./redactSecrets.js";

/** Any value with each string in it (object keys too) redacted; errors are redacted in place (see redactError). */
function redactValue(value: unknown, secrets: readonly string[], seen: Set<object>): unknown {
  if (typeof value === "string") return redactSecrets(value, secrets);
  if (typeof value !== "object" || value === null) return value;
  if (value instanceof Error) return redactInPlace(value, secrets, seen);
  if (seen.has(value)) return value;
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets, seen));
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[redactSecrets(k, secrets)] = redactValue(v, secrets, seen);
  return out;
}

function redactInPlace(err: Error, secrets: readonly string[], seen: Set<object>): Error {
  if (seen.has(err)) return err;
  seen.add(err);
  for (const name of Object.getOwnPropertyNames(err)) {
    const d = Object.getOwnPropertyDescriptor(err, name);
    if (d === undefined || !("value" in d)) continue;
    const next = redactValue(d.value, secrets, seen);
    if (next !== d.value) Object.defineProperty(err, name, { ...d, value: next });
  }
  return err;
}

/**
 * The one redaction boundary of a client's errors: every string an error
 * carries (its message, stack, fields such as a body excerpt, a field path
 * or a quoted value, the errors in its `cause` chain and in an
 * AggregateError's `errors`) with the client's secrets replaced by
 * `REDACTED` (see redactSecrets), in place, so the error keeps its class and
 * fields. Every client method's failure passes through it, whichever layer
 * threw (transport, schema, time parsing), so a response that echoes the key
 * never brings it into an error. A thrown value that is not an Error is
 * returned redacted if it is a string, as it is otherwise.
 * @example redactError(new Error("bad time key-123"), ["key-123"]).message // "bad time REDACTED"
 * @internal
 */
export function redactError(err: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return err;
  if (err instanceof Error) return redactInPlace(err, secrets, new Set());
  return typeof err === "string" ? redactSecrets(err, secrets) : err;
}
