import { MarketIntelError } from "./MarketIntelError.js";

/** Who holds a recording folder's lock (the content of `<dir>/.lock`). */
export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  /** When the holder took the lock, epoch ms (NaN when unknown). */
  readonly startedAt: number;
}

/**
 * Another recorder holds the recording folder (one recorder per folder), or a
 * running recorder found its lock gone or taken over (it stops at once).
 * A lock left by a dead process on this host is taken over automatically; a
 * lock from another host is never taken over (remove `<dir>/.lock` by hand
 * once that recorder is known to be stopped).
 * @example
 * catch (e) { if (e instanceof RecorderLockedError) console.log(e.dir, e.holder.pid, e.holder.host); }
 */
export class RecorderLockedError extends MarketIntelError {
  /** The recording folder. */
  readonly dir: string;
  /** The lock's holder, as read from the lock file. */
  readonly holder: LockHolder;

  constructor(dir: string, holder: LockHolder, message: string) {
    super("RECORDER_LOCKED", message);
    this.dir = dir;
    this.holder = holder;
  }
}
