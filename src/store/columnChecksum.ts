import { crc32 } from "node:zlib";
import type { ArrowChunk, ArrowType } from "./arrowCData.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/**
 * Key of the footer metadata entry where the library's Parquet files keep
 * their column checksums: JSON `{ "<column>": "<8 hex digits>", ... }`, each
 * the CRC-32 of {@link checksum64}.
 * @internal
 */
export const CHECKSUM_KEY = "market-intel-lab.crc32";

/**
 * Key of the checksums files written before the CRC-32 (Fletcher sums, 16 hex
 * digits a column): still verified on read, under their own definition
 * ({@link fletcherOfChunks}), never written.
 * @internal
 */
export const LEGACY_CHECKSUM_KEY = "market-intel-lab.checksums";

/** The Arrow NaN written for a missing value (null), as its two little-endian 32-bit words: null slots count as this. */
const NULL_LO = 0;
const NULL_HI = 0x7ff80000;

const tags = new WeakMap<ArrowType, string>();

/** A type as a stable tag (Arrow format type id, unit, precision, bit width, time zone, scale): a file whose footer now says another type no longer matches. */
function typeTag(t: ArrowType): string {
  let tag = tags.get(t);
  if (tag === undefined) tags.set(t, (tag = [t.typeId, t.unit ?? "", t.precision ?? "", t.bitWidth ?? "", t.timezone ?? "", t.scale ?? ""].join(":")));
  return tag;
}

/** The 64-bit values of a column chunk as 32-bit words (two a slot, little-endian), from the start of its buffer. */
function wordsOf(values: Float64Array | BigInt64Array): Uint32Array {
  return new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
}

/** The validity bitmap of an Arrow chunk when some value is missing, else undefined. */
function validityOf(d: ArrowChunk): Uint8Array | undefined {
  return d.nullCount > 0 && d.nullBitmap !== undefined && d.nullBitmap.length > 0 ? d.nullBitmap : undefined;
}

/** The 64-bit column chunks of a decoded column (views of WebAssembly memory are fine: nothing is kept); undefined when the column is not of 64-bit values. */
function slotChunks(chunks: readonly ArrowChunk[]): { words: Uint32Array; at: number; count: number; validity: Uint8Array | undefined }[] | undefined {
  const out = [];
  for (const d of chunks) {
    const values = d.values as unknown;
    if (!(values instanceof Float64Array || values instanceof BigInt64Array)) return undefined;
    out.push({ words: wordsOf(values), at: d.offset, count: d.length, validity: validityOf(d) });
  }
  return out;
}

/**
 * CRC-32 (zlib's, the ISO-HDLC polynomial, native and table-free in Node)
 * carried on over `count` 64-bit slots of `words` from slot `at`; a slot whose
 * bit in `validity` (from bit `at`) is clear is missing and counts as NaN
 * whatever its bytes (the decoder leaves zeros there, the writer's array NaN).
 */
function crcSlots(crc: number, words: Uint32Array, at: number, count: number, validity: Uint8Array | undefined): number {
  // Nothing to add (zlib.crc32 of a view of an empty ArrayBuffer returns 0 whatever the running value, in Node 20.20).
  if (count === 0) return crc;
  if (validity === undefined) return crc32(new Uint8Array(words.buffer, words.byteOffset + at * 8, count * 8), crc);
  const copy = words.slice(2 * at, 2 * (at + count));
  for (let k = 0; k < count; k++) {
    const bit = at + k;
    if (((validity[bit >> 3] as number) & (1 << (bit & 7))) === 0) {
      copy[2 * k] = NULL_LO;
      copy[2 * k + 1] = NULL_HI;
    }
  }
  return crc32(new Uint8Array(copy.buffer), crc);
}

const hex8 = (crc: number): string => (crc >>> 0).toString(16).padStart(8, "0");

/**
 * The checksum of a column of 64-bit values (DOUBLE, or TIMESTAMP/INT64) as
 * written: the CRC-32 of its type tag and length (as text), then every
 * value's 8 bytes (little-endian), a missing value (validity bit clear)
 * counted as NaN. CRC-32 changes whenever any one byte (any burst of up to
 * 32 bits) changes. The writer computes it from the arrays it hands to
 * parquet-wasm, the reader from the arrays parquet-wasm decodes
 * ({@link crcOfChunks}), through this one definition; parquet-wasm 0.8.0
 * neither writes nor verifies Parquet's page CRCs, so this is what catches a
 * damaged file.
 * @internal
 */
export function checksum64(type: ArrowType, values: Float64Array | BigInt64Array, validity: Uint8Array | undefined): string {
  return hex8(crcSlots(crc32(`${typeTag(type)}/${values.length}`), wordsOf(values), 0, values.length, validity));
}

/** The 4 bytes that stand for a missing text value in {@link checksumText} (no UTF-8 value has this length). */
const NULL_TEXT = Buffer.from([0xff, 0xff, 0xff, 0xff]);

