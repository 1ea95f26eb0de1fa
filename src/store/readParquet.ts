import { lowerBound } from "../data/lowerBound.js";
import type { Panel } from "../data/Panel.js";
import { sortDedupe } from "../data/sortDedupe.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { readArrowSchema, readArrowTable, type ArrowChunk, type ArrowTable, type ArrowType } from "./arrowCData.js";
import { isNumericArrowType, isTimeArrowType, readArrowColumn } from "./arrowColumn.js";
import { loadReadCodecs, takeFirstRead, type ReadCodecs } from "./readCodecs.js";
import { decodeParquetBlock } from "./decodeParquetBlock.js";
import { bytesIntoWasm, fileIntoWasm, freeWasmFileBlock, type WasmFileBlock } from "./wasmFileBlock.js";
import { verifyChecksums } from "./columnChecksum.js";
import type { PanelBuilder } from "./createPanelBuilder.js";
import { timeBound, type TimeInput } from "./timeBound.js";

/** parquet-wasm, once loadReadCodecs has loaded it in this process. */
let loaded: ReadCodecs | undefined;

/** Options of {@link readParquet}. */
export interface ReadParquetOptions {
  /** Value columns to read [every numeric column]. Only these are copied out; parquet-wasm 0.8.0 decodes every column of the file whatever is asked (its synchronous reader applies no projection), so naming fewer saves the copies, not the decode. */
  readonly columns?: readonly string[];
  /** Keep rows with `time >= start` (epoch ms, ISO 8601 with no offset = UTC, or Date) [no bound]. */
  readonly start?: TimeInput;
  /** Keep rows with `time < end` (half-open, so consecutive ranges never share a row) [no bound]. */
  readonly end?: TimeInput;
  /** The time column [`"time"` if present, else the file's first TIMESTAMP or DATE column]. May also be an INT64/DOUBLE of epoch ms. */
  readonly timeColumn?: string;
  /** Sort rows by time and keep the last row of a repeated time stamp (see `sortDedupe`) instead of rejecting an unsorted file [false]. */
  readonly sort?: boolean;
}

const MAGIC = [0x50, 0x41, 0x52, 0x31]; // "PAR1", at both ends of a Parquet file

/**
 * A file's footer as a Parquet file of its own: "PAR1", the footer's metadata,
 * its length and "PAR1", all readSchema reads (parquet-wasm copies whatever it
 * is given into WebAssembly memory: the whole file cost 40-160 ms a call on a
 * 60 MB file, its footer under 4 ms). Bytes that do not end like a Parquet
 * file are returned whole, copied (they may be a view of WebAssembly memory,
 * which parquet-wasm's copy of its argument may grow and so detach), for
 * parquet-wasm's own error.
 */
function footerOnly(bytes: Uint8Array): Uint8Array {
  const n = bytes.length;
  if (n < 12 || MAGIC.some((b, k) => bytes[n - 4 + k] !== b)) return bytes.slice();
  const metaLen = new DataView(bytes.buffer, bytes.byteOffset + n - 8, 4).getUint32(0, true);
  if (metaLen + 12 > n) return bytes.slice();
  const out = new Uint8Array(metaLen + 12);
  out.set(MAGIC);
  out.set(bytes.subarray(n - 8 - metaLen), 4);
  return out;
}

function fields({ pq }: ReadCodecs, bytes: Uint8Array): ArrowTable["schema"] {
  const ffi = pq.readSchema(footerOnly(bytes)).intoFFI();
  try {
    return readArrowSchema(pq.wasmMemory().buffer, ffi.addr());
  } finally {
    ffi.free();
  }
}

/**
 * One pass over the times: the first row whose time is missing or not finite
 * (-1 if none) and whether they strictly ascend up to it (one loop, so one
 * warm-up in a process's first call: each loop over a year of minutes ran
 * ~7-18 ms before V8 optimised it, ~1 ms after).
 */
