import { createHash } from "node:crypto";

/** A column a manifest can fingerprint: numbers (typed arrays hashed as their bytes) or strings. */
export type HashableColumn = ArrayLike<number> | readonly (string | number)[];

/**
 * SHA-256 (hex) of a column's bytes: a Float64Array's own bytes (so -0 and
 * each NaN payload count), other number arrays as float64, strings as their
 * JSON text. Equal digests mean bit-identical columns.
 * @example hashColumn(Float64Array.of(1, 2)) // sha256 of the 16 bytes 000000000000f03f 0000000000000040
 * @internal
 */
export function hashColumn(column: HashableColumn): string {
  const h = createHash("sha256");
  if (column instanceof Float64Array) h.update(new Uint8Array(column.buffer, column.byteOffset, column.byteLength));
  else if (Array.from({ length: Math.min(column.length, 1) }, (_, i) => column[i]).some((x) => typeof x === "string")) h.update(JSON.stringify(Array.from(column as ArrayLike<unknown>)));
  else {
    const f = Float64Array.from(column as ArrayLike<number>);
    h.update(new Uint8Array(f.buffer));
  }
  return h.digest("hex");
}

/**
 * The digest of named columns together, from each column's digest: SHA-256 of
 * `name \0 sha256 \n` for each, in key order.
 * @internal
 */
export function combineDigests(columns: Readonly<Record<string, { readonly sha256: string }>>): string {
  const all = createHash("sha256");
  for (const [name, col] of Object.entries(columns)) all.update(`${name}\0${col.sha256}\n`);
  return all.digest("hex");
}

/**
 * SHA-256 of named columns together (names and bytes, in key order), with
 * each column's own digest and length.
 * @internal
 */
export function hashColumns(columns: Readonly<Record<string, HashableColumn>>): { sha256: string; columns: Record<string, { sha256: string; length: number }> } {
  const out: Record<string, { sha256: string; length: number }> = {};
  for (const [name, col] of Object.entries(columns)) out[name] = { sha256: hashColumn(col), length: col.length };
  return { sha256: combineDigests(out), columns: out };
}
