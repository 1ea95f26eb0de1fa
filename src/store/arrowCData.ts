/**
 * Arrow data that parquet-wasm decoded, read in place in WebAssembly memory
 * through the Arrow C data interface's two structs (ArrowSchema, ArrowArray:
 * https://arrow.apache.org/docs/format/CDataInterface.html), on wasm32
 * (4-byte pointers, int64 fields 8-byte aligned). Only what the readers use:
 * each column's type (from its format string), its chunks' value and
 * validity buffers as typed-array views, the offsets and bytes of UTF-8
 * columns, and the schema's key/value metadata. It needs no apache-arrow,
 * whose import (~160 modules) was most of a first read's start-up; the views
 * are valid until the parquet-wasm object is freed and while nothing grows
 * WebAssembly memory.
 * @internal
 */

/** Arrow format type ids (apache-arrow's `Type` enum), and the units' numbering (TimeUnit, DateUnit, Precision). */
const TYPE = { Null: 1, Int: 2, Float: 3, Binary: 4, Utf8: 5, Bool: 6, Decimal: 7, Date: 8, Time: 9, Timestamp: 10, Interval: 11, List: 12, Struct: 13, Union: 14, FixedSizeBinary: 15, FixedSizeList: 16, Map: 17, Duration: 18, LargeBinary: 19, LargeUtf8: 20, LargeList: 21, Dictionary: -1 } as const;
const TIME_UNITS = ["SECOND", "MILLISECOND", "MICROSECOND", "NANOSECOND"] as const;

/** A column's type as the readers see it: apache-arrow's fields of the same names (a DataType satisfies it), and its name in messages. */
export interface ArrowType {
  readonly typeId: number;
  /** TimeUnit of a Timestamp/Time/Duration, DateUnit (0 = day, 1 = ms) of a Date. */
  readonly unit?: number | undefined;
  /** Float precision: 0 half, 1 single, 2 double; a Decimal's digits. */
  readonly precision?: number | undefined;
  readonly bitWidth?: number | undefined;
  readonly isSigned?: boolean | undefined;
  readonly timezone?: string | null | undefined;
  readonly scale?: number | undefined;
  toString(): string;
}

/** One chunk of a column, as apache-arrow's Data names its fields: `values` (and the bitmap) start at the buffer's start; rows are [offset, offset + length). */
export interface ArrowChunk {
  readonly length: number;
  readonly offset: number;
  /** Missing values (the readers only ask whether there are any; `length` when the producer did not count them). */
  readonly nullCount: number;
  /** Validity bits (set = present) when a value may be missing, else undefined. */
  readonly nullBitmap: Uint8Array | undefined;
  /** The value buffer as a typed array of the type's width (bits as Uint8Array for Bool, one 32-bit word a value for Decimal); undefined for types the readers never read as numbers. */
  readonly values: Float64Array | Float32Array | BigInt64Array | BigUint64Array | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array | undefined;
  /** UTF-8 columns: the value offsets (offset + length + 1 of them) and the bytes. */
  readonly valueOffsets?: Int32Array;
  readonly bytes?: Uint8Array;
}

export interface ArrowField {
  readonly name: string;
  readonly type: ArrowType;
}

/** A decoded table: its columns' fields, the schema's key/value metadata and each column's chunks (one per record batch). */
export interface ArrowTable {
  readonly schema: { readonly fields: readonly ArrowField[]; readonly metadata: ReadonlyMap<string, string> };
  readonly numRows: number;
  getChild(name: string): { readonly type: ArrowType; readonly data: readonly ArrowChunk[] } | null;
}

const utf8 = new TextDecoder("utf-8");

function cString(view: DataView, ptr: number): string {
  if (ptr === 0) return "";
  let end = ptr;
  while (end < view.byteLength && view.getUint8(end) !== 0) end++;
  return utf8.decode(new Uint8Array(view.buffer, ptr, end - ptr));
}