function scanTimes(t: Float64Array): { readonly bad: number; readonly ascending: boolean } {
  let ascending = true;
  let prev = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < t.length; i++) {
    const x = t[i] as number;
    if (!Number.isFinite(x)) return { bad: i, ascending };
    if (!(x > prev)) ascending = false;
    prev = x;
  }
  return { bad: -1, ascending };
}

/** What parquetToPanel returns when it appended its rows to a builder. */
const EMPTY: Panel = Object.freeze({ time: new Float64Array(0), columns: Object.freeze({}) });

/**
 * The columns to read: the time column and the value columns.
 * @internal
 */
export function planColumns(schema: ArrowTable["schema"], options: ReadParquetOptions, where: string): { time: string; values: string[]; types: Map<string, ArrowType> } {
  const types = new Map(schema.fields.map((f) => [f.name, f.type]));
  const names = [...types.keys()];
  let time = options.timeColumn;
  if (time === undefined) time = types.has("time") ? "time" : schema.fields.find((f) => isTimeArrowType(f.type))?.name;
  if (time === undefined || !types.has(time)) {
    throw new InvalidArgumentError(
      "timeColumn",
      `${where}: ${time === undefined ? "no TIMESTAMP or DATE column and no column named time" : `no column ${JSON.stringify(time)}`} among ${JSON.stringify(names)}; pass { timeColumn: "<name>" }`,
    );
  }
  if (!isNumericArrowType(types.get(time) as ArrowType)) {
    throw new InvalidArgumentError("timeColumn", `${where}: time column ${JSON.stringify(time)} is ${String(types.get(time))}, not a TIMESTAMP, DATE or epoch-ms number`);
  }
  let values: string[];
  if (options.columns === undefined) {
    values = names.filter((n) => n !== time && isNumericArrowType(types.get(n) as ArrowType));
  } else {
    if (!Array.isArray(options.columns)) throw new InvalidArgumentError("columns", `${where}: columns must be a list of column names, got ${JSON.stringify(options.columns)}`);
    values = [...options.columns];
    for (const n of values) {
      if (!types.has(n)) throw new InvalidArgumentError("columns", `${where}: no column ${JSON.stringify(n)} among ${JSON.stringify(names)}`);
      if (!isNumericArrowType(types.get(n) as ArrowType)) {
        throw new InvalidArgumentError("columns", `${where}: column ${JSON.stringify(n)} is ${String(types.get(n))}, not numeric; leave it out of columns`);
      }
      if (n === time) throw new InvalidArgumentError("columns", `${where}: ${JSON.stringify(n)} is the time column; list value columns only`);
    }
  }
  return { time, values, types };
}

/**
 * The plan of a store file: `time` and every other column as a value column,
 * each of which must read as numbers (one DOUBLE column per metric, or a type
 * that converts exactly): a column of another type is refused here, so a save
 * never rewrites a day file without it.
 * @throws InvalidArgumentError naming the column, its type and the fix
 * @internal
 */
export function storeFilePlan(codecs: ReadCodecs, bytes: Uint8Array, where: string): { time: string; values: string[] } {
  const schema = fields(codecs, bytes);
  const names = schema.fields.map((f) => f.name);
  if (!names.includes("time")) throw new InvalidArgumentError("file", `${where}: no column "time" among ${JSON.stringify(names)}; a store file has time and one column per metric: delete or replace it`);
  for (const f of schema.fields) refuseNonNumeric(f.name, f.type, where);
  return { time: "time", values: names.filter((n) => n !== "time") };
}

function refuseNonNumeric(name: string, type: ArrowType, where: string): void {
  if (!isNumericArrowType(type)) {
    throw new InvalidArgumentError(
      "file",
      `${where}: column ${JSON.stringify(name)} is ${String(type)}, not a number (DOUBLE, FLOAT, DECIMAL, integer, boolean, TIMESTAMP or DATE); cast it to DOUBLE where the file is written, or remove the file`,
    );
  }
}

