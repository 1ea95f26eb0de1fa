import type { ReadCodecs } from "./readCodecs.js";
import type { WasmFileBlock } from "./wasmFileBlock.js";

/**
 * parquet-wasm's reader options (its `ReaderOptions`), as the readers use
 * them. No `columns`: 0.8.0's synchronous `readParquet` accepts the option
 * and decodes every column anyway (its Rust `read_parquet` never applies
 * the projection; measured: one of 21 columns takes as long as all 21).
 */
export interface DecodeOptions {
  /** Rows a record batch: 2^30 makes one batch of the whole file (fewer, larger chunks; smaller batches faulted more pages). */
  readonly batchSize: number;
}

/** The wasm-bindgen table of JavaScript values the module's functions take and return by index. */
interface ExternRefs {
  get(index: number): unknown;
  set(index: number, value: unknown): void;
}

/** The exports of parquet-wasm 0.8.0's WebAssembly that its `readParquet` glue calls (parquet_wasm_bg.wasm.d.ts). */
interface ReadParquetExports {
  readParquet(at: number, length: number, options: number): [number, number, number];
  __externref_table_alloc(): number;
  __externref_table_dealloc(index: number): void;
  readonly __wbindgen_externrefs: ExternRefs;
}

type Table = ReturnType<ReadCodecs["pq"]["readParquet"]>;

/**
 * parquet-wasm's `readParquet` of a file already in its WebAssembly memory
 * (see wasmFileBlock.ts): the module's exported function called as its
 * wasm-bindgen glue calls it, minus the glue's first step, which copies a
 * Uint8Array argument into a block of the same memory (`passArray8ToWasm0`):
 * the block is that argument. The decoder takes ownership of the block and
 * frees it, whether it succeeds or not (the Rust function's argument is a
 * `Vec<u8>`); `options` goes through the module's table of JavaScript values
 * as the glue passes it. Written against the pinned parquet-wasm 0.8.0
 * (its `parquet_wasm.js`, `readParquet` and `Table.__wrap`); a version whose
 * exports differ is refused by readCodecs' check at load.
 * @throws the decoder's error (an Error naming what arrow-rs could not read)
 * @internal
 */
export function decodeParquetBlock({ pq, wasm }: ReadCodecs, block: WasmFileBlock, options: DecodeOptions): Table {
  const exports = wasm as unknown as ReadParquetExports;
  const ref = exports.__externref_table_alloc();
  exports.__wbindgen_externrefs.set(ref, options);
  const [table, error, failed] = exports.readParquet(block.at, block.length, ref);
  if (failed !== 0) {
    const err = exports.__wbindgen_externrefs.get(error);
    exports.__externref_table_dealloc(error);
    throw err;
  }
  return (pq.Table as unknown as { __wrap(at: number): Table }).__wrap(table);
}
