import { z } from "zod";
import { checkResponseTimes } from "../checkResponseTimes.js";
import { schemaMismatch } from "../schemaMismatch.js";

/** Any JSON object (endpoints whose fields the spec does not show). */
export const jsonObjectSchema = z.record(z.string(), z.unknown());

/** A JSON object returned whole. */
export type JsonObject = z.infer<typeof jsonObjectSchema>;

/**
 * Check that a body is a JSON object (not an array or scalar) whose times,
 * wherever they are in it, are times (see checkResponseTimes), and return a
 * deep copy of it (the client's cache keeps the original).
 * @throws SchemaMismatchError when it is not an object
 * @throws InvalidTimeError for a time that is not one or lies outside 2009..2099, naming its path (e.g. `wallets.timestamp`) and row
 */
export function normaliseJsonObject(body: unknown, endpoint: string): JsonObject {
  const parsed = jsonObjectSchema.safeParse(body);
  if (!parsed.success || Array.isArray(body)) {
    throw schemaMismatch(endpoint, [["object", parsed.success ? "expected a JSON object, got an array" : parsed.error]]);
  }
  return checkResponseTimes(structuredClone(parsed.data), endpoint);
}
