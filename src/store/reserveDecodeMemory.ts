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
 * process's first read, or a larger file than before): a block of that size
 * is allocated with the module's own allocator (wasm-bindgen's
 * `__wbindgen_malloc`, the one its functions copy their arguments with) and
 * freed at once, so the allocator grows its memory once, touching none of
 * its pages, and the decode reuses the freed block. Otherwise the decode
 * grows it in hundreds of steps, and V8's cost for a step grows with the
 * memory's size (here 0.01 ms a step below 20 MB, 1.3 ms at ~190 MB): on a
 * 62 MB file's first read, the decode fell from ~820-1220 to ~260-330 ms of
 * CPU. (Until 2026-11-28 the block was a buffer of zeros handed to
 * `readSchema`, which copied it in: 240 MB read on the JavaScript side and
 * written in WebAssembly memory, ~127,000 page faults and 390-480 ms of CPU
 * on that file; this way costs under 5 ms and the decode faults only the
 * pages it uses.) The memory ends the same size either way, and it never
 * shrinks, so later reads skip this.
 * @internal
 */
export function reserveDecodeMemory({ wasm }: ReadCodecs, fileBytes: number): void {
  const want = PEAK_PER_FILE_BYTE * fileBytes;
  if (!(want > wasm.memory.buffer.byteLength) || want > MAX_RESERVE) return;
  let at: number;
  try {
    at = wasm.__wbindgen_malloc(want, 1);
  } catch {
    return; // The allocation failed (a trap): the decode grows the memory as it needs, or fails with its own error.
  }
  wasm.__wbindgen_free(at, want, 1);
}
