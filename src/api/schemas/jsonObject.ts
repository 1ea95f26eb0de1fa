import { z } from "zod";
import { schemaMismatch } from "../schemaMismatch.js";

/** Any JSON object (endpoints whose fields the spec does not show). */
export const jsonObjectSchema = z.record(z.string(), z.unknown());

/** A JSON object returned whole. */
export type JsonObject = z.infer<typeof jsonObjectSchema>;

/**
 * Check that a body is a JSON object (not an array or scalar) and return a
 * deep copy of it (the client's cache keeps the original). Nothing in it is
 * interpreted, times included: the spec does not show these endpoints' fields,
 * so the body is passed through as the service sent it.
 * @throws SchemaMismatchError when it is not an object
 */
export function normaliseJsonObject(body: unknown, endpoint: string): JsonObject {
  const parsed = jsonObjectSchema.safeParse(body);
  if (!parsed.success || Array.isArray(body)) {
    throw schemaMismatch(endpoint, [["object", parsed.success ? "expected a JSON object, got an array" : parsed.error]]);
  }
  return structuredClone(parsed.data);
}
