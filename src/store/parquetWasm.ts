/** The parquet-wasm module (Rust's arrow-rs Parquet reader and writer compiled to WebAssembly). */
export type ParquetWasm = typeof import("parquet-wasm");

let loading: Promise<ParquetWasm> | undefined;

/**
 * parquet-wasm, imported on first use: programs that never touch Parquet do
 * not pay for compiling its WebAssembly.
 * @internal
 */
export function loadParquetWasm(): Promise<ParquetWasm> {
  loading ??= import("parquet-wasm");
  return loading;
}
