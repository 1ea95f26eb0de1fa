import { InvalidArgumentError } from "./InvalidArgumentError.js";

/**
 * A store file is not what its writer wrote: it does not decode, or a column
 * no longer matches the checksum stored with it (flipped bytes, a truncated
 * copy), or it lacks the library's checksums. Raised before any of its
 * values reach the caller, by `store.query` as by the library's own readers.
 * An InvalidArgumentError (argument `"file"`), so code that caught those
 * still catches it.
 * @example
 * catch (e) { if (e instanceof DamagedFileError) console.log("restore or delete", e.path); }
 */
export class DamagedFileError extends InvalidArgumentError {
  /** The damaged file. */
  readonly path: string;

  constructor(path: string, message: string) {
    super("file", message);
    this.path = path;
  }
}