/** The C interface's metadata encoding: int32 count, then (int32 length, bytes) for each key and value. */
const NO_METADATA: ReadonlyMap<string, string> = new Map();

function metadataAt(view: DataView, ptr: number): ReadonlyMap<string, string> {
  if (ptr === 0) return NO_METADATA;
  const out = new Map<string, string>();
  const n = view.getInt32(ptr, true);
  let at = ptr + 4;
  const text = (): string => {
    const len = view.getInt32(at, true);
    const s = utf8.decode(new Uint8Array(view.buffer, at + 4, len));
    at += 4 + len;
    return s;
  };
  for (let i = 0; i < n; i++) {
    const key = text();
    out.set(key, text());
  }
  return out;
}

function type(typeId: number, name: string, extra: Omit<ArrowType, "typeId" | "toString"> = {}): ArrowType {
  return { typeId, ...extra, toString: () => name };
}

const INTS: Record<string, [number, boolean]> = { c: [8, true], C: [8, false], s: [16, true], S: [16, false], i: [32, true], I: [32, false], l: [64, true], L: [64, false] };
const SIMPLE: Record<string, ArrowType> = {
  n: type(TYPE.Null, "Null"),
  b: type(TYPE.Bool, "Bool"),
  e: type(TYPE.Float, "Float16", { precision: 0 }),
  f: type(TYPE.Float, "Float32", { precision: 1 }),
  g: type(TYPE.Float, "Float64", { precision: 2 }),
  z: type(TYPE.Binary, "Binary"),
  Z: type(TYPE.LargeBinary, "LargeBinary"),
  u: type(TYPE.Utf8, "Utf8"),
  U: type(TYPE.LargeUtf8, "LargeUtf8"),
  tdD: type(TYPE.Date, "Date32<DAY>", { unit: 0 }),
  tdm: type(TYPE.Date, "Date64<MILLISECOND>", { unit: 1 }),
};

/** Types of formats without children, made once each (a store load reads the same few types from every file). */
const LEAF_TYPES = new Map<string, ArrowType>();

/** The type a format string names (children's types for nested ones); an unknown format is a type of no id that no reader accepts. */
function typeOf(format: string, children: readonly ArrowField[]): ArrowType {
  if (children.length > 0) return typeOfFormat(format, children);
  let t = LEAF_TYPES.get(format);
  if (t === undefined) LEAF_TYPES.set(format, (t = typeOfFormat(format, children)));
  return t;
}

function typeOfFormat(format: string, children: readonly ArrowField[]): ArrowType {
  const simple = SIMPLE[format];
  if (simple !== undefined) return simple;
  const int = INTS[format];
  if (int !== undefined) return type(TYPE.Int, `${int[1] ? "Int" : "Uint"}${int[0]}`, { bitWidth: int[0], isSigned: int[1] });
  const unitOf = (c: string | undefined): number => "smun".indexOf(c ?? "");
  if (format.startsWith("d:")) {
    const [precision, scale, bits] = format.slice(2).split(",").map(Number) as [number, number, number | undefined];
    return type(TYPE.Decimal, `Decimal[${precision}e${scale > 0 ? "+" : ""}${scale}]`, { precision, scale, bitWidth: bits ?? 128 });
  }
  if (format.startsWith("ts") && unitOf(format[2]) >= 0 && format[3] === ":") {
    const unit = unitOf(format[2]);
    const timezone = format.slice(4) === "" ? null : format.slice(4);
    return type(TYPE.Timestamp, `Timestamp<${TIME_UNITS[unit] as string}${timezone === null ? "" : `, ${timezone}`}>`, { unit, timezone });
  }
  if (format.startsWith("tt") && unitOf(format[2]) >= 0) {
    const unit = unitOf(format[2]);
    const bitWidth = unit < 2 ? 32 : 64;
    return type(TYPE.Time, `Time${bitWidth}<${TIME_UNITS[unit] as string}>`, { unit, bitWidth });
  }
  if (format.startsWith("tD")) return type(TYPE.Duration, `Duration<${TIME_UNITS[unitOf(format[2])] ?? "?"}>`);
  if (format.startsWith("ti")) return type(TYPE.Interval, "Interval");
  const inner = children.map((c) => `${c.name}: ${String(c.type)}`).join(", ");
  if (format === "+l" || format === "+L") return type(format === "+l" ? TYPE.List : TYPE.LargeList, `${format === "+l" ? "List" : "LargeList"}<${String(children[0]?.type)}>`);
  if (format.startsWith("+w:")) return type(TYPE.FixedSizeList, `FixedSizeList[${format.slice(3)}]<${String(children[0]?.type)}>`);
  if (format === "+s") return type(TYPE.Struct, `Struct<{${inner}}>`);
  if (format === "+m") return type(TYPE.Map, `Map<{${inner}}>`);
  if (format.startsWith("+u")) return type(TYPE.Union, `Union<${inner}>`);
  if (format.startsWith("w:")) return type(TYPE.FixedSizeBinary, `FixedSizeBinary[${format.slice(2)}]`);
  return type(0, `unknown Arrow format ${JSON.stringify(format)}`);
}

