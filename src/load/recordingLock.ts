import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { RecorderLockedError, type LockHolder } from "../errors/RecorderLockedError.js";
import { RecordingWriteError } from "../errors/RecordingWriteError.js";
import { describeHolder, tryLockFile, type LockFsError } from "./lockFile.js";

/** A recording folder's lock, held by this process. @internal */
export interface RecordingLock {
  /** Who holds it (this process). */
  readonly holder: LockHolder;
  /** True while `<dir>/.lock` is still this lock (not removed or replaced by someone else). */
  held(): boolean;
  /** Remove the lock if it is still this one (never someone else's). Idempotent. */
  release(): void;
}

/** Folders locked by this process (a second recorder here is refused without reading the file). */
const lockedHere = new Set<string>();

const recordingWriteError: LockFsError = (operation, path, cause) => new RecordingWriteError(operation, path, cause);

/**
 * Take `<dir>/.lock`, one recorder per folder, atomically: the lock file
 * (`{"pid","host","startedAt"}`) is written in full to a private file and
 * hard-linked into place, so exactly one of any number of racing recorders
 * wins and nobody ever reads a half-written lock. A lock whose holder is
 * certainly gone (same host, process not running, or started before the
 * machine booted) is taken over, with `onStale` told; a lock from another
 * host is never taken over.
 * @throws RecorderLockedError naming the folder and the holder
 * @throws RecordingWriteError when the folder cannot be written
 * @internal
 */
export function lockRecording(dir: string, onStale: (holder: LockHolder) => void = () => undefined): RecordingLock {
  const path = join(dir, ".lock");
  const id = resolve(dir);
  const me: LockHolder = { pid: process.pid, host: hostname(), startedAt: Date.now() };
  if (lockedHere.has(id)) {
    throw new RecorderLockedError(dir, me, `record: another recorder of this process (pid ${me.pid}) is writing to ${dir}; stop it or choose another dir`);
  }
  const attempt = tryLockFile(path, recordingWriteError, onStale);
  if ("taken" in attempt) {
    const lock = attempt.taken;
    lockedHere.add(id);
    return {
      holder: lock.holder,
      held: lock.held,
      release: () => {
        lock.release();
        lockedHere.delete(id);
      },
    };
  }
  const holder = attempt.holder;
  if (holder === undefined) {
    throw new RecorderLockedError(dir, { pid: Number.NaN, host: "unknown", startedAt: Number.NaN }, `record: another recorder is taking the lock of ${dir} right now; stop it or choose another dir`);
  }
  const remote = holder.host !== me.host ? `; if that recorder is certainly stopped, delete ${path}` : "";
  throw new RecorderLockedError(dir, holder, `record: another recorder (${describeHolder(holder)}) is writing to ${dir}; stop it or choose another dir${remote}`);
}
