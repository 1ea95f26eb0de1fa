import type { Data, DataType } from "apache-arrow";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/**
 * Key of the footer metadata entry where the library's Parquet files keep
 * their column checksums: JSON `{ "<column>": "<16 hex digits>", ... }`.
 * @internal
 */
export const CHECKSUM_KEY = "market-intel-lab.checksums";

/** The Arrow NaN written for a missing value (null), as its two 32-bit words: null slots hash as this. */
const NULL_LO = 0;
const NULL_HI = 0x7ff80000;

/** A type as a stable tag (Arrow format type id, unit, precision, bit width, time zone, scale): a file whose footer now says another type no longer matches. */
function typeTag(type: DataType): string {
  const t = type as unknown as { typeId: number; unit?: number; precision?: number; bitWidth?: number; timezone?: string | null; scale?: number };
  return [t.typeId, t.unit ?? "", t.precision ?? "", t.bitWidth ?? "", t.timezone ?? "", t.scale ?? ""].join(":");
}

/**
 * The running sums of the checksum (Fletcher's, over 32-bit words mod 2^32:
 * `a` the sum of the words, `b` the sum of the running `a`s), started from the
 * column's type and length. Changing any one word always changes `a`; two
 * changes cancel only if they also leave the position-weighted `b` unchanged.
 * Two additions a word: a few ms for a million values.
 */
interface Sums {
  a: number;
  b: number;
}

function start(type: DataType, length: number): Sums {
  const sums = { a: length | 0, b: (length / 4294967296) | 0 };
  for (const c of typeTag(type)) {
    sums.a = (sums.a + c.charCodeAt(0)) | 0;
    sums.b = (sums.b + sums.a) | 0;
  }
  return sums;
}

/**
 * Add `count` 64-bit slots of `words` (two little-endian 32-bit words a slot)
 * from slot `at`; a slot whose bit in `validity` (from bit `bitAt`) is clear
 * is missing and counts as NaN whatever its bytes.
 */
function addSlots(sums: Sums, words: Uint32Array, at: number, count: number, validity: Uint8Array | undefined, bitAt: number): void {
  let { a, b } = sums;
  if (validity === undefined) {
    for (let i = 2 * at, end = 2 * (at + count); i < end; i++) {
      a = (a + (words[i] as number)) | 0;
      b = (b + a) | 0;
    }
  } else {
    for (let k = 0; k < count; k++) {
      const bit = bitAt + k;
      const present = ((validity[bit >> 3] as number) & (1 << (bit & 7))) !== 0;
      a = (a + (present ? (words[2 * (at + k)] as number) : NULL_LO)) | 0;
      b = (b + a) | 0;
      a = (a + (present ? (words[2 * (at + k) + 1] as number) : NULL_HI)) | 0;
      b = (b + a) | 0;
    }
  }
  sums.a = a;
  sums.b = b;
}

const hex = (s: Sums): string => (s.a >>> 0).toString(16).padStart(8, "0") + (s.b >>> 0).toString(16).padStart(8, "0");

/**
 * The checksum of a column of 64-bit values (DOUBLE, or TIMESTAMP/INT64) as
 * written: its type, length and every value's 64 bits, a missing value
 * (validity bit clear) counted as NaN. The writer computes it from the
 * arrays it hands to parquet-wasm, the reader from the arrays parquet-wasm
 * decodes, through this one function; parquet-wasm 0.8.0 neither writes nor
 * verifies Parquet's page CRCs, so this is what catches a damaged file.
 * @internal
 */
export function checksum64(type: DataType, values: Float64Array | BigInt64Array, validity: Uint8Array | undefined, bitOffset = 0): string {
  const words = new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
  const sums = start(type, values.length);
  addSlots(sums, words, 0, values.length, validity, bitOffset);
  return hex(sums);
}

/**
 * The same checksum over an Arrow column's chunks as decoded (views of
 * WebAssembly memory are fine: nothing is kept); undefined when the column
 * is not of 64-bit values.
 * @internal
 */
export function arrowChecksum64(type: DataType, chunks: readonly Data[]): string | undefined {
  const length = chunks.reduce((s, d) => s + d.length, 0);
  const sums = start(type, length);
  for (const d of chunks) {
    const values = d.values as unknown;
    if (!(values instanceof Float64Array || values instanceof BigInt64Array)) return undefined;
    const words = new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
    addSlots(sums, words, d.offset, d.length, d.nullCount > 0 && d.nullBitmap !== undefined && d.nullBitmap.length > 0 ? d.nullBitmap : undefined, d.offset);
  }
  return hex(sums);
}

/**
 * Check the named columns of a decoded table against the checksums its writer
 * stored in the footer (files of this library; a file without them, from
 * another writer, is not checked). A missing, unreadable or different
 * checksum means the file changed after it was written.
 * @throws InvalidArgumentError naming the file (`where`) and the column
 * @internal
 */
export function verifyChecksums(table: { schema: { metadata: Map<string, string> }; getChild(name: string): { data: readonly Data[]; type: DataType } | null }, names: readonly string[], where: string): void {
  const text = table.schema.metadata.get(CHECKSUM_KEY);
  if (text === undefined) return;
  let sums: Record<string, unknown>;
  try {
    sums = JSON.parse(text) as Record<string, unknown>;
    if (typeof sums !== "object" || sums === null) throw new Error("not an object");
  } catch {
    throw new InvalidArgumentError("file", `${where}: the file's column checksums are unreadable: the file is damaged; restore it from a copy or delete it`);
  }
  for (const name of names) {
    const col = table.getChild(name);
    if (col === null) continue;
    const want = Object.hasOwn(sums, name) ? sums[name] : undefined;
    const got = arrowChecksum64(col.type, col.data);
    if (got === undefined) continue; // a column the writer does not checksum (text)
    if (want !== got) {
      throw new InvalidArgumentError("file", `${where}: column ${JSON.stringify(name)} does not match the checksum written with the file (${String(want)} written, ${got} read): the file is damaged; restore it from a copy or delete it`);
    }
  }
}
