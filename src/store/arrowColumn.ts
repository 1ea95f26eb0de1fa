import type { ArrowChunk, ArrowType } from "./arrowCData.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** Arrow type ids (apache-arrow's `Type` enum, the Arrow format's numbering). */
const Type = { Int: 2, Float: 3, Bool: 6, Decimal: 7, Date: 8, Timestamp: 10 } as const;

const TWO_32 = 4294967296;
/** Units of an Arrow Timestamp (TimeUnit SECOND, MILLISECOND, MICROSECOND, NANOSECOND) per ms as [multiply, divide] (dividing keeps 1 µs = 0.001 ms correctly rounded). */
const MS_PER_UNIT: readonly (readonly [number, number])[] = [[1000, 1], [1, 1], [1, 1000], [1, 1e6]];

/** True when a column of this Arrow type can be read as numbers: ints, floats (not half), decimals, dates, timestamps, booleans. */
export function isNumericArrowType(type: ArrowType): boolean {
  switch (type.typeId) {
    case Type.Int:
    case Type.Decimal:
    case Type.Date:
    case Type.Timestamp:
    case Type.Bool:
      return true;
    case Type.Float:
      return (type as unknown as { precision: number }).precision > 0;
    default:
      return false;
  }
}

/** True for an Arrow type that holds points in time (a Timestamp of any unit, or a Date). */
export function isTimeArrowType(type: ArrowType): boolean {
  return type.typeId === Type.Timestamp || type.typeId === Type.Date;
}

/** Scale of a column's raw values to the output as [multiply, divide]: to epoch ms for times (days for Date32), none otherwise. */
function scaleOf(type: ArrowType): readonly [number, number] {
  if (type.typeId === Type.Timestamp) return MS_PER_UNIT[(type as unknown as { unit: number }).unit] as readonly [number, number];
  if (type.typeId === Type.Date) return (type as unknown as { unit: number }).unit === 0 ? [86_400_000, 1] : [1, 1];
  return [1, 1];
}

/** 10^k for k = 0..22, each exact in float64 (literals, not Math.pow, which may be off by an ulp). */
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];
const TWO_21 = 2097152;

/**
 * The decimal at `at` (little-endian two's-complement words of `stride` 32-bit
 * words, over 10^scale) as the nearest float64, which is what parsing its
 * decimal text gives: an unscaled value within ±2^53 over an exact power of
 * ten is one correctly rounded division; anything larger goes through its
 * digits (BigInt) and Number's correctly rounded parse.
 */
function decimalAt(words: Uint32Array, at: number, stride: number, scale: number): number {
  const neg = ((words[at + stride - 1] as number) & 0x80000000) !== 0;
  let small: number | undefined;
  if (stride === 1) small = (words[at] as number) | 0;
  else {
    const hi = (words[at + 1] as number) | 0;
    let fits = hi >= -TWO_21 && hi < TWO_21 && hi < 0 === neg;
    for (let w = 2; fits && w < stride; w++) fits = words[at + w] === (neg ? 0xffffffff : 0);
    if (fits) small = hi * TWO_32 + (words[at] as number);
  }
  if (small !== undefined && Math.abs(scale) <= 22) return scale >= 0 ? small / (POW10[scale] as number) : small * (POW10[-scale] as number);
  let big = 0n;
  for (let w = stride - 1; w >= 0; w--) big = (big << 32n) | BigInt(words[at + w] as number);
  if (neg) big -= 1n << BigInt(32 * stride);
  return Number(`${big}e${-scale}`);
}

/**
 * Copy rows [lo, hi) of an Arrow column (its chunks, in order) into a new
 * Float64Array: numbers as float64, null as NaN, 64-bit integers through
 * their two 32-bit halves (exact up to 2^53), times in epoch ms whatever
 * their unit (nanoseconds through BigInt division so no precision is lost to
 * the 2^53 limit), decimals as the nearest float64, booleans as 0/1. The
 * chunks may be views of WebAssembly memory: everything is copied out, into a
 * new array or `out` from `offset`.
 * @throws InvalidArgumentError (prefixed by `where`, naming the column `name`) for a 64-bit integer beyond ±2^53, which has no exact float64
 * @internal
 */
