import { randomBytes } from "node:crypto";
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readFileSync, readSync, renameSync, statSync, unlinkSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { dedupeRecords } from "../load/dedupeRecords.js";
import { isProcessAlive } from "../load/isProcessAlive.js";
import { keptFileName, parseRecordingLine, recordingFileDays, type RecordedResponse } from "../load/recordingLine.js";
import { loadCodecs, type Codecs } from "./codecs.js";
import { BodyText, readRecordFile, recordFileBytes } from "./recordFile.js";
import { checkStorePath, storeEntries } from "./storeEntries.js";
import { withStoreWriteLock } from "./storeWriteLock.js";
import { utcDay } from "./utcDay.js";
import { commitStagedFile, discardStagedFile, stageFile, writeFileAtomic, type StagedFile } from "./writeFileAtomic.js";

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
  /** The descriptor it was read through, open until the file is claimed (so its inode cannot be reused meanwhile). */
  readonly fd: number;
}

/** The bytes of `fd` from `start` to its end, cut after the last newline (a torn or still-being-written line is not a line). */
function completeLines(fd: number, start: number): Buffer {
  const size = fstatSync(fd).size;
  if (size <= start) return Buffer.alloc(0);
  const bytes = Buffer.alloc(size - start);
  let off = 0;
  while (off < bytes.length) {
    const n = readSync(fd, bytes, off, bytes.length - off, start + off);
    if (n === 0) break;
    off += n;
  }
  return bytes.subarray(0, bytes.lastIndexOf(0x0a, off - 1) + 1);
}

/**
 * Remove a closed recording file whose first `consumed` bytes are in the
 * store, losing no line written to it by anyone, ever. Why that holds:
 * 1. The file is claimed by renaming it aside (`.compacting-<pid>-<name>`):
 *    atomic, and only one rename of it can succeed (a second compaction
 *    gets ENOENT and leaves it to the first).
 * 2. What the renamed file holds is then read in full: every write that
 *    completed before the rename is in it. The bytes from `consumed` on
 *    (lines appended since compaction read it) are kept, whole lines only,
 *    in a new file `<day>.kept-<id>.jsonl` written atomically (see
 *    keptFileName), which the next run compacts; only then is the renamed
 *    file unlinked.
 * 3. A write that completes after the rename went into a file no longer at
 *    its name. The recorder checks, after each write and before it
 *    acknowledges the line, that the file it wrote is still the one at the
 *    name (appendRecordingLine); when it is not, it writes the line again
 *    under the name. A line is either written before the rename (step 2
 *    reads it) or found by that check (written again): no third case.
 * 4. The file at the name when it is renamed may not be the one read (a
 *    second compaction claimed that one and the recorder made a new one):
 *    the descriptor compaction read through is still open, so that inode
 *    cannot have been reused, and a different device or inode means none of
 *    the renamed file was compacted: all of its lines are kept.
 * Killed between 1 and the unlink, the renamed file is given a kept name by
 * the next run (restoreAside); lines compacted twice are stored once.
 * @returns true when lines were kept in a new file
 */
function removeCompacted(file: ReadFile): boolean {
  const dir = dirname(file.path);
  const aside = join(dir, `.compacting-${process.pid}-${file.name}`);
  try {
    renameSync(file.path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false; // claimed by another compaction, which keeps what it did not read
    throw err;
  }
  const fd = openSync(aside, "r");
  let kept = false;
  try {
    const read = fstatSync(file.fd);
    const claimed = fstatSync(fd);
    const same = read.dev === claimed.dev && read.ino === claimed.ino;
    const rest = completeLines(fd, same ? file.consumed : 0);
    if (rest.length > 0) {
      writeFileAtomic(join(dir, keptFileName(file.name, `${process.pid}-${randomBytes(4).toString("hex")}`)), rest, "compactRecording");
      kept = true;
    }
  } finally {
    closeSync(fd);
  }
  unlinkSync(aside);
  return kept;
}

/** Give the files a killed compaction left renamed aside (`.compacting-<pid>-<name>`, its process gone) a kept name (see keptFileName): the next steps compact them. */
function restoreAside(sub: string): void {
  for (const name of readdirSync(sub)) {
    const m = /^\.compacting-(\d+)-(.+\.jsonl)$/.exec(name);
    if (m === null) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || isProcessAlive(pid)) continue;
    renameSync(join(sub, name), join(sub, keptFileName(m[2] as string, `${pid}-${randomBytes(4).toString("hex")}`)));
  }
}

/** Attempts at merging a partition outside the lock (each fails only when another writer replaced it meanwhile) before the merge is done under the lock. */
const OPTIMISTIC_ATTEMPTS = 5;

