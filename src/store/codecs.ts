/** parquet-wasm, all the store's readers need. */
export interface ReadCodecs {
  /** parquet-wasm: arrow-rs's Parquet reader and writer compiled to WebAssembly (its output is read in place, see arrowCData.ts). */
  readonly pq: typeof import("parquet-wasm");
}

/** The Parquet and Arrow modules the store's writers use. */
export interface Codecs extends ReadCodecs {
  /** apache-arrow: builds the Arrow tables handed to the writer. */
  readonly arrow: typeof import("apache-arrow");
}

let reading: Promise<ReadCodecs> | undefined;
let writing: Promise<Codecs> | undefined;

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

/**
 * parquet-wasm and apache-arrow, for writing Parquet (see {@link loadReadCodecs}).
 * @internal
 */
export function loadCodecs(): Promise<Codecs> {
  writing ??= Promise.all([loadReadCodecs(), import("apache-arrow")]).then(([{ pq }, arrow]) => ({ pq, arrow }));
  return writing;
}
