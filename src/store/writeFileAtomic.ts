import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** Prefix of the temporary files {@link writeFileAtomic} leaves behind when killed mid-write (hidden, so readers never glob them). */
export const TEMP_PREFIX = ".tmp-";

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // some file systems cannot fsync a directory; the rename is still atomic
  }
}

/**
 * Write `bytes` to `path` so a reader sees either the old file or the whole
 * new one, never a part: write a hidden temporary file in the same directory
 * (`.tmp-<name>-<random>`), fsync it, rename it over `path`, fsync the
 * directory. A process killed at any point leaves at worst a stray
 * temporary file (the store sweeps them). Parent directories are created.
 * @example writeFileAtomic("out/a.parquet", bytes)
 * @internal
 */
export function writeFileAtomic(path: string, bytes: Uint8Array): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `${TEMP_PREFIX}${basename(path)}-${process.pid}-${randomBytes(4).toString("hex")}`);
  const fd = openSync(tmp, "w");
  try {
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(tmp);
    throw err;
  }
  closeSync(fd);
  renameSync(tmp, path);
  fsyncDir(dir);
}
