/**
 * A JSON value without the objects left empty, at any depth: a manifest's parameters once its
 * data columns were hashed away (`data: { BTC: { close, funding } }` records as
 * `data: { BTC: {} }`, which a reader would take for "no data"); the columns are listed, with
 * their hashes, under the manifest's inputs. Returns undefined for a value that was only empty
 * objects. Arrays keep their length (an empty object inside one becomes null). The input is not
 * modified. @internal
 * @example withoutEmptyObjects({ feeBps: 5, data: { BTC: {}, ETH: {} } }) // { feeBps: 5 }
 */
export function withoutEmptyObjects(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutEmptyObjects(v) ?? null);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const kept = withoutEmptyObjects(v);
    if (kept !== undefined) out[k] = kept;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
