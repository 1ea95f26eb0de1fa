import { MarketIntelError } from "./MarketIntelError.js";

/**
 * A store holds an entry the library refuses to follow: a symbolic link, a
 * device, a socket or a pipe, or a path that resolves outside the store (a
 * store unpacked from someone else's archive may carry them). Raised before
 * any byte is written or deleted, and before SQL reads the store; the
 * message names the entry. Remove it, or copy the real folder in its place.
 * @example
 * catch (e) { if (e instanceof UnsafeStorePathError) console.log("refused", e.path); }
 */
export class UnsafeStorePathError extends MarketIntelError {
  /** The refused entry. */
  readonly path: string;

  constructor(path: string, message: string) {
    super("UNSAFE_STORE_PATH", message);
    this.path = path;
  }
}
