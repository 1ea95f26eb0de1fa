/*
 * The readers' half of codecs.ts, in a file of its own: readParquet's public declaration names ReadCodecs,
 * and a .d.ts that reached codecs.ts's Codecs (typeof import("apache-arrow")) made every TypeScript program
 * importing the package parse and bind apache-arrow's ~120 declaration files (about 1 s per tslab notebook
 * kernel, and in users' editors). codecs.ts re-exports both names.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { firstFileIntoWasm } from "./firstFileIntoWasm.js";
import type { WasmFileBlock } from "./wasmFileBlock.js";

/** The WebAssembly exports of parquet-wasm that reserveDecodeMemory uses: its memory and wasm-bindgen's allocator. */
export interface ParquetWasmExports {
  readonly memory: { readonly buffer: ArrayBuffer };
  /** Allocates `size` bytes aligned to `align` in the module's memory (what its glue copies arguments into); traps when it cannot. */
  __wbindgen_malloc(size: number, align: number): number;
  /** Resizes a block of `oldSize` bytes to `newSize` (> 0), moving it if it must; returns its address. */
  __wbindgen_realloc(at: number, oldSize: number, newSize: number, align: number): number;
  /** Frees a block `__wbindgen_malloc` returned. */
  __wbindgen_free(at: number, size: number, align: number): void;
}

/**
 * parquet-wasm, all the store's readers need. Typed by the package's node
 * declarations (the same functions as its esm build, which is what runs):
 * the esm build's also name browser types (Response, RequestInfo) that a
 * user's TypeScript without the DOM library lacks.
 */
export interface ReadCodecs {
  /** parquet-wasm: arrow-rs's Parquet reader and writer compiled to WebAssembly (its output is read in place, see arrowCData.ts). */
  readonly pq: typeof import("parquet-wasm");
  /** The same module's WebAssembly exports (its allocator: see reserveDecodeMemory.ts). */
  readonly wasm: ParquetWasmExports;
}

let reading: Promise<ReadCodecs> | undefined;

/** The file that the first load read into WebAssembly memory (firstFileIntoWasm), until its reader takes it. */
let firstRead: { readonly path: string; readonly block: WasmFileBlock } | undefined;

/** The module exports decodeParquetBlock and wasmFileBlock call directly. */
const DECODE_EXPORTS = ["readParquet", "__externref_table_alloc", "__externref_table_dealloc", "__wbindgen_externrefs", "__wbindgen_malloc", "__wbindgen_realloc", "__wbindgen_free", "memory"] as const;

/** The one WebAssembly function used here (the project's TypeScript libraries declare no WebAssembly). */
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<object> };

/**
 * parquet-wasm's esm build, handed its WebAssembly compiled by
 * `WebAssembly.compile`, which V8 runs on background threads: the .wasm is
 * read and its compile started synchronously, before this function's first
 * await, so a caller's own synchronous work (readParquet's file read) runs
 * while it compiles.
 */
async function load(firstFile: string | undefined): Promise<ReadCodecs> {
  const compiling = WebAssembly.compile(readFileSync(createRequire(import.meta.url).resolve("parquet-wasm/esm/parquet_wasm_bg.wasm")));
  compiling.catch(() => undefined); // seen by the await below
  const esm = await import("parquet-wasm/esm");
  const wasm = esm.initSync({ module: await compiling });
  const pq: ReadCodecs["pq"] = esm; // the node declarations fit the esm build (checked here by the compiler)
  // decodeParquetBlock calls the module's readParquet as parquet-wasm 0.8.0's glue does: a build without these is refused here.
  const missing = DECODE_EXPORTS.filter((name) => !(name in wasm));
  if (missing.length > 0 || typeof (esm.Table as unknown as { __wrap?: unknown }).__wrap !== "function") {
    throw new Error(`loadReadCodecs: parquet-wasm's WebAssembly lacks ${JSON.stringify(missing.length > 0 ? missing : ["Table.__wrap"])}: this library needs parquet-wasm 0.8.0 exactly; reinstall its pinned version`);
  }
  const codecs: ReadCodecs = { pq, wasm };
  if (firstFile !== undefined) {
    const block = await firstFileIntoWasm(codecs, firstFile);
    if (block !== undefined) firstRead = { path: firstFile, block };
  }
  return codecs;
}

/**
 * parquet-wasm, loaded on first use: programs that never touch Parquet do
 * not pay for it. Its 4.95 MB of WebAssembly are read when this is first
 * called and compiled asynchronously (`WebAssembly.compile`, which V8 runs
 * on background threads), so a caller can read its file while they compile
 * (readParquet does); parquet-wasm's node build compiled them synchronously
 * at import.
 * Reading needs nothing else (apache-arrow, ~160 modules and about 150 ms to
 * import compiled, 0.4 s under tsx, is only for writing).
 * `firstFile`, from the reader whose call loads the module, is read into its
 * memory as part of the load (see firstFileIntoWasm.ts), for that reader to
 * take with {@link takeFirstRead} as soon as this resolves.
 * @internal
 */
export function loadReadCodecs(firstFile?: string): Promise<ReadCodecs> {
  reading ??= load(firstFile);
  return reading;
}

/**
 * The block of `path` that the first load read (see {@link loadReadCodecs}),
 * once: the caller owns it (decodes or frees it); undefined for another
 * path, or when it was not read or already taken.
 * @internal
 */
export function takeFirstRead(path: string): WasmFileBlock | undefined {
  if (firstRead === undefined || firstRead.path !== path) return undefined;
  const { block } = firstRead;
  firstRead = undefined;
  return block;
}
