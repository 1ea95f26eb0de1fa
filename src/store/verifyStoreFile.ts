import { DamagedFileError } from "../errors/DamagedFileError.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { readArrowTable } from "./arrowCData.js";
import type { ReadCodecs } from "./codecs.js";
import { CHECKSUM_KEY, LEGACY_CHECKSUM_KEY, verifyChecksums } from "./columnChecksum.js";

/**
 * Check that a store file is whole, as its writer wrote it: it decodes with
 * the library's Parquet reader and every column the writer checksummed
 * matches (see `verifyChecksums`). A file without the library's checksums is
 * refused too: every file the store writes carries them, so their absence
 * means the footer was damaged or the file came from elsewhere. What SQL
 * runs on after this check are the very bytes checked.
 * @param where the calling function, for the message
 * @throws DamagedFileError naming the file and what is wrong
 * @internal
 */
export function verifyStoreFile(codecs: ReadCodecs, bytes: Uint8Array, path: string, where: string): void {
  const { pq } = codecs;
  const fix = "restore it from a copy or delete it (the store's own readers refuse it too)";
  let ffi;
  try {
    ffi = pq.readParquet(bytes, { batchSize: 1 << 30 }).intoFFI();
  } catch (err) {
    throw new DamagedFileError(path, `${where}: ${JSON.stringify(path)} is not a readable Parquet file (${err instanceof Error ? err.message : String(err)}): the file is damaged; ${fix}`);
  }
  try {
    const table = readArrowTable(pq.wasmMemory().buffer, ffi.arrayAddrs(), ffi.schemaAddr());
    const meta = table.schema.metadata;
    if (!meta.has(CHECKSUM_KEY) && !meta.has(LEGACY_CHECKSUM_KEY)) {
      throw new DamagedFileError(path, `${where}: ${JSON.stringify(path)} carries no column checksums (every file the store writes has them): the footer is damaged or the file was not written by the store; ${fix}`);
    }
    try {
      verifyChecksums(table, table.schema.fields.map((f) => f.name), `${where}: ${JSON.stringify(path)}`);
    } catch (err) {
      if (err instanceof InvalidArgumentError && !(err instanceof DamagedFileError)) throw new DamagedFileError(path, err.message);
      throw err;
    }
  } catch (err) {
    if (err instanceof DamagedFileError) throw err;
    throw new DamagedFileError(path, `${where}: ${JSON.stringify(path)} could not be decoded (${err instanceof Error ? err.message : String(err)}): the file is damaged; ${fix}`);
  } finally {
    ffi.free();
  }
}
