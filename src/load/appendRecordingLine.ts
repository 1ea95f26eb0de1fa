import { closeSync, fstatSync, fsyncSync, openSync, statSync, writeSync } from "node:fs";
import { RecordingWriteError } from "../errors/RecordingWriteError.js";

/** Appends to one name that compaction claims every time before a check are taken for a broken file system, not retried forever. */
const MAX_ATTEMPTS = 20;

/**
 * Append one complete JSON line to a recording file so that compaction
 * (`compactRecording`) is sure to find it: the recorder's half of the
 * recorder/compaction protocol.
 *
 * Compaction removes a closed file by claiming it: it renames the file
 * aside (atomic), then reads every byte the renamed file holds and keeps
 * the lines it had not read before. A writer that opened the file before
 * that rename still holds the old file and may write into it after
 * compaction's last read: that line would vanish with the renamed copy.
 * So, after writing (and fsync when asked), while the file is still open,
 * the line is checked to be in the file the name points to now (same device
 * and inode for `fstat(fd)` and `stat(path)`; the open descriptor keeps the
 * inode from being reused). If it is, the name pointed to this file after
 * the write was complete, so any claim of it renames it later and reads the
 * line. If not (the name is gone or is another file), the file was claimed
 * meanwhile and the line is written again under the name, which opens a new
 * file. A line may thus be stored twice (once from the claimed copy, once
 * again): readers keep each key once. The caller acknowledges the line only
 * when this returns.
 * @throws RecordingWriteError when the file cannot be opened, written or checked (errno of the cause)
 * @internal
 */
export function appendRecordingLine(path: string, line: string, options: { readonly fsync?: boolean } = {}): void {
  const bytes = Buffer.from(line, "utf8");
  for (let attempt = 1; ; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, "a");
    } catch (err) {
      throw new RecordingWriteError("open", path, err);
    }
    try {
      let off = 0;
      while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
      if (options.fsync === true) fsyncSync(fd);
      const mine = fstatSync(fd);
      let named: { dev: number; ino: number } | undefined;
      try {
        named = statSync(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      }
      if (named !== undefined && named.dev === mine.dev && named.ino === mine.ino) return;
      if (attempt >= MAX_ATTEMPTS) {
        throw Object.assign(new Error(`the file was renamed away after each of ${MAX_ATTEMPTS} appends`), { code: "ESTALE" });
      }
    } catch (err) {
      throw new RecordingWriteError("append to", path, err);
    } finally {
      closeSync(fd);
    }
  }
}
