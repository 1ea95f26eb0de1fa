/** The Parquet and Arrow modules the store uses, loaded together on first use. */
export interface Codecs {
  /** parquet-wasm: arrow-rs's Parquet reader and writer compiled to WebAssembly. */
  readonly pq: typeof import("parquet-wasm");
  /** apache-arrow: builds the Arrow tables handed to the writer. */
  readonly arrow: typeof import("apache-arrow");
  /** arrow-js-ffi: views Arrow data in WebAssembly memory through the C data interface. */
  readonly ffi: typeof import("arrow-js-ffi");
}

let loading: Promise<Codecs> | undefined;

/**
 * The codecs, imported on first use (apache-arrow alone takes about 0.6 s to
 * import, parquet-wasm compiles its WebAssembly): programs that never touch
 * Parquet do not pay for them.
 * @internal
 */
export function loadCodecs(): Promise<Codecs> {
  loading ??= Promise.all([import("parquet-wasm"), import("apache-arrow"), import("arrow-js-ffi")]).then(([pq, arrow, ffi]) => ({ pq, arrow, ffi }));
  return loading;
}
