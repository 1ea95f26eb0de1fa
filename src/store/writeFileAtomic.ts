import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { FileWriteError } from "../errors/FileWriteError.js";

/** Prefix of the temporary files {@link writeFileAtomic} leaves behind when killed mid-write (hidden, so readers never glob them). */
export const TEMP_PREFIX = ".tmp-";

/** A temporary file older than this was left by a killed writer (no write takes an hour) and is removed. */
export const STALE_TEMP_MS = 3_600_000;

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
 * Remove the temporary files of {@link writeFileAtomic} in `dir` older than
 * {@link STALE_TEMP_MS}: what killed writers left (a live write's file is
 * younger). Files that vanish or cannot be removed meanwhile are skipped.
 * @returns how many were removed
 * @internal
 */
export function sweepTempFiles(dir: string, now: number = Date.now()): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const p = join(dir, name);
    try {
      if (now - statSync(p).mtimeMs > STALE_TEMP_MS) {
        unlinkSync(p);
        removed++;
      }
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}

/**
 * Write `bytes` to `path` so a reader sees either the old file or the whole
 * new one, never a part: write a hidden temporary file in the same directory
 * (`.tmp-<pid>-<random>`, short, so any name that fits the file system fits),
 * fsync it, rename it over `path`, fsync the directory. A failed write removes
 * its temporary file; one left by a killed process is removed by the next
 * write into that folder once it is an hour old ({@link sweepTempFiles}).
 * Parent directories are created. The two halves are {@link stageFile} and
 * {@link commitStagedFile}, for a writer that prepares the file before it
 * takes a lock and only renames it while holding it.
 * @param where the calling function, named in the error
 * @throws FileWriteError when the file cannot be written (EISDIR, ENOSPC, EROFS, EACCES, ENAMETOOLONG, ...), the old file left as it was
 * @example writeFileAtomic("out/a.parquet", bytes)
 * @internal
 */
export function writeFileAtomic(path: string, bytes: Uint8Array, where = "writeFileAtomic"): void {
  commitStagedFile(stageFile(path, bytes, where), where);
}

/** A temporary file holding the whole new content of `path`, fsynced, not yet renamed (see {@link writeFileAtomic}). @internal */
export interface StagedFile {
  readonly path: string;
  readonly tmp: string;
}

/**
 * The first half of {@link writeFileAtomic}: `bytes` written and fsynced to
 * a temporary file beside `path`. Commit it with {@link commitStagedFile} or
 * remove it with {@link discardStagedFile}.
 * @throws FileWriteError as writeFileAtomic
 * @internal
 */
export function stageFile(path: string, bytes: Uint8Array, where = "writeFileAtomic"): StagedFile {
  const dir = dirname(path);
  const tmp = join(dir, `${TEMP_PREFIX}${process.pid}-${randomBytes(6).toString("hex")}`);
  let fd: number | undefined;
  try {
    mkdirSync(dir, { recursive: true });
    sweepTempFiles(dir);
    fd = openSync(tmp, "w");
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    discardStagedFile({ path, tmp });
    throw new FileWriteError(where, path, err);
  }
  return { path, tmp };
}

/**
 * The second half of {@link writeFileAtomic}: rename the staged file over
 * its path (atomic), then fsync the directory.
 * @throws FileWriteError when the rename fails (the staged file is removed, the old file left as it was)
 * @internal
 */
export function commitStagedFile(staged: StagedFile, where = "writeFileAtomic"): void {
  try {
    renameSync(staged.tmp, staged.path);
  } catch (err) {
    discardStagedFile(staged);
    throw new FileWriteError(where, staged.path, err);
  }
  fsyncDir(dirname(staged.path));
}

/** Remove a staged file that will not be committed (nothing when it is gone already). @internal */
export function discardStagedFile(staged: StagedFile): void {
  try {
    unlinkSync(staged.tmp);
  } catch {
    // never created, or committed
  }
}
