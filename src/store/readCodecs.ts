/*
 * The readers' half of codecs.ts, in a file of its own: readParquet's public declaration names ReadCodecs,
 * and a .d.ts that reached codecs.ts's Codecs (typeof import("apache-arrow")) made every TypeScript program
 * importing the package parse and bind apache-arrow's ~120 declaration files (about 1 s per tslab notebook
 * kernel, and in users' editors). codecs.ts re-exports both names.
 */

/** parquet-wasm, all the store's readers need. */
export interface ReadCodecs {
  /** parquet-wasm: arrow-rs's Parquet reader and writer compiled to WebAssembly (its output is read in place, see arrowCData.ts). */
  readonly pq: typeof import("parquet-wasm");
}

let reading: Promise<ReadCodecs> | undefined;

/**
 * parquet-wasm, imported on first use (its WebAssembly compiles then):
 * programs that never touch Parquet do not pay for it. Reading needs nothing
 * else (apache-arrow, ~160 modules and about 150 ms to import compiled, 0.4 s
 * under tsx, is only for writing).
 * @internal
 */
export function loadReadCodecs(): Promise<ReadCodecs> {
  reading ??= import("parquet-wasm").then((pq) => ({ pq }));
  return reading;
}
