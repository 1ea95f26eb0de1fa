import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/** A buffer that successive reads reuse (see {@link readFileBytes}). */
export interface ReadScratch {
  buffer: Buffer;
}

/**
 * A file's bytes, read synchronously into one buffer sized from `fstat` (no
 * chunks to concatenate, no thread-pool round trips: fs/promises' readFile
 * took ~40% longer on a 55 MB file in the page cache here): a new buffer, or
 * `scratch`'s, grown (doubled) when too small and kept for the next file, so
 * reading many files leaves no garbage of file bytes behind. The result is a
 * view, valid until the next read into the same scratch.
 * @throws the file system's error (ENOENT, EISDIR, EACCES...)
 * @internal
 */
export function readFileBytes(path: string, scratch?: ReadScratch): Buffer {
  const fd = openSync(path, "r");
  try {
    const want = fstatSync(fd).size;
    let buffer: Buffer;
    if (scratch === undefined) buffer = Buffer.allocUnsafeSlow(want);
    else {
      if (scratch.buffer.length < want) scratch.buffer = Buffer.allocUnsafe(Math.max(want, 2 * scratch.buffer.length));
      buffer = scratch.buffer;
    }
    let size = 0;
    for (let n = -1; size < want && n !== 0; size += n) n = readSync(fd, buffer, size, want - size, size);
    return buffer.subarray(0, size);
  } finally {
    closeSync(fd);
  }
}