/** The identity of the file open at `fd`: replaced files (every store write is a rename) have another inode, and an open descriptor keeps its inode from reuse. */
const identity = (st: { dev: number; ino: number; size: number; mtimeMs: number }): string => `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;

/**
 * Merge `fresh` records into the partition file `partPath` (each endpoint
 * and key once, see dedupeRecords) and replace it atomically, holding the
 * store's write lock only for a check and a rename: the partition is read
 * (through a descriptor kept open), merged, encoded and written to a staged
 * temporary file without the lock; under the lock the file at `partPath` is
 * checked to be the one read (device, inode, size, modification time) and
 * the staged file renamed over it. If another writer replaced it meanwhile,
 * the merge starts again from the new file; after
 * {@link OPTIMISTIC_ATTEMPTS} such losses it is done under the lock. So a
 * large day never holds the lock for its decoding and encoding, and no
 * write by anyone is overwritten by a merge that did not read it.
 */
async function mergePartition(pq: Codecs, storeDir: string, partPath: string, endpoint: string, fresh: readonly RecordedResponse[]): Promise<{ records: number; duplicates: number }> {
  const where = "compactRecording";
  const read = (): { fd: number | undefined; id: string; stored: RecordedResponse[] } => {
    let fd: number;
    try {
      fd = openSync(partPath, "r");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return { fd: undefined, id: "", stored: [] };
      throw err;
    }
    try {
      return { fd, id: identity(fstatSync(fd)), stored: readRecordFile(pq, readFileSync(fd), endpoint, { bodyText: true }) };
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  };
  const currentId = (): string => {
    try {
      return identity(statSync(partPath));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return "";
      throw err;
    }
  };
  const merge = (stored: RecordedResponse[]): { records: RecordedResponse[]; duplicates: number; changed: boolean } => {
    const { byEndpoint, duplicates } = dedupeRecords([...stored, ...fresh]);
    const records = byEndpoint.get(endpoint) ?? [];
    // dedupeRecords keeps record objects and sorts as the file was written: same objects in the same order = nothing new.
    return { records, duplicates, changed: records.length !== stored.length || records.some((r, i) => r !== stored[i]) };
  };
  checkStorePath(storeDir, partPath, where); // before anything is written below the store
  for (let attempt = 1; attempt <= OPTIMISTIC_ATTEMPTS; attempt++) {
    const { fd, id, stored } = read();
    let staged: StagedFile | undefined;
    try {
      const m = merge(stored);
      if (m.changed) staged = stageFile(partPath, recordFileBytes(pq, m.records), where);
      const committed = await withStoreWriteLock(storeDir, LOCK_TIMEOUT_MS, async () => {
        checkStorePath(storeDir, partPath, where);
        // A staged file another process swept away (an hour old) is staged again, like a lost race.
        if (currentId() !== id || (staged !== undefined && !existsSync(staged.tmp))) return false;
        if (staged !== undefined) commitStagedFile(staged, where);
        staged = undefined;
        return true;
      });
      if (committed) return { records: m.records.length, duplicates: m.duplicates };
    } finally {
      if (staged !== undefined) discardStagedFile(staged);
      if (fd !== undefined) closeSync(fd);
    }
  }
  return withStoreWriteLock(storeDir, LOCK_TIMEOUT_MS, async () => {
    checkStorePath(storeDir, partPath, where);
    const { fd, stored } = read();
    if (fd !== undefined) closeSync(fd);
    const m = merge(stored);
    if (m.changed) writeFileAtomic(partPath, recordFileBytes(pq, m.records), where);
    return { records: m.records.length, duplicates: m.duplicates };
  });
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
 * first, with any line appended since it was read kept in a new file, so no
 * acknowledged record is ever lost, even beside a running recorder. Files
 * still appended to are compacted and kept (a re-run merges their new
 * lines). A file with a corrupt line is never removed.
 * Safety: idempotent (running it twice changes nothing the second time); a
 * process killed at any point loses nothing and duplicates nothing (before
 * the rename the old partition stands and the lines are still there; after
 * it, the re-run finds the records already stored; a file left renamed aside
 * is given a kept name by the next run and compacted again). It takes the store's write lock for each
 * partition it writes (see openStore), never for the whole run, so saves
 * interleave with it, and holds it only to check and rename: a day is
 * merged and encoded before (see mergePartition). Symbolic links and devices in the store or the
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
      const open: number[] = [];
      try {
      for (const name of names.sort()) {
        const path = join(sub, name);
        let fd: number;
        try {
          fd = openSync(path, "r");
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === "ENOENT") continue; // claimed by another compaction since the listing
          throw err;
        }
        open.push(fd);
        const bytes = completeLines(fd, 0);
        stats.files++;
        const consumed = bytes.length;
        let corrupt = 0;
        for (let at = 0; at < consumed; ) {
          const eol = bytes.indexOf(0x0a, at);
          const line = bytes.toString("utf8", at, eol);
          at = eol + 1;
          if (line === "") continue;
          stats.lines++;
          const r = parseRecordingLine(line);
          if (r === undefined || r.endpoint !== endpoint) corrupt++;
          else fresh.push({ ...r, body: new BodyText(JSON.stringify(r.body)) }); // held as text: a day's bodies as objects take several times their size
        }
        stats.corrupt += corrupt;
        read.push({ path, name, appended: (recordingFileDays(name) as { appended: string }).appended, consumed, corrupt, fd });
      }
      const partDir = join(storeDir, `endpoint=${endpoint}`, `day=${day}`);
      const partPath = join(partDir, "part-0.parquet");
      const merged = await mergePartition(pq, storeDir, partPath, endpoint, fresh);
      stats.duplicates += merged.duplicates;
      stats.records += merged.records;
      options.onProgress?.({ event: "written", endpoint, day, path: partPath });
      for (const file of read) {
        if (options.keepJsonl === true || file.corrupt > 0 || file.appended > lastClosedDay) continue;
        if (!removeCompacted(file)) stats.removed++;
        options.onProgress?.({ event: "removed", endpoint, day, path: file.path });
      }
      } finally {
        for (const fd of open) closeSync(fd);
      }
    }
  }
  return stats;
}
