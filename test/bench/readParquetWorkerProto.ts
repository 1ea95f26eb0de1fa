/**
 * readParquetProfile.ts's `worker` mode (a prototype, not the library's
 * path): the ranged column-by-column read (`ranged` mode) inside a worker
 * thread, where a Rust panic in parquet-wasm's async reader would end the
 * worker instead of the process. Each request { path } is answered with the
 * columns as Float64Arrays whose buffers are transferred (no copy), or
 * { error }.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { parentPort } from "node:worker_threads";
import * as pq from "parquet-wasm";
import { readArrowSchema, readArrowTable } from "../../src/store/arrowCData.js";
import { readArrowColumn } from "../../src/store/arrowColumn.js";

parentPort?.on("message", async ({ path }: { path: string }) => {
  try {
    const fd = openSync(path, "r");
    const size = fstatSync(fd).size;
    const blob = {
      size,
      slice: (a: number, b: number) => ({
        arrayBuffer: async (): Promise<ArrayBuffer> => {
          const u = Buffer.allocUnsafeSlow(Math.min(b, size) - a);
          readSync(fd, u, 0, u.length, a);
          return u.buffer as ArrayBuffer;
        },
      }),
    };
    const file = await pq.ParquetFile.fromFile(blob as unknown as Blob);
    const schemaFfi = file.schema().intoFFI();
    const names = readArrowSchema(pq.wasmMemory().buffer, schemaFfi.addr()).fields.map((f) => f.name);
    schemaFfi.free();
    const columns: Float64Array[] = [];
    for (const name of names) {
      const ffi = (await file.read({ columns: [name], batchSize: 1 << 30 })).intoFFI();
      const table = readArrowTable(pq.wasmMemory().buffer, ffi.arrayAddrs(), ffi.schemaAddr());
      const col = table.getChild(name) as { type: Parameters<typeof readArrowColumn>[1]; data: Parameters<typeof readArrowColumn>[0] };
      columns.push(readArrowColumn(col.data, col.type, 0, table.numRows));
      ffi.free();
    }
    file.free();
    closeSync(fd);
    parentPort?.postMessage({ names, columns }, columns.map((c) => c.buffer as ArrayBuffer));
  } catch (err) {
    parentPort?.postMessage({ error: String(err) });
  }
});
