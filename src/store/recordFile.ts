import type { RecordedResponse } from "../load/recordingLine.js";
import { readArrowTable, utf8Strings, type ArrowChunk, type ArrowType } from "./arrowCData.js";
import { readArrowColumn } from "./arrowColumn.js";
import type { Codecs, ReadCodecs } from "./codecs.js";
import { verifyChecksums } from "./columnChecksum.js";
import { parquetBytes } from "./parquetBytes.js";

/**
 * A recorded body kept as the JSON text the store holds (`JSON.stringify` of
 * the body), not parsed: compaction carries bodies this way, so a large day
 * holds its bodies as text (about their size in bytes) instead of as
 * objects (several times it).
 * @internal
 */
export class BodyText {
  constructor(readonly json: string) {}
}

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
        body: records.map((r) => (r.body instanceof BodyText ? r.body.json : JSON.stringify(r.body))),
      },
    },
    {},
    "compactRecording",
  );
}

/**
 * The records of a file written by {@link recordFileBytes}; with
 * `bodyText`, each body as a {@link BodyText} (the stored text, unparsed).
 * @internal
 */
export function readRecordFile(codecs: ReadCodecs, bytes: Uint8Array, endpoint: string, options: { readonly bodyText?: boolean } = {}): RecordedResponse[] {
  const { pq } = codecs;
  const ffi = pq.readParquet(bytes, { columns: ["time", "key", "fetched_at", "body"] }).intoFFI();
  try {
    const table = readArrowTable(pq.wasmMemory().buffer, ffi.arrayAddrs(), ffi.schemaAddr());
    verifyChecksums(table, ["time", "key", "fetched_at", "body"], `store.loadRecording (endpoint ${endpoint})`);
    const n = table.numRows;
    const col = (name: string): { type: ArrowType; data: readonly ArrowChunk[] } => {
      const c = table.getChild(name);
      if (c === null) throw new TypeError(`no column ${JSON.stringify(name)}`);
      return c;
    };
    const time = readArrowColumn(col("time").data, col("time").type, 0, n);
    const fetched = readArrowColumn(col("fetched_at").data, col("fetched_at").type, 0, n);
    const keys = utf8Strings(col("key").data) as string[];
    const bodies = utf8Strings(col("body").data) as string[];
    const out = new Array<RecordedResponse>(n);
    for (let i = 0; i < n; i++) {
      out[i] = { endpoint, key: keys[i] as string, time: time[i] as number, fetchedAt: fetched[i] as number, body: options.bodyText === true ? new BodyText(bodies[i] as string) : (JSON.parse(bodies[i] as string) as unknown) };
    }
    return out;
  } finally {
    ffi.free();
  }
}
