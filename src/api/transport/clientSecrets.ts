import { redactSecrets } from "./redactSecrets.js";

/** The strings each client must never show or store (its key, URL credentials, the auth header value). */
const registry = new WeakMap<object, readonly string[]>();

/** Remember a client's secrets (called once by createClient). @internal */
export function registerSecrets(client: object, secrets: readonly string[]): void {
  registry.set(client, secrets.filter((s) => s !== ""));
}

/** A client's secrets; empty for a client not made by createClient. @internal */
export function secretsOf(client: object): readonly string[] {
  return registry.get(client) ?? [];
}

/**
 * A parsed JSON value with every string (object keys too) redacted of
 * `secrets` (see redactSecrets); numbers, booleans and null are kept. Used
 * to write responses to disk: a body that echoes the key is stored without it.
 * @example redactJson({ echo: "key=abc" }, ["abc"]) // { echo: "key=REDACTED" }
 */
export function redactJson(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return value;
  if (typeof value === "string") return redactSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redactJson(v, secrets));
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[redactSecrets(k, secrets)] = redactJson(v, secrets);
    return out;
  }
  return value;
}
