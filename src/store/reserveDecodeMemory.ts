import type { ReadCodecs } from "./readCodecs.js";

/**
 * How much WebAssembly memory parquet-wasm's whole-file decode peaks at, per
 * byte of the file: 3.8-4.1 on a year of one-minute rows x 20 DOUBLE columns
 * (240 MiB for DuckDB's 62.5 MB file, 263 MiB for pyarrow's 67.7 MB, 229 MiB
 * for writeParquet's 56.2 MB): the file's copy, the decompressed pages and
 * the Arrow arrays.
 */
const PEAK_PER_FILE_BYTE = 4;

/**
 * The largest reservation made (1 GiB): WebAssembly memory cannot pass 4 GiB,
 * and an allocation parquet-wasm cannot make aborts its Rust code (a trap
 * that may leave its allocator unusable); a file too large for this decodes
 * as it would without a reservation.
 */
const MAX_RESERVE = 2 ** 30;

/**
 * Make parquet-wasm's allocator take, in one step, the WebAssembly memory a
 * decode of `fileBytes` will need, when its memory is smaller than that (a
 * process's first read, or a larger file than before): a buffer of that
 * size is handed to parquet-wasm's `readSchema` (which copies it in with one
 * allocation, finds no Parquet footer in zeros, and frees it), so the
 * allocator grows its memory once and the decode reuses the freed block.
 * Otherwise the decode grows it in hundreds of steps, and V8's cost for a
 * step grows with the memory's size (here 0.01 ms a step below 20 MB, 1.3 ms
 * at ~190 MB): on a 62 MB file's first read, the decode fell from ~820-1220
 * to ~260-330 ms of CPU, the reservation itself costing ~300 ms (the pages
 * it touches, which the decode would otherwise touch). The memory ends the
 * same size either way, and it never shrinks, so later reads skip this.
 * @internal
 */
export function reserveDecodeMemory({ pq }: ReadCodecs, fileBytes: number): void {
  const want = PEAK_PER_FILE_BYTE * fileBytes;
  if (!(want > pq.wasmMemory().buffer.byteLength) || want > MAX_RESERVE) return;
  try {
    pq.readSchema(new Uint8Array(want));
  } catch {
    // Expected: zeros are not a Parquet file. What was wanted is the allocation, freed again.
  }
}