/** The field an ArrowSchema struct at `ptr` describes (a dictionary-encoded field's type is a Dictionary, which no reader reads as numbers). */
function fieldAt(view: DataView, ptr: number): ArrowField & { readonly children: readonly ArrowField[]; readonly metadata: ReadonlyMap<string, string> } {
  const format = cString(view, view.getUint32(ptr, true));
  const name = cString(view, view.getUint32(ptr + 4, true));
  const metadata = metadataAt(view, view.getUint32(ptr + 8, true));
  const nChildren = Number(view.getBigInt64(ptr + 24, true));
  const childPtrs = view.getUint32(ptr + 32, true);
  const children: ArrowField[] = [];
  for (let i = 0; i < nChildren; i++) children.push(fieldAt(view, view.getUint32(childPtrs + 4 * i, true)));
  const dictionary = view.getUint32(ptr + 36, true);
  const own = typeOf(format, children);
  const t = dictionary === 0 ? own : type(TYPE.Dictionary, `Dictionary<${String(own)}, ${String(fieldAt(view, dictionary).type)}>`);
  return { name, type: t, children, metadata };
}

/** The fields and metadata of a struct ArrowSchema (a table's or a record batch's schema) at `ptr` in `memory`. */
export function readArrowSchema(memory: ArrayBuffer, ptr: number): ArrowTable["schema"] {
  const top = fieldAt(new DataView(memory), ptr);
  return { fields: top.children.map(({ name, type: t }) => ({ name, type: t })), metadata: top.metadata };
}

