import { loadReadCodecs, type ReadCodecs } from "./readCodecs.js";

export { loadReadCodecs, type ReadCodecs };

/** The Parquet and Arrow modules the store's writers use. */
export interface Codecs extends ReadCodecs {
  /** apache-arrow: builds the Arrow tables handed to the writer. */
  readonly arrow: typeof import("apache-arrow");
}

let writing: Promise<Codecs> | undefined;

/**
 * parquet-wasm and apache-arrow, for writing Parquet (see {@link loadReadCodecs} in readCodecs.ts).
 * @internal
 */
export function loadCodecs(): Promise<Codecs> {
  writing ??= Promise.all([loadReadCodecs(), import("apache-arrow")]).then(([read, arrow]) => ({ ...read, arrow }));
  return writing;
}