/**
 * Decode a Parquet file into a Panel (see {@link readParquet}), or, with
 * `into`, append the rows to that builder in place (the returned Panel is
 * then empty): the store's loads decode each day file straight into the
 * result's columns. The file is its bytes in JavaScript memory, or a block
 * of parquet-wasm's memory (fileIntoWasm), which this call takes over: it is
 * decoded or freed, whatever happens.
 * @internal
 */
export function parquetToPanel(
  codecs: ReadCodecs,
  file: Uint8Array | WasmFileBlock,
  options: ReadParquetOptions,
  where: string,
  known?: { readonly time: string; readonly values: readonly string[] },
  into?: PanelBuilder,
): Panel {
  const { pq } = codecs;
  let block = file instanceof Uint8Array ? undefined : file;
  let ffi: ReturnType<ReturnType<typeof decodeParquetBlock>["intoFFI"]>;
  let start: number;
  let end: number;
  try {
    start = timeBound(options.start, "start", where, -Infinity);
    end = timeBound(options.end, "end", where, Infinity);
    const handed = block ?? bytesIntoWasm(codecs, file as Uint8Array);
    block = undefined; // the decoder owns it from here, and frees it even when it fails
    ffi = decodeParquetBlock(codecs, handed, { batchSize: 1 << 30 }).intoFFI();
  } finally {
    if (block !== undefined) freeWasmFileBlock(codecs, block);
  }
  try {
    // Views of WebAssembly memory: valid until ffi.free() and while nothing grows that memory.
    const table = readArrowTable(pq.wasmMemory().buffer, ffi.arrayAddrs(), ffi.schemaAddr());
    // The decoded table's schema is the file's: planned from it, with no separate schema read (the store knows its own files' columns).
    const plan = known ?? planColumns(table.schema, options, where);
    const timeName = plan.time;
    const values = [...plan.values];
    const typeOf = (name: string): ArrowType | undefined => table.getChild(name)?.type;
    const n = table.numRows;
    verifyChecksums(table, [timeName, ...values], where);
    // Every column read is checked, even when the plan came from the caller: a column of another type is never read as its bytes.
    for (const name of [timeName, ...values]) {
      const type = typeOf(name);
      if (type !== undefined) refuseNonNumeric(name, type, where);
    }
    const read = (name: string, lo: number, hi: number, out?: Float64Array, at = 0): Float64Array => {
      const col = table.getChild(name) as { type: ArrowType; data: readonly ArrowChunk[] };
      return readArrowColumn(col.data, col.type, lo, hi, out, at, where, name);
    };
    let time = read(timeName, 0, n);
    const times = scanTimes(time);
    if (times.bad >= 0) throw new InvalidArgumentError("file", `${where}: time column ${JSON.stringify(timeName)} has a missing or non-finite time at row ${times.bad}`);
    if (!times.ascending) {
      if (options.sort !== true) {
        throw new InvalidArgumentError("file", `${where}: times in ${JSON.stringify(timeName)} are not strictly ascending; pass { sort: true } to sort them and keep the last row of a repeated time`);
      }
      const cols: Record<string, Float64Array> = {};
      for (const v of values) cols[v] = table.getChild(v) !== null ? read(v, 0, n) : new Float64Array(n).fill(Number.NaN);
      const sorted = sortDedupe(time, cols).panel;
      const lo = lowerBound(sorted.time, start);
      const hi = lowerBound(sorted.time, end);
      const out: Record<string, Float64Array> = {};
      for (const v of values) out[v] = (sorted.columns[v] as Float64Array).slice(lo, Math.max(lo, hi));
      const part = { time: sorted.time.slice(lo, Math.max(lo, hi)), columns: out };
      if (into === undefined) return part;
      into.push(part);
      return EMPTY;
    }
    const lo = lowerBound(time, start);
    const hi = Math.max(lo, lowerBound(time, end));
    if (lo > 0 || hi < n) time = time.slice(lo, hi);
    const write = (v: string, dst: Float64Array, at: number): void => {
      const type = typeOf(v);
      // Only a store file can lack a column here (planColumns checked the user's): that metric has no point in it.
      if (type === undefined) dst.fill(Number.NaN, at, at + hi - lo);
      else read(v, lo, hi, dst, at);
    };
    if (into !== undefined) {
      into.append(time, write);
      return EMPTY;
    }
    const columns: Record<string, Float64Array> = {};
    for (const v of values) write(v, (columns[v] = new Float64Array(hi - lo)), 0);
    return { time, columns };
  } finally {
    ffi.free();
  }
}

