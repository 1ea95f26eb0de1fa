import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, readSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { dedupeRecords } from "../load/dedupeRecords.js";
import { parseRecordingLine, recordingFileDays, type RecordedResponse } from "../load/recordingLine.js";
import { loadCodecs } from "./codecs.js";
import { readRecordFile, recordFileBytes } from "./recordFile.js";
import { checkStorePath, storeEntries } from "./storeEntries.js";
import { withStoreWriteLock } from "./storeWriteLock.js";
import { utcDay } from "./utcDay.js";
import { sweepTempFiles, writeFileAtomic } from "./writeFileAtomic.js";

/** Options of {@link compactRecording}. */
export interface CompactRecordingOptions {
  /** The store folder (see `openStore`) [`<dir>/store`]. */
  readonly store?: string;
  /** "Now", epoch ms: decides which day files are closed [Date.now]. */
  readonly clock?: () => number;
  /** Keep every JSON-lines file after compacting it (the store then holds a copy) [false: closed days are removed]. */
  readonly keepJsonl?: boolean;
  /** Called after each step: a day's partition `written`, or its JSON-lines file `removed`. */
  readonly onProgress?: (step: { readonly event: "written" | "removed"; readonly endpoint: string; readonly day: string; readonly path: string }) => void;
}

/** What {@link compactRecording} did. */
export interface CompactStats {
  /** JSON-lines files read. */
  readonly files: number;
  /** Complete lines read. */
  readonly lines: number;
  /** Records in the partitions written (old and new, each key once). */
  readonly records: number;
  /** Lines whose endpoint and key were already in the store or earlier in the files (kept once). */
  readonly duplicates: number;
  /** Complete lines that are not valid records: their files are kept, never removed. */
  readonly corrupt: number;
  /** JSON-lines files removed after their records were safely in the store. */
  readonly removed: number;
}

const DAY_MS = 86_400_000;
/** How long compaction waits for another writer of the store, per partition (see openStore's lockTimeoutMs). */
const LOCK_TIMEOUT_MS = 120_000;

/** A JSON-lines file as compaction read it. */
interface ReadFile {
  readonly path: string;
  readonly name: string;
  /** The last day the recorder may append to it (see recordingFileDays). */
  readonly appended: string;
  /** Bytes read up to the last newline: what its records came from. */
  readonly consumed: number;
  readonly corrupt: number;
}

/**
 * Remove a closed day file whose records are in the store, losing nothing
 * appended since it was read: the file is first renamed aside (atomic; a
 * recorder's next append makes a new file), then any bytes beyond what was
 * read (a line appended meanwhile) are appended back to the file's name, to
 * be compacted by the next run, and only then is the renamed copy removed.
 * @returns true when bytes were put back (the file name exists again)
 */
function removeCompacted(file: ReadFile): boolean {
  const aside = join(dirname(file.path), `.compacting-${process.pid}-${file.name}`);
  renameSync(file.path, aside);
  const size = statSync(aside).size;
  let putBack = false;
  if (size > file.consumed) {
    const tail = Buffer.alloc(size - file.consumed);
    const fd = openSync(aside, "r");
    try {
      readSync(fd, tail, 0, tail.length, file.consumed);
    } finally {
      closeSync(fd);
    }
    const out = openSync(file.path, "a");
    try {
      let off = 0;
      while (off < tail.length) off += writeSync(out, tail, off, tail.length - off);
      fsyncSync(out);
    } finally {
      closeSync(out);
    }
    putBack = true;
  }
  unlinkSync(aside);
  return putBack;
}

