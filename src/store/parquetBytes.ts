import type * as Arrow from "apache-arrow";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { toEpochMs } from "../data/toEpochMs.js";
import type { Codecs } from "./codecs.js";
import { CHECKSUM_KEY, checksum64, checksumText } from "./columnChecksum.js";
import type { TableColumns } from "./tableColumns.js";
import type { WriteParquetOptions } from "./writeParquet.js";

/*
 * The Parquet encoder behind writeParquet, the store and recordings. A file of its own, which no public
 * declaration imports: its signature names apache-arrow's types (Codecs), and a public .d.ts that
 * reached them made every TypeScript program importing the package parse and bind apache-arrow's ~120
 * declaration files (about 1 s per tslab notebook kernel, and in users' editors).
 */

/** parquet-wasm's codec for each `compression` option. */
const CODECS = { lz4: "LZ4_RAW", snappy: "SNAPPY", zstd: "ZSTD", none: "UNCOMPRESSED" } as const;

/** Validity bitmap of a float column (bit set = value present): NaN is written as null. Undefined when nothing is missing. */
function validity(values: Float64Array): { bitmap: Uint8Array; nulls: number } | undefined {
  let nulls = 0;
  for (let i = 0; i < values.length; i++) if (values[i] !== values[i]) nulls++;
  if (nulls === 0) return undefined;
  const bitmap = new Uint8Array((values.length + 7) >> 3);
  for (let i = 0; i < values.length; i++) if (values[i] === values[i]) (bitmap[i >> 3] as number) |= 1 << (i & 7);
  return { bitmap, nulls };
}

/** A DOUBLE column and its checksum. */
function doubleVector(arrow: Codecs["arrow"], values: Float64Array): { vector: Arrow.Vector; checksum: string } {
  const v = validity(values);
  const type = new arrow.Float64();
  const data = arrow.makeData({ type, length: values.length, data: values, ...(v === undefined ? { nullCount: 0 } : { nullBitmap: v.bitmap, nullCount: v.nulls }) });
  return { vector: arrow.makeVector(data), checksum: checksum64(type, values, v?.bitmap) };
}

/** Date's range, ±8.64e15 ms (about ±275 000 years): a time beyond it is no time (and 1e300 would wrap around int64). */
const TIME_LIMIT_MS = 8.64e15;

/** The time column (TIMESTAMP ms UTC) and its checksum. */
function timeVector(arrow: Codecs["arrow"], time: Float64Array, where: string): { vector: Arrow.Vector; checksum: string } {
  const ms = new BigInt64Array(time.length);
  for (let i = 0; i < time.length; i++) {
    const t = time[i] as number;
    if (!Number.isFinite(t)) throw new InvalidArgumentError("table", `${where}: time must be finite epoch ms, got ${t} at row ${i}`);
    if (!(Math.abs(t) <= TIME_LIMIT_MS)) toEpochMs(t, { source: where, row: i, min: -TIME_LIMIT_MS, max: TIME_LIMIT_MS }); // throws InvalidTimeError
    ms[i] = BigInt(Math.round(t));
  }
  const type = new arrow.TimestampMillisecond("UTC");
  return { vector: arrow.makeVector(arrow.makeData({ type, length: time.length, data: ms, nullCount: 0 })), checksum: checksum64(type, ms, undefined) };
}

/**
 * The bytes of a Parquet file holding `table` (see {@link writeParquet} for
 * the layout), built in memory.
 * @internal
 */
export function parquetBytes(codecs: Codecs, t: TableColumns, options: WriteParquetOptions, where: string): Uint8Array {
  const { pq, arrow } = codecs;
  const vectors: Record<string, Arrow.Vector> = {};
  const checksums: Record<string, string> = {};
  if (t.time !== undefined) ({ vector: vectors["time"], checksum: checksums["time"] } = timeVector(arrow, t.time, where));
  const n = t.time?.length;
  for (const [name, col] of Object.entries(t.columns)) {
    if (name in vectors) throw new InvalidArgumentError("table", `${where}: column ${JSON.stringify(name)} appears twice; rename one (time is reserved for the time column)`);
    if (n !== undefined && col.length !== n) {
      throw new InvalidArgumentError("table", `${where}: column ${JSON.stringify(name)} has ${col.length} values, expected ${n} (one per time)`);
    }
    if (col instanceof Float64Array) ({ vector: vectors[name], checksum: checksums[name] } = doubleVector(arrow, col));
    else {
      const type = new arrow.Utf8();
      vectors[name] = arrow.vectorFromArray(col as (string | null)[], type);
      checksums[name] = checksumText(type, col as (string | null)[]);
    }
  }
  if (Object.keys(vectors).length === 0) throw new InvalidArgumentError("table", `${where}: table has no columns to write`);
  const table = new arrow.Table(vectors);
  const compression = options.compression ?? "lz4";
  const codec = Object.hasOwn(CODECS, compression) ? pq.Compression[CODECS[compression]] : undefined;
  if (codec === undefined) throw new InvalidArgumentError("compression", `${where}: compression must be "lz4", "snappy", "zstd" or "none", got ${JSON.stringify(compression)}`);
  let builder = new pq.WriterPropertiesBuilder().setCompression(codec).setDictionaryEnabled(false).setCreatedBy("market-intel-lab");
  builder = builder.setKeyValueMetadata(new Map([...Object.entries(options.metadata ?? {}), [CHECKSUM_KEY, JSON.stringify(checksums)]]));
  const wasmTable = pq.Table.fromIPCStream(arrow.tableToIPC(table, "stream"));
  return pq.writeParquet(wasmTable, builder.build());
}