/** A text value's length as 4 little-endian bytes. */
function lengthBytes(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

/**
 * The checksum of a UTF-8 (text) column as written: the CRC-32 of its type
 * tag and length (as text), then, for every value, its byte length (4 bytes,
 * little-endian) and its UTF-8 bytes, a missing value counted as the length
 * 0xFFFFFFFF and no bytes. The writer computes it from the strings it hands
 * to parquet-wasm, the reader from the offsets and bytes parquet-wasm
 * decodes ({@link crcOfChunks}), so a flipped byte in a recorded body or key
 * is an error, never another text.
 * @internal
 */
export function checksumText(type: ArrowType, values: readonly (string | null)[]): string {
  let crc = crc32(`${typeTag(type)}/${values.length}`);
  for (const v of values) {
    if (v === null) {
      crc = crc32(NULL_TEXT, crc);
      continue;
    }
    const bytes = Buffer.from(v, "utf8");
    crc = crc32(bytes, crc32(lengthBytes(bytes.length), crc));
  }
  return hex8(crc);
}

/** {@link checksumText} of decoded UTF-8 chunks, in order. */
function crcOfTextChunks(type: ArrowType, chunks: readonly ArrowChunk[]): string {
  const length = chunks.reduce((s, d) => s + d.length, 0);
  let crc = crc32(`${typeTag(type)}/${length}`);
  for (const d of chunks) {
    const offsets = d.valueOffsets as Int32Array;
    const bytes = d.bytes as Uint8Array;
    for (let k = d.offset; k < d.offset + d.length; k++) {
      const present = d.nullBitmap === undefined || d.nullCount === 0 || ((d.nullBitmap[k >> 3] as number) & (1 << (k & 7))) !== 0;
      if (!present) {
        crc = crc32(NULL_TEXT, crc);
        continue;
      }
      const from = offsets[k] as number;
      const to = offsets[k + 1] as number;
      crc = crc32(bytes.subarray(from, to), crc32(lengthBytes(to - from), crc));
    }
  }
  return hex8(crc);
}

/** True for a UTF-8 column the reader can checksum (offsets and bytes decoded). */
function isText(type: ArrowType, chunks: readonly ArrowChunk[]): boolean {
  return type.typeId === UTF8_TYPE_ID && chunks.every((d) => d.valueOffsets instanceof Int32Array && d.bytes !== undefined);
}

/** Arrow's type id of UTF-8 text (apache-arrow's Type.Utf8, the C data interface's "u"). */
const UTF8_TYPE_ID = 5;

/** {@link checksum64} (or {@link checksumText}) of a decoded column's chunks, in order; undefined when the column is neither 64-bit values nor text. */
function crcOfChunks(type: ArrowType, chunks: readonly ArrowChunk[]): string | undefined {
  if (isText(type, chunks)) return crcOfTextChunks(type, chunks);
  let length = 0;
  for (const d of chunks) {
    if (!(d.values instanceof Float64Array || d.values instanceof BigInt64Array)) return undefined;
    length += d.length;
  }
  let crc = crc32(`${typeTag(type)}/${length}`);
  for (const d of chunks) crc = crcSlots(crc, wordsOf(d.values as Float64Array | BigInt64Array), d.offset, d.length, validityOf(d));
  return hex8(crc);
}

/**
 * The checksum files written before the CRC-32 carry (read only): Fletcher's
 * sums over the 32-bit words mod 2^32 (`a` the sum of the words, `b` the sum
 * of the running `a`s), started from the type tag's characters and the
 * length, a missing value counted as NaN; 16 hex digits (`a`, then `b`).
 */
function fletcherOfChunks(type: ArrowType, chunks: readonly ArrowChunk[]): string | undefined {
  const parts = slotChunks(chunks);
  if (parts === undefined) return undefined;
  const length = parts.reduce((s, p) => s + p.count, 0);
  let a = length | 0;
  let b = (length / 4294967296) | 0;
  for (const c of typeTag(type)) {
    a = (a + c.charCodeAt(0)) | 0;
    b = (b + a) | 0;
  }
  for (const { words, at, count, validity } of parts) {
    if (validity === undefined) {
      for (let i = 2 * at, end = 2 * (at + count); i < end; i++) {
        a = (a + (words[i] as number)) | 0;
        b = (b + a) | 0;
      }
      continue;
    }
    for (let k = 0; k < count; k++) {
      const present = ((validity[(at + k) >> 3] as number) & (1 << ((at + k) & 7))) !== 0;
      a = (a + (present ? (words[2 * (at + k)] as number) : NULL_LO)) | 0;
      b = (b + a) | 0;
      a = (a + (present ? (words[2 * (at + k) + 1] as number) : NULL_HI)) | 0;
      b = (b + a) | 0;
    }
  }
  return hex8(a) + hex8(b);
}

/**
 * Check the named columns of a decoded table against the checksums its writer
 * stored in the footer: the CRC-32s of {@link CHECKSUM_KEY}, or, in a file
 * written before them, the Fletcher sums of {@link LEGACY_CHECKSUM_KEY} (a
 * file without either, from another writer, is not checked). A missing,
 * unreadable or different checksum means the file changed after it was
 * written.
 * @throws InvalidArgumentError naming the file (`where`) and the column
 * @internal
 */
export function verifyChecksums(table: { schema: { metadata: ReadonlyMap<string, string> }; getChild(name: string): { data: readonly ArrowChunk[]; type: ArrowType } | null }, names: readonly string[], where: string): void {
  const meta = table.schema.metadata;
  const current = meta.get(CHECKSUM_KEY);
  const text = current ?? meta.get(LEGACY_CHECKSUM_KEY);
  if (text === undefined) return;
  const sum = current === undefined ? fletcherOfChunks : crcOfChunks;
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
    // Text columns carry checksums since issue 31; files written before have none for them (still read).
    if (want === undefined && current !== undefined && isText(col.type, col.data)) continue;
    const got = sum(col.type, col.data);
    if (got === undefined) continue; // a column the writer does not checksum
    if (want !== got) {
      throw new InvalidArgumentError("file", `${where}: column ${JSON.stringify(name)} does not match the checksum written with the file (${String(want)} written, ${got} read): the file is damaged; restore it from a copy or delete it`);
    }
  }
}
