import type { Data, DataType } from "apache-arrow";

/** Arrow type ids (apache-arrow's `Type` enum, the Arrow format's numbering), kept here so reading a column needs no runtime import of apache-arrow. */
const Type = { Int: 2, Float: 3, Bool: 6, Date: 8, Timestamp: 10 } as const;

const TWO_32 = 4294967296;
/** Units of an Arrow Timestamp (TimeUnit SECOND, MILLISECOND, MICROSECOND, NANOSECOND) per ms as [multiply, divide] (dividing keeps 1 µs = 0.001 ms correctly rounded). */
const MS_PER_UNIT: readonly (readonly [number, number])[] = [[1000, 1], [1, 1], [1, 1000], [1, 1e6]];

/** True when a column of this Arrow type can be read as numbers: ints, floats (not half), dates, timestamps, booleans. */
export function isNumericArrowType(type: DataType): boolean {
  switch (type.typeId) {
    case Type.Int:
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
export function isTimeArrowType(type: DataType): boolean {
  return type.typeId === Type.Timestamp || type.typeId === Type.Date;
}

/** Scale of a column's raw values to the output as [multiply, divide]: to epoch ms for times (days for Date32), none otherwise. */
function scaleOf(type: DataType): readonly [number, number] {
  if (type.typeId === Type.Timestamp) return MS_PER_UNIT[(type as unknown as { unit: number }).unit] as readonly [number, number];
  if (type.typeId === Type.Date) return (type as unknown as { unit: number }).unit === 0 ? [86_400_000, 1] : [1, 1];
  return [1, 1];
}

/**
 * Copy rows [lo, hi) of an Arrow column (its chunks, in order) into a new
 * Float64Array: numbers as float64, null as NaN, 64-bit integers through
 * their two 32-bit halves (exact up to 2^53), times in epoch ms whatever
 * their unit (nanoseconds through BigInt division so no precision is lost to
 * the 2^53 limit), booleans as 0/1. The chunks may be views of WebAssembly
 * memory: everything is copied out, into a new array or `out` from `offset`.
 * @internal
 */
export function readArrowColumn(chunks: readonly Data[], type: DataType, lo: number, hi: number, out = new Float64Array(Math.max(0, hi - lo)), offset = 0): Float64Array {
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
      if (type.typeId === Type.Bool) {
        const bits = values as Uint8Array;
        for (let k = 0; k < count; k++) out[at + k] = (bits[(off + k) >> 3] as number) & (1 << ((off + k) & 7)) ? 1 : 0;
      } else if (values instanceof BigInt64Array || values instanceof BigUint64Array) {
        if (nanos) {
          const big = values as BigInt64Array;
          for (let k = 0; k < count; k++) {
            const v = big[off + k] as bigint;
            out[at + k] = Number(v / 1_000_000n) + Number(v % 1_000_000n) / 1e6;
          }
        } else {
          const words = new Uint32Array(values.buffer, values.byteOffset + off * 8, count * 2);
          const signed = values instanceof BigInt64Array;
          for (let k = 0; k < count; k++) {
            const hiWord = words[2 * k + 1] as number;
            const v = (signed ? hiWord | 0 : hiWord) * TWO_32 + (words[2 * k] as number);
            out[at + k] = scale ? (v * mul) / div : v;
          }
        }
      } else {
        const arr = values as Float64Array | Float32Array | Int32Array;
        if (!scale && arr instanceof Float64Array) out.set(arr.subarray(off, off + count), at);
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
