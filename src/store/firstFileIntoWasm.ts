import { closeSync, fstatSync, openSync, read } from "node:fs";
import type { ReadCodecs } from "./readCodecs.js";
import { reserveDecodeMemory } from "./reserveDecodeMemory.js";
import { fileIntoWasm, freeWasmFileBlock, type WasmFileBlock } from "./wasmFileBlock.js";

/**
 * WebAssembly memory past the file's own block that parquet-wasm's
 * whole-file decode writes, per byte of the file: ~1.9 on the three year
 * files (fresh pages the decode faulted on a first call: 37,500-42,000 with
 * untouched memory, 10,000-14,000 with every page written beforehand, for
 * pyarrow's 64.5 MiB file).
 */
const SCRATCH_PER_FILE_BYTE = 2;

/** Reads the scratch is faulted in with at once (libuv's thread pool has 4 threads by default). */
const PARALLEL_READS = 4;

/**
 * A process's first Parquet file into a block of parquet-wasm's memory (as
 * {@link fileIntoWasm}), while the thread pool faults in the memory the
 * decode will write. Fresh WebAssembly memory costs a page fault for each
 * 4 KiB page first written (~3-4 µs each here); a first decode of a 64.5 MiB
 * file faulted ~29,000 of them (~100 ms of the main thread) beyond the
 * file's own ~16,500. Here, after the memory is grown for the decode
 * (reserveDecodeMemory), a scratch block of SCRATCH_PER_FILE_BYTE times the
 * file is allocated and filled by asynchronous reads of /dev/zero (of the
 * file itself where there is none) on libuv's threads, so that the kernel
 * faults those pages on other cores while this thread reads the file into
 * its own block; the scratch is then freed, and the decode's allocations
 * reuse its pages, already faulted. Its contents are never read: the reads
 * are only how another thread writes the pages.
 *
 * Only for the first load of parquet-wasm (readCodecs' `load`, before its
 * module is handed to any caller): during the await nothing else in the
 * process can call into the module, so nothing can grow its memory (which
 * would detach the views the reads write through) or take the scratch.
 * Returns undefined, touching nothing, when the memory needed no growth
 * (its pages were faulted by earlier work) or the file cannot be opened (the
 * caller's own read then reports it); a failed scratch read only leaves its
 * pages to the decode.
 * @internal
 */
export async function firstFileIntoWasm(codecs: ReadCodecs, path: string): Promise<WasmFileBlock | undefined> {
  const { wasm } = codecs;
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    const before = wasm.memory.buffer.byteLength;
    reserveDecodeMemory(codecs, size);
    const scratchLength = SCRATCH_PER_FILE_BYTE * size;
    if (wasm.memory.buffer.byteLength === before || size === 0) return undefined;
    // The memory now holds four times the file free in one block: the scratch and then the file's block are carved
    // from it without growing the memory again, so the views the reads write through stay attached.
    let scratch: number;
    try {
      scratch = wasm.__wbindgen_malloc(scratchLength, 1) >>> 0;
    } catch {
      return undefined;
    }
    // The source: zeros where the system has /dev/zero (no file I/O), else the file's own first bytes (cached by then).
    let source = fd;
    try {
      source = openSync("/dev/zero", "r");
    } catch {
      // no /dev/zero (Windows): the file
    }
    const zeros = source !== fd;
    const reads: Promise<void>[] = [];
    const step = zeros ? Math.ceil(scratchLength / PARALLEL_READS) : Math.min(size, Math.ceil(scratchLength / PARALLEL_READS));
    for (let at = 0; at < scratchLength; at += step) {
      const length = Math.min(step, scratchLength - at);
      reads.push(new Promise((done) => read(source, new Uint8Array(wasm.memory.buffer, scratch + at, length), 0, length, zeros ? null : 0, () => done())));
    }
    let block: WasmFileBlock | undefined;
    try {
      block = fileIntoWasm(codecs, path);
    } catch {
      block = undefined; // readParquet reads it again and reports the error
    }
    await Promise.all(reads);
    if (zeros) closeSync(source);
    freeWasmFileBlock(codecs, { at: scratch, length: scratchLength });
    return block;
  } finally {
    closeSync(fd);
  }
}
