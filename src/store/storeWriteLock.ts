import { mkdirSync } from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { FileWriteError } from "../errors/FileWriteError.js";
import type { LockHolder } from "../errors/RecorderLockedError.js";
import { StoreLockedError } from "../errors/StoreLockedError.js";
import { describeHolder, tryLockFile, type LockFsError } from "../load/lockFile.js";

/** The store's write lock file, beside its `endpoint=` folders (a dot file: no Parquet reader globs it). */
export const STORE_LOCK_FILE = ".store.lock";

/** The tail of each store's queue of writes in this process, by resolved folder. */
const queues = new Map<string, Promise<void>>();

/** The lock's file-system failures as FileWriteError, whose message says what to do for that code (a full disk: free space, not "make it writable"). */
const lockFsError: LockFsError = (operation, path, cause) => new FileWriteError(`store: the write lock (${operation})`, path, cause);

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Run `job` as the only writer of the store at `dir`: after every earlier
 * write of this process to that folder (any store object), and holding
 * `<dir>/.store.lock` against other processes (the recorder's lock rule:
 * holder named, a dead holder's lock taken over, another host's never). A
 * lock held by a live process is waited for, polling, up to `timeoutMs`;
 * the waits are timers, never a blocking sleep, so the event loop runs on.
 * @throws FileWriteError when the lock cannot be written (read-only folder, full disk), naming the code and the fix
 * @throws StoreLockedError naming the holder when the lock stays held longer than `timeoutMs`
 * @internal
 */
export function withStoreWriteLock<T>(dir: string, timeoutMs: number, job: () => Promise<T>): Promise<T> {
  const id = resolve(dir);
  const run = async (): Promise<T> => {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, STORE_LOCK_FILE);
    const fsError = lockFsError;
    const deadline = Date.now() + timeoutMs;
    let wait = 2;
    let holder: LockHolder | undefined;
    for (;;) {
      const attempt = tryLockFile(path, fsError);
      if ("taken" in attempt) {
        try {
          return await job();
        } finally {
          attempt.taken.release();
        }
      }
      holder = attempt.holder;
      const left = deadline - Date.now();
      if (left <= 0) break;
      await sleep(Math.min(wait, left));
      wait = Math.min(50, wait * 2);
    }
    const remote = holder !== undefined && holder.host !== hostname() ? `; if that process is certainly stopped, delete ${path}` : "";
    throw new StoreLockedError(dir, holder, `store: another process (${holder === undefined ? "unknown, taking the lock right now" : describeHolder(holder)}) held the write lock of ${dir} for over ${timeoutMs} ms; wait for it to finish or raise openStore's lockTimeoutMs${remote}`);
  };
  const prev = queues.get(id) ?? Promise.resolve();
  const result = prev.then(run);
  const tail = result.then(
    () => undefined,
    () => undefined,
  );
  queues.set(id, tail);
  void tail.then(() => {
    if (queues.get(id) === tail) queues.delete(id);
  });
  return result;
}