export function readArrowColumn(chunks: readonly ArrowChunk[], type: ArrowType, lo: number, hi: number, out: Float64Array = new Float64Array(Math.max(0, hi - lo)), offset = 0, where = "readParquet", name?: string): Float64Array {
  const [mul, div] = scaleOf(type);
  const scale = mul !== 1 || div !== 1;
  const nanos = type.typeId === Type.Timestamp && (type as unknown as { unit: number }).unit === 3;
  let base = 0;
  for (const d of chunks) {
    const from = Math.max(lo, base);
    const to = Math.min(hi, base + d.length);
    if (from < to) {
      const k0 = from - base;
      const count = to - from;
      const at = from - lo + offset;
      const off = d.offset + k0;
      const values = d.values as unknown;
      if (type.typeId === Type.Decimal) {
        const dec = type as unknown as { scale: number; bitWidth: number };
        const stride = dec.bitWidth >> 5;
        // The chunk's view has one word per value: view the whole width of each value in the same memory.
        const view = values as Uint32Array;
        const words = new Uint32Array(view.buffer, view.byteOffset, (off + count) * stride);
        for (let k = 0; k < count; k++) out[at + k] = decimalAt(words, (off + k) * stride, stride, dec.scale);
      } else if (type.typeId === Type.Bool) {
        const bits = values as Uint8Array;
        for (let k = 0; k < count; k++) out[at + k] = (bits[(off + k) >> 3] as number) & (1 << ((off + k) & 7)) ? 1 : 0;
      } else if (values instanceof BigInt64Array || values instanceof BigUint64Array) {
        if (nanos) {
          // v / 10^6 as BigInt's truncated quotient plus remainder / 10^6, without BigInt (5-10x faster):
          // v = hi·2^32 + lo = hi·4294·10^6 + c with c = hi·967296 + lo, |c| < 2^51, exact in float64,
          // and floor(c / 10^6) exact (c / 10^6 < 2^32 lies >= 10^-6 from any integer it is not, its ulp < 10^-6).
          const words = new Uint32Array(values.buffer, values.byteOffset + off * 8, count * 2);
          for (let k = 0; k < count; k++) {
            const hiWord = (words[2 * k + 1] as number) | 0;
            const c = hiWord * 967296 + (words[2 * k] as number);
            let q = Math.floor(c / 1e6);
            let rem = c - q * 1e6;
            q += hiWord * 4294;
            if (hiWord < 0 && rem !== 0) {
              q += 1; // BigInt truncates a negative quotient toward zero: the remainder takes v's sign
              rem -= 1e6;
            }
            out[at + k] = q + rem / 1e6;
          }
        } else {
          const words = new Uint32Array(values.buffer, values.byteOffset + off * 8, count * 2);
          const signed = values instanceof BigInt64Array;
          for (let k = 0; k < count; k++) {
            const hiWord = signed ? (words[2 * k + 1] as number) | 0 : (words[2 * k + 1] as number);
            if (hiWord > TWO_21 || hiWord < -TWO_21 || (hiWord === TWO_21 && words[2 * k] !== 0)) {
              throw new InvalidArgumentError("file", `${where}: ${name === undefined ? "column" : `column ${JSON.stringify(name)}`} holds ${String(values[off + k])} at row ${from + k}, beyond ±2^53: it has no exact float64 value; cast it to DOUBLE or DECIMAL where the file is written`);
            }
            const v = hiWord * TWO_32 + (words[2 * k] as number);
            out[at + k] = scale ? (v * mul) / div : v;
          }
        }
      } else {
        const arr = values as Float64Array | Float32Array | Int32Array;
        if (!scale && arr instanceof Float64Array) out.set(off === 0 && count === arr.length ? arr : arr.subarray(off, off + count), at);
        else for (let k = 0; k < count; k++) out[at + k] = ((arr[off + k] as number) * mul) / div;
      }
      const validity = d.nullCount > 0 ? d.nullBitmap : undefined;
      if (validity !== undefined && validity.length > 0) {
        for (let k = 0; k < count; k++) {
          const bit = d.offset + k0 + k;
          if (((validity[bit >> 3] as number) & (1 << (bit & 7))) === 0) out[at + k] = Number.NaN;
        }
      }
    }
    base += d.length;
  }
  return out;
}
