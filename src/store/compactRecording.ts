import { existsSync, readdirSync, readFileSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { dedupeRecords } from "../load/dedupeRecords.js";
import { parseRecordingLine, type RecordedResponse } from "../load/recordingLine.js";
import { loadCodecs } from "./codecs.js";
import { readRecordFile, recordFileBytes } from "./recordFile.js";
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
/** How long compaction waits for another writer of the store (see openStore's lockTimeoutMs). */
const LOCK_TIMEOUT_MS = 120_000;

/**
 * Compact a recording made by `record` (one JSON-lines file per endpoint and
 * UTC day) into the Parquet store: each day file's records are merged with
 * the store's partition `endpoint=<name>/day=<day>/part-0.parquet` (a record
 * already there, same endpoint and key, is kept once, the first fetched, as
 * `loadRecording` does), the partition is written atomically, and only then
 * is the JSON-lines file of a closed day (ended over a day ago by `clock`,
 * so no running recorder still appends to it) removed. Files of open days are
 * compacted and kept (a re-run merges their new lines). A file with a corrupt
 * line is never removed.
 * Safety: idempotent (running it twice changes nothing the second time); a
 * process killed at any point loses nothing and duplicates nothing (before
 * the rename the old partition stands and the lines are still there; after
 * it, the re-run finds the records already stored). It holds the store's
 * write lock throughout (see openStore), so compactions and saves may run at once.
 * Read the result with `openStore(store).loadRecording()`.
 * @throws InvalidArgumentError when `dir` is not a folder
 * @throws StoreLockedError when another process holds the store's write lock for over 2 minutes
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
  return withStoreWriteLock(storeDir, LOCK_TIMEOUT_MS, async () => {
    const stats = { files: 0, lines: 0, records: 0, duplicates: 0, corrupt: 0, removed: 0 };
    for (const endpoint of readdirSync(dir).sort()) {
      const sub = join(dir, endpoint);
      if (endpoint.startsWith(".") || join(dir, endpoint) === join(storeDir) || !statSync(sub).isDirectory()) continue;
      for (const name of readdirSync(sub).filter((f) => /^\d{4}-\d\d-\d\d\.jsonl$/.test(f)).sort()) {
        const day = name.slice(0, 10);
        const path = join(sub, name);
        const text = readFileSync(path, "utf8");
        stats.files++;
        const lines = text.slice(0, text.lastIndexOf("\n") + 1).split("\n"); // a torn last line is not a line
        const fresh: RecordedResponse[] = [];
        let corrupt = 0;
        for (const line of lines) {
          if (line === "") continue;
          stats.lines++;
          const r = parseRecordingLine(line);
          if (r === undefined || r.endpoint !== endpoint) corrupt++;
          else fresh.push(r);
        }
        stats.corrupt += corrupt;
        const partDir = join(storeDir, `endpoint=${endpoint}`, `day=${day}`);
        const partPath = join(partDir, "part-0.parquet");
        sweepTempFiles(partDir, now);
        const stored = existsSync(partPath) ? readRecordFile(pq, readFileSync(partPath), endpoint) : [];
        const { byEndpoint, duplicates } = dedupeRecords([...stored, ...fresh]);
        const merged = byEndpoint.get(endpoint) ?? [];
        stats.duplicates += duplicates;
        stats.records += merged.length;
        // dedupeRecords keeps record objects and sorts as the file was written: same objects in the same order = nothing new.
        if (merged.length !== stored.length || merged.some((r, i) => r !== stored[i])) writeFileAtomic(partPath, recordFileBytes(pq, merged));
        options.onProgress?.({ event: "written", endpoint, day, path: partPath });
        if (options.keepJsonl !== true && corrupt === 0 && day <= lastClosedDay) {
          unlinkSync(path);
          stats.removed++;
          options.onProgress?.({ event: "removed", endpoint, day, path });
        }
      }
    }
    return stats;
  });
}