/** Put back the files a killed compaction left renamed aside (`.compacting-<pid>-<name>`, its process gone): their lines are appended to their names again. */
function restoreAside(sub: string): void {
  for (const name of readdirSync(sub)) {
    const m = /^\.compacting-(\d+)-(.+\.jsonl)$/.exec(name);
    if (m === null) continue;
    const pid = Number(m[1]);
    let alive = pid === process.pid;
    if (!alive) {
      try {
        process.kill(pid, 0);
        alive = true;
      } catch (err) {
        alive = (err as NodeJS.ErrnoException).code === "EPERM";
      }
    }
    if (alive) continue;
    const bytes = readFileSync(join(sub, name));
    const fd = openSync(join(sub, m[2] as string), "a");
    try {
      let off = 0;
      while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    unlinkSync(join(sub, name));
  }
}

/**
 * Compact a recording made by `record` (JSON-lines files per endpoint and
 * UTC day, see its late files) into the Parquet store: each day's records
 * (from its day file and its late files) are merged with the store's
 * partition `endpoint=<name>/day=<day>/part-0.parquet` (a record already
 * there, same endpoint and key, is kept once, the first fetched, as
 * `loadRecording` does), the partition is written atomically, and only then
 * is a JSON-lines file the recorder no longer appends to (its append day
 * ended over a day ago by `clock`; see recordingPath) removed: renamed aside
 * first, with any line appended since it was read put back, so no
 * acknowledged record is ever lost, even beside a running recorder. Files
 * still appended to are compacted and kept (a re-run merges their new
 * lines). A file with a corrupt line is never removed.
 * Safety: idempotent (running it twice changes nothing the second time); a
 * process killed at any point loses nothing and duplicates nothing (before
 * the rename the old partition stands and the lines are still there; after
 * it, the re-run finds the records already stored; a file left renamed aside
 * is put back by the next run). It takes the store's write lock for each
 * partition it writes (see openStore), never for the whole run, so saves
 * interleave with it. Symbolic links and devices in the store or the
 * recording are refused (UnsafeStorePathError) before anything is written.
 * Read the result with `openStore(store).loadRecording()`.
 * @throws InvalidArgumentError when `dir` is not a folder
 * @throws StoreLockedError when another process holds the store's write lock for over 2 minutes
 * @throws UnsafeStorePathError naming a symbolic link or device met
 * @example
 * const stats = await compactRecording("rec"); // { files, lines, records, duplicates, corrupt, removed }
 * const rec = await openStore("rec/store").loadRecording({ jsonl: "rec" });
 */
export async function compactRecording(dir: string, options: CompactRecordingOptions = {}): Promise<CompactStats> {
  if (typeof dir !== "string" || !existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new InvalidArgumentError("dir", `compactRecording: ${JSON.stringify(dir)} is not a folder (a recording made by record(client, { dir }))`);
  }
  const storeDir = options.store ?? join(dir, "store");
  const now = (options.clock ?? Date.now)();
  const lastClosedDay = utcDay(now - 2 * DAY_MS); // its end is at least a day before now
  const pq = await loadCodecs();
  const where = "compactRecording";
  const stats = { files: 0, lines: 0, records: 0, duplicates: 0, corrupt: 0, removed: 0 };
  for (const entry of storeEntries(dir, where, (name) => !name.startsWith(".") && resolve(dir, name) !== resolve(storeDir))) {
    if (!entry.isDirectory()) continue;
    const endpoint = entry.name;
    const sub = join(dir, endpoint);
    restoreAside(sub);
    // The day files and late files of each day.
    const byDay = new Map<string, string[]>();
    for (const f of storeEntries(sub, where)) {
      const days = f.isFile() ? recordingFileDays(f.name) : undefined;
      if (days === undefined) continue;
      byDay.set(days.day, [...(byDay.get(days.day) ?? []), f.name]);
    }
    for (const [day, names] of [...byDay].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const read: ReadFile[] = [];
      const fresh: RecordedResponse[] = [];
      for (const name of names.sort()) {
        const path = join(sub, name);
        const bytes = readFileSync(path);
        stats.files++;
        const consumed = bytes.lastIndexOf(0x0a) + 1; // a torn last line is not a line
        let corrupt = 0;
        for (const line of bytes.subarray(0, consumed).toString("utf8").split("\n")) {
          if (line === "") continue;
          stats.lines++;
          const r = parseRecordingLine(line);
          if (r === undefined || r.endpoint !== endpoint) corrupt++;
          else fresh.push(r);
        }
        stats.corrupt += corrupt;
        read.push({ path, name, appended: (recordingFileDays(name) as { appended: string }).appended, consumed, corrupt });
      }
      const partDir = join(storeDir, `endpoint=${endpoint}`, `day=${day}`);
      const partPath = join(partDir, "part-0.parquet");
      await withStoreWriteLock(storeDir, LOCK_TIMEOUT_MS, async () => {
        checkStorePath(storeDir, partPath, where);
        sweepTempFiles(partDir, now);
        const stored = existsSync(partPath) ? readRecordFile(pq, readFileSync(partPath), endpoint) : [];
        const { byEndpoint, duplicates } = dedupeRecords([...stored, ...fresh]);
        const merged = byEndpoint.get(endpoint) ?? [];
        stats.duplicates += duplicates;
        stats.records += merged.length;
        // dedupeRecords keeps record objects and sorts as the file was written: same objects in the same order = nothing new.
        if (merged.length !== stored.length || merged.some((r, i) => r !== stored[i])) writeFileAtomic(partPath, recordFileBytes(pq, merged), where);
      });
      options.onProgress?.({ event: "written", endpoint, day, path: partPath });
      for (const file of read) {
        if (options.keepJsonl === true || file.corrupt > 0 || file.appended > lastClosedDay) continue;
        if (!removeCompacted(file)) stats.removed++;
        options.onProgress?.({ event: "removed", endpoint, day, path: file.path });
      }
    }
  }
  return stats;
}
