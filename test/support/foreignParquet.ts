/**
 * Parquet files as other tools write them with their defaults, for the tests
 * and the store bench (readParquet of files this library did not write):
 * - `duckdbDefaultParquet`: DuckDB's `COPY ... (FORMAT parquet)` with no
 *   options: SNAPPY, PLAIN doubles, row groups of 122,880 rows, TIMESTAMP in
 *   microseconds, every column OPTIONAL;
 * - `pyarrowDefaultParquet`: what pyarrow's `pq.write_table` (pandas'
 *   `to_parquet`) writes with its defaults, written by arrow-rs (parquet-wasm)
 *   with the same settings, since Debian 12 has no python3-pyarrow: SNAPPY,
 *   dictionary encoding on with a 1 MiB dictionary page limit (PLAIN pages
 *   after it fills), 1 MiB data pages, row groups of 1,048,576 rows, data
 *   page v1, statistics, and a pandas datetime64[ns] index as TIMESTAMP in
 *   nanoseconds.
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { writeFileSync } from "node:fs";
import type { Codecs } from "../../src/store/codecs.js";

/** A path as a SQL string literal. */
const lit = (path: string): string => `'${path.replaceAll("'", "''")}'`;

/** DuckDB's default Parquet of `select` (SQL) at `path`; `options` are extra COPY options (e.g. `row_group_size 1000`). */
export async function duckdbDefaultParquet(select: string, path: string, options = ""): Promise<void> {
  const instance = await DuckDBInstance.create(":memory:");
  const conn = await instance.connect();
  try {
    await conn.run(`copy (${select}) to ${lit(path)} (format parquet${options === "" ? "" : `, ${options}`})`);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** Settings that differ from pyarrow's defaults, for tests that need small pages or row groups. */
export interface PyarrowLikeOptions {
  readonly dictionaryPageSizeLimit?: number;
  readonly dataPageSizeLimit?: number;
  readonly maxRowGroupSize?: number;
}

/**
 * pyarrow's default Parquet of `time` (epoch ms, written as TIMESTAMP ns, the
 * unit of a pandas index; a fraction of a ms to the nearest ns) and DOUBLE `columns` (NaN written as null) at `path`.
 */
export function pyarrowDefaultParquet(codecs: Codecs, time: Float64Array, columns: Record<string, Float64Array>, path: string, options: PyarrowLikeOptions = {}): void {
  const { pq, arrow } = codecs;
  // Whole ms times BigInt; a fraction of a ms (a float64's, e.g. 0.125) to the nearest ns.
  const ns = BigInt64Array.from(time, (t) => BigInt(Math.floor(t)) * 1_000_000n + BigInt(Math.round((t - Math.floor(t)) * 1e6)));
  const vectors: Record<string, import("apache-arrow").Vector> = {
    time: arrow.makeVector(arrow.makeData({ type: new arrow.TimestampNanosecond(), length: time.length, data: ns, nullCount: 0 })),
  };
  for (const [name, values] of Object.entries(columns)) {
    let nulls = 0;
    const bitmap = new Uint8Array((values.length + 7) >> 3);
    for (let i = 0; i < values.length; i++) {
      if (values[i] === values[i]) (bitmap[i >> 3] as number) |= 1 << (i & 7);
      else nulls++;
    }
    vectors[name] = arrow.makeVector(arrow.makeData({ type: new arrow.Float64(), length: values.length, data: values, ...(nulls === 0 ? { nullCount: 0 } : { nullBitmap: bitmap, nullCount: nulls }) }));
  }
  const table = pq.Table.fromIPCStream(arrow.tableToIPC(new arrow.Table(vectors), "stream"));
  const props = new pq.WriterPropertiesBuilder()
    .setCompression(pq.Compression.SNAPPY)
    .setDictionaryEnabled(true)
    .setDictionaryPageSizeLimit(options.dictionaryPageSizeLimit ?? 1 << 20)
    .setDataPageSizeLimit(options.dataPageSizeLimit ?? 1 << 20)
    .setMaxRowGroupSize(options.maxRowGroupSize ?? 1 << 20)
    .setWriterVersion(pq.WriterVersion.V1)
    .setCreatedBy("parquet-cpp-arrow (pyarrow defaults, written by arrow-rs)")
    .build();
  writeFileSync(path, pq.writeParquet(table, props));
}
