import type { Utf8, Vector } from "apache-arrow";
import type { RecordedResponse } from "../load/recordingLine.js";
import { readArrowColumn } from "./arrowColumn.js";
import type { Codecs } from "./codecs.js";
import { verifyChecksums } from "./columnChecksum.js";
import { parquetBytes } from "./writeParquet.js";

/**
 * Recorded responses as a Parquet file of the store: `time` (the response's
 * own time, TIMESTAMP ms UTC), `key`, `fetched_at` (epoch ms) and `body`
 * (the JSON text exactly as recorded), one row per response, in time order.
 * @internal
 */
export function recordFileBytes(codecs: Codecs, records: readonly RecordedResponse[]): Uint8Array {
  return parquetBytes(
    codecs,
    {
      time: Float64Array.from(records, (r) => r.time),
      columns: {
        key: records.map((r) => r.key),
        fetched_at: Float64Array.from(records, (r) => r.fetchedAt),
        body: records.map((r) => JSON.stringify(r.body)),
      },
    },
    {},
    "compactRecording",
  );
}

/**
 * The records of a file written by {@link recordFileBytes}.
 * @internal
 */
export function readRecordFile(codecs: Codecs, bytes: Uint8Array, endpoint: string): RecordedResponse[] {
  const { pq } = codecs;
  const ffi = pq.readParquet(bytes, { columns: ["time", "key", "fetched_at", "body"] }).intoFFI();
  try {
    const table = codecs.ffi.parseTable(pq.wasmMemory().buffer, ffi.arrayAddrs(), ffi.schemaAddr(), true);
    verifyChecksums(table, ["time", "fetched_at"], `store.loadRecording (endpoint ${endpoint})`);
    const n = table.numRows;
    const col = (name: string): Vector => table.getChild(name) as Vector;
    const time = readArrowColumn(col("time").data, col("time").type, 0, n);
    const fetched = readArrowColumn(col("fetched_at").data, col("fetched_at").type, 0, n);
    const keys = (col("key") as Vector<Utf8>).toArray() as unknown as string[];
    const bodies = (col("body") as Vector<Utf8>).toArray() as unknown as string[];
    const out = new Array<RecordedResponse>(n);
    for (let i = 0; i < n; i++) {
      out[i] = { endpoint, key: keys[i] as string, time: time[i] as number, fetchedAt: fetched[i] as number, body: JSON.parse(bodies[i] as string) as unknown };
    }
    return out;
  } finally {
    ffi.free();
  }
}
