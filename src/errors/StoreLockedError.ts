import { MarketIntelError } from "./MarketIntelError.js";
import type { LockHolder } from "./RecorderLockedError.js";

/**
 * A store's write lock (`<store>/.store.lock`) stayed held by another process
 * longer than `openStore`'s `lockTimeoutMs`. Every write to a store
 * (`saveHistory`, `loadHistory({ store })`) takes that lock for its duration,
 * so writers in several processes never lose each other's points. A lock left
 * by a dead process on this host is taken over automatically; a lock from
 * another host is never taken over (delete the file by hand once that process
 * is known to be stopped).
 * @example
 * catch (e) { if (e instanceof StoreLockedError) console.log(e.dir, e.holder?.pid, e.holder?.host); }
 */
export class StoreLockedError extends MarketIntelError {
  /** The store folder. */
  readonly dir: string;
  /** The lock's holder as read from the lock file (undefined when it was being written and could not be read). */
  readonly holder: LockHolder | undefined;

  constructor(dir: string, holder: LockHolder | undefined, message: string) {
    super("STORE_LOCKED", message);
    this.dir = dir;
    this.holder = holder;
  }
}