/** The chunk an ArrowArray struct at `ptr` holds, its buffers viewed as `t`'s values. */
function chunkAt(view: DataView, ptr: number, t: ArrowType): ArrowChunk {
  const length = Number(view.getBigInt64(ptr, true));
  // -1 is "not computed" in the C interface: a bitmap, if any, is then read as if some value may be missing.
  const nullCount = Number(view.getBigInt64(ptr + 8, true));
  const offset = Number(view.getBigInt64(ptr + 16, true));
  const nBuffers = Number(view.getBigInt64(ptr + 24, true));
  const bufferPtrs = view.getUint32(ptr + 40, true);
  const memory = view.buffer as ArrayBuffer;
  const rows = offset + length;
  const validity = nBuffers > 0 ? view.getUint32(bufferPtrs, true) : 0;
  const nullBitmap = validity !== 0 && nullCount !== 0 ? new Uint8Array(memory, validity, (rows + 7) >> 3) : undefined;
  const data = nBuffers > 1 ? view.getUint32(bufferPtrs + 4, true) : 0;
  let values: ArrowChunk["values"];
  let valueOffsets: Int32Array | undefined;
  let bytes: Uint8Array | undefined;
  if (data !== 0 || rows === 0) {
    switch (t.typeId) {
      case TYPE.Float:
        values = t.precision === 2 ? new Float64Array(memory, data, rows) : t.precision === 1 ? new Float32Array(memory, data, rows) : undefined;
        break;
      case TYPE.Int: {
        const signed = t.isSigned === true;
        const Array = { 8: signed ? Int8Array : Uint8Array, 16: signed ? Int16Array : Uint16Array, 32: signed ? Int32Array : Uint32Array, 64: signed ? BigInt64Array : BigUint64Array }[t.bitWidth as 8 | 16 | 32 | 64];
        values = new Array(memory, data, rows);
        break;
      }
      case TYPE.Timestamp:
        values = new BigInt64Array(memory, data, rows);
        break;
      case TYPE.Date:
        values = t.unit === 0 ? new Int32Array(memory, data, rows) : new BigInt64Array(memory, data, rows);
        break;
      case TYPE.Decimal:
        values = new Uint32Array(memory, data, rows);
        break;
      case TYPE.Bool:
        values = new Uint8Array(memory, data, (rows + 7) >> 3);
        break;
      case TYPE.Utf8: {
        valueOffsets = new Int32Array(memory, data, rows + 1);
        const end = rows === 0 ? 0 : (valueOffsets[rows] as number);
        bytes = new Uint8Array(memory, nBuffers > 2 ? view.getUint32(bufferPtrs + 8, true) : 0, end);
        break;
      }
      default:
        values = undefined;
    }
  }
  return { length, offset, nullCount: nullCount < 0 ? (nullBitmap === undefined ? 0 : length) : nullCount, nullBitmap, values, ...(valueOffsets === undefined || bytes === undefined ? {} : { valueOffsets, bytes }) };
}

/**
 * The table of a parquet-wasm FFI stream: record batches (struct ArrowArrays
 * at `arrayPtrs`) of the struct ArrowSchema at `schemaPtr`, in `memory`.
 */
export function readArrowTable(memory: ArrayBuffer, arrayPtrs: ArrayLike<number>, schemaPtr: number): ArrowTable {
  const view = new DataView(memory);
  const schema = readArrowSchema(memory, schemaPtr);
  const columns = new Map<string, { type: ArrowType; data: ArrowChunk[] }>();
  for (const f of schema.fields) columns.set(f.name, { type: f.type, data: [] });
  const byIndex = [...columns.values()];
  let numRows = 0;
  for (let b = 0; b < arrayPtrs.length; b++) {
    const ptr = arrayPtrs[b] as number;
    numRows += Number(view.getBigInt64(ptr, true));
    const childPtrs = view.getUint32(ptr + 44, true);
    for (let i = 0; i < byIndex.length; i++) {
      const c = byIndex[i] as { type: ArrowType; data: ArrowChunk[] };
      c.data.push(chunkAt(view, view.getUint32(childPtrs + 4 * i, true), c.type));
    }
  }
  return { schema, numRows, getChild: (name) => columns.get(name) ?? null };
}

/** The strings of a UTF-8 column's rows (null as null). */
export function utf8Strings(chunks: readonly ArrowChunk[]): (string | null)[] {
  const out: (string | null)[] = [];
  for (const d of chunks) {
    const offsets = d.valueOffsets;
    const bytes = d.bytes;
    if (offsets === undefined || bytes === undefined) throw new TypeError("utf8Strings: not a UTF-8 column");
    for (let k = d.offset; k < d.offset + d.length; k++) {
      const present = d.nullBitmap === undefined || ((d.nullBitmap[k >> 3] as number) & (1 << (k & 7))) !== 0;
      out.push(present ? utf8.decode(bytes.subarray(offsets[k], offsets[k + 1])) : null);
    }
  }
  return out;
}
