import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { ReadCodecs } from "./readCodecs.js";
import { reserveDecodeMemory } from "./reserveDecodeMemory.js";

/**
 * A Parquet file's bytes in a block of parquet-wasm's WebAssembly memory,
 * allocated with the module's own allocator (`__wbindgen_malloc`), ready to
 * be handed to its decoder, which takes ownership of the block and frees it
 * (see decodeParquetBlock.ts). Until then the holder must free it
 * ({@link freeWasmFileBlock}).
 * @internal
 */
export interface WasmFileBlock {
  /** Address of the first byte in WebAssembly memory. */
  readonly at: number;
  /** Bytes of the file held. */
  readonly length: number;
}

/**
 * A view of a block's bytes: valid until the next call into parquet-wasm
 * (one that grows its memory detaches it).
 * @internal
 */
export function wasmFileBytes({ wasm }: ReadCodecs, block: WasmFileBlock): Uint8Array {
  return new Uint8Array(wasm.memory.buffer, block.at, block.length);
}

/**
 * Free a block parquet-wasm's decoder was not handed.
 * @internal
 */
export function freeWasmFileBlock({ wasm }: ReadCodecs, block: WasmFileBlock): void {
  wasm.__wbindgen_free(block.at, block.length, 1);
}

/** A block of `length` bytes, after reserving the decode's memory (so neither this allocation nor the decode grows it again). */
function allocate(codecs: ReadCodecs, length: number): number {
  reserveDecodeMemory(codecs, length);
  return codecs.wasm.__wbindgen_malloc(length, 1) >>> 0;
}

/**
 * Bytes already in JavaScript memory copied into a block (what
 * parquet-wasm's own glue does with a Uint8Array argument).
 * @internal
 */
export function bytesIntoWasm(codecs: ReadCodecs, bytes: Uint8Array): WasmFileBlock {
  const at = allocate(codecs, bytes.length);
  new Uint8Array(codecs.wasm.memory.buffer, at, bytes.length).set(bytes);
  return { at, length: bytes.length };
}

/**
 * A file read straight into a block of WebAssembly memory, sized from
 * `fstat`, with synchronous positioned reads: no JavaScript buffer and no
 * second copy (reading into a Buffer that parquet-wasm's glue then copied
 * into its memory cost a process's first call ~15,000 page faults of fresh
 * JavaScript memory for a 60 MB file and every call a 60 MB copy). A file
 * that shrinks while it is read gives the bytes read (its block cut to them).
 * @throws the file system's error (ENOENT, EISDIR, EACCES...), after freeing the block
 * @internal
 */
export function fileIntoWasm(codecs: ReadCodecs, path: string): WasmFileBlock {
  const fd = openSync(path, "r");
  try {
    const want = fstatSync(fd).size;
    const at = allocate(codecs, want);
    let size = 0;
    try {
      for (let n = -1; size < want && n !== 0; size += n) n = readSync(fd, new Uint8Array(codecs.wasm.memory.buffer, at, want), size, want - size, size);
    } catch (err) {
      codecs.wasm.__wbindgen_free(at, want, 1);
      throw err;
    }
    if (size === want) return { at, length: size };
    // The file shrank while it was read: the block is cut to the bytes read, as the glue cuts a string's block,
    // because the decoder (and freeWasmFileBlock) free it by its length (wasm-bindgen's realloc takes no size 0).
    if (size > 0) return { at: codecs.wasm.__wbindgen_realloc(at, want, size, 1) >>> 0, length: size };
    codecs.wasm.__wbindgen_free(at, want, 1);
    return { at: codecs.wasm.__wbindgen_malloc(0, 1) >>> 0, length: 0 };
  } finally {
    closeSync(fd);
  }
}