/**
 * Read a Parquet file (from pandas/pyarrow, polars, DuckDB, Spark or
 * {@link writeParquet}) into a Panel. The time column becomes `time` in
 * epoch ms UTC whatever its unit (TIMESTAMP in s, ms, µs or ns, DATE, or an
 * INT64/DOUBLE already in epoch ms); every numeric column (DOUBLE, FLOAT,
 * integers, DECIMAL, booleans) becomes a Float64Array with null as NaN, each
 * value the nearest float64 (exact for integers; a 64-bit integer beyond
 * ±2^53, which has none, is an error); other columns (strings, binary,
 * nested, times of day) are left out unless named, which is an error: no
 * column is ever read as its raw bytes.
 * Rows are kept when `start <= time < end`. Only the listed columns are
 * copied out (parquet-wasm decodes the whole file). A file written by {@link writeParquet} carries column checksums
 * in its footer: every column read is checked against them (a file from
 * another writer has none; parquet-wasm does not check page CRCs). Codec:
 * arrow-rs (parquet-wasm) into WebAssembly memory, viewed in place through
 * the Arrow C data interface and copied once into the Panel's arrays. The
 * first call in a process imports parquet-wasm and compiles its WebAssembly
 * (apache-arrow is not needed to read), and reads its file while libuv's
 * threads fault in the memory the decode will write (firstFileIntoWasm.ts). The file is read straight into
 * parquet-wasm's WebAssembly memory (no JavaScript copy of it), which grows
 * to about 4x the largest file read so far and never shrinks: a second read
 * of a large file touches no fresh memory for it.
 * @throws InvalidArgumentError when the file cannot be read or is damaged (a column differs from its checksum), a named column is missing or not numeric, an integer is beyond ±2^53, there is no time column, a time is missing, or times are unsorted (without `sort`)
 * @example
 * const p = await readParquet("btc.parquet", { columns: ["close"], start: "2026-11-01", end: "2026-11-02" });
 * p.time.length // 1440 one-minute rows of 1 November (UTC)
 */
export async function readParquet(path: string, options: ReadParquetOptions = {}): Promise<Panel> {
  if (typeof path !== "string" || path.trim() === "") throw new InvalidArgumentError("path", `readParquet: path must be a non-empty file path, got ${JSON.stringify(path)}`);
  const read = (codecs: ReadCodecs): WasmFileBlock => {
    try {
      return fileIntoWasm(codecs, path);
    } catch (err) {
      throw new InvalidArgumentError("path", `readParquet: cannot read ${JSON.stringify(path)} (${(err as NodeJS.ErrnoException).code ?? String(err)}); check the path`);
    }
  };
  // The call that loads parquet-wasm has its file read as part of the load (firstFileIntoWasm.ts), and takes it at once.
  loaded ??= await loadReadCodecs(path);
  const codecs = loaded;
  // Read after the last await: nothing else runs between the read and the end of the (synchronous) decode.
  const block = takeFirstRead(path) ?? read(codecs);
  try {
    return parquetToPanel(codecs, block, options, "readParquet");
  } catch (err) {
    if (err instanceof InvalidArgumentError) throw err;
    throw new InvalidArgumentError("path", `readParquet: ${JSON.stringify(path)} is not a readable Parquet file (${err instanceof Error ? err.message : String(err)})`);
  }
}
