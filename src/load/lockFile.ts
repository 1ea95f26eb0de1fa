import { randomUUID } from "node:crypto";
import { closeSync, linkSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { hostname, uptime } from "node:os";
import { basename, dirname, join } from "node:path";
import type { LockHolder } from "../errors/RecorderLockedError.js";
import { isProcessAlive } from "./isProcessAlive.js";

/** A lock file held by this process. @internal */
export interface HeldLock {
  /** Who holds it (this process). */
  readonly holder: LockHolder;
  /** True while the lock file is still this lock (not removed or replaced by someone else). */
  held(): boolean;
  /** Remove the lock file if it is still this one (never someone else's). Idempotent. */
  release(): void;
}

/** What {@link tryLockFile} found: the lock taken, or who holds it (`holder` undefined: it is being written right now). */
export type LockAttempt = { readonly taken: HeldLock } | { readonly busy: true; readonly holder: LockHolder | undefined };

/** How a file-system failure of the lock becomes the caller's typed error (`operation` is "create" or "read"). */
export type LockFsError = (operation: string, path: string, cause: unknown) => Error;

/** A takeover guard older than this is left by a killed process and removed. */
const STALE_GUARD_MS = 10_000;
/** A lock file still being written (no parsable content) younger than this counts as held. */
const FRESH_MS = 5_000;
/** A guard or unreadable lock dated further than this in the future is left by a clock set back or a copied folder, never by a live writer. */
const FUTURE_SLACK_MS = 1_000;

/** The holder recorded in a lock file's text: JSON `{pid, host, startedAt}`, or a bare pid (recorders before 0.1.1, same host). */
function parseHolder(text: string): LockHolder | undefined {
  const bare = text.trim();
  if (/^\d+$/.test(bare)) return { pid: Number(bare), host: hostname(), startedAt: Number.NaN };
  try {
    const o = JSON.parse(text) as Partial<LockHolder>;
    if (typeof o.pid === "number" && Number.isInteger(o.pid) && o.pid > 0 && typeof o.host === "string") {
      return { pid: o.pid, host: o.host, startedAt: typeof o.startedAt === "number" ? o.startedAt : Number.NaN };
    }
  } catch {
    // not a lock we can read
  }
  return undefined;
}

/**
 * True when a holder is certainly gone: same host, and its process is not
 * running or started before this machine booted (a PID reused after a reboot).
 * A holder on another host is never stale (its PID means nothing here).
 */
function isStale(h: LockHolder): boolean {
  if (h.host !== hostname()) return false;
  // This pid: stale only if written before this process started (an earlier process with the same pid).
  if (h.pid === process.pid) return Number.isFinite(h.startedAt) && h.startedAt < Date.now() - process.uptime() * 1000 - 1000;
  if (!isProcessAlive(h.pid)) return true;
  const bootedAt = Date.now() - uptime() * 1000;
  return Number.isFinite(h.startedAt) && h.startedAt < bootedAt - 60_000;
}

function readText(path: string, fsError: LockFsError): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw fsError("read", path, err);
  }
}

/** Create `path` holding `text` atomically: written to a private file, then hard-linked (fails with EEXIST if taken). */
function createExclusive(path: string, text: string, fsError: LockFsError): boolean {
  const tmp = `${path}.${process.pid}.${randomUUID()}.tmp`;
  try {
    writeFileSync(tmp, text, { flag: "wx" });
  } catch (err) {
    // A full disk creates the file, then fails to write it: leave nothing behind.
    try {
      unlinkSync(tmp);
    } catch {
      // never created
    }
    throw fsError("create", tmp, err);
  }
  try {
    linkSync(tmp, path);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return false;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "ENOSYS") throw fsError("create", path, err);
    // No hard links on this file system: exclusive create, then write (a reader that sees it empty treats it as fresh and held).
    let fd: number;
    try {
      fd = openSync(path, "wx");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw fsError("create", path, e);
    }
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    return true;
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
  }
}

/** A takeover guard is stale when it is old, dated in the future (a clock set back, a copied folder), or its process on this host is gone. */
function isStaleGuard(guard: string): boolean {
  let age: number;
  let text: string;
  try {
    age = Date.now() - statSync(guard).mtimeMs;
    text = readFileSync(guard, "utf8");
  } catch {
    return false; // gone meanwhile: the next attempt creates it
  }
  if (age > STALE_GUARD_MS || age < -FUTURE_SLACK_MS) return true;
  const holder = parseHolder(text);
  return holder !== undefined && holder.host === hostname() && holder.pid !== process.pid && !isProcessAlive(holder.pid);
}

/**
 * Remove a stale lock whose text is `staleText`, under a takeover guard
 * (`<lock>.takeover`, exclusive create, holding `{pid, host}`) so that two
 * processes that both saw the same stale lock cannot remove each other's
 * fresh one: the lock is re-read under the guard and removed only if it is
 * still the stale one. Never waits: when another process holds the guard
 * (it holds it for microseconds) it returns false and the caller tries again
 * later, asynchronously; a guard left by a dead process, older than 10 s, or
 * dated in the future is removed first.
 * @returns false when the guard was busy
 */
function removeStale(path: string, staleText: string, fsError: LockFsError): boolean {
  const guard = `${path}.takeover`;
  for (let i = 0; i < 2; i++) {
    let fd: number;
    try {
      fd = openSync(guard, "wx");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw fsError("create", guard, err);
      if (!isStaleGuard(guard)) return false;
      try {
        unlinkSync(guard);
      } catch {
        // gone meanwhile
      }
      continue;
    }
    try {
      writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), startedAt: Date.now() }));
    } catch {
      // an empty guard still guards; its age decides when it is stale
    } finally {
      closeSync(fd);
    }
    try {
      if (readText(path, fsError) === staleText) unlinkSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    } finally {
      try {
        unlinkSync(guard);
      } catch {
        // already gone
      }
    }
    return true;
  }
  return false;
}

/** Remove the private lock files (`<lock>.<pid>.<uuid>.tmp`) of processes killed between writing and linking them. */
function removeOrphans(path: string): void {
  const dir = dirname(path);
  const prefix = `${basename(path)}.`;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)\.[0-9a-f-]+\.tmp$/.exec(name.slice(prefix.length));
    if (m !== null && Number(m[1]) !== process.pid && !isProcessAlive(Number(m[1]))) {
      try {
        unlinkSync(join(dir, name));
      } catch {
        // gone meanwhile
      }
    }
  }
}

/**
 * "pid 123 on host since 2026-11-01T00:00:00.000Z": a lock holder for messages.
 * @internal
 */
export function describeHolder(h: LockHolder): string {
  const since = Number.isFinite(h.startedAt) ? ` since ${new Date(h.startedAt).toISOString()}` : "";
  return `pid ${h.pid} on ${h.host}${since}`;
}

/**
 * Try to take the lock file `path` once, atomically (the rule shared by the
 * recorder's folder lock and the store's write lock): the lock file
 * (`{"pid","host","startedAt"}`) is written in full to a private file and
 * hard-linked into place, so exactly one of any number of racing processes
 * wins and nobody ever reads a half-written lock. A lock whose holder is
 * certainly gone (same host, process not running, or started before the
 * machine booted) is taken over, with `onStale` told; a lock from another
 * host is never taken over. Returns the lock, or who holds it.
 * @throws the error `fsError` makes when the folder cannot be written or read
 * @internal
 */
export function tryLockFile(path: string, fsError: LockFsError, onStale: (holder: LockHolder) => void = () => undefined): LockAttempt {
  const me: LockHolder = { pid: process.pid, host: hostname(), startedAt: Date.now() };
  const text = `${JSON.stringify({ ...me, token: randomUUID() })}\n`;
  for (let attempt = 0; attempt < 50; attempt++) {
    if (createExclusive(path, text, fsError)) {
      removeOrphans(path);
      let released = false;
      const held = (): boolean => !released && readText(path, fsError) === text;
      return {
        taken: {
          holder: me,
          held,
          release: () => {
            if (released) return;
            try {
              if (held()) unlinkSync(path);
            } catch {
              // already gone
            }
            released = true;
          },
        },
      };
    }
    const current = readText(path, fsError);
    if (current === undefined) continue; // released meanwhile: try again
    const holder = parseHolder(current);
    if (holder === undefined) {
      let age = 0;
      try {
        age = Date.now() - statSync(path).mtimeMs;
      } catch {
        continue;
      }
      if (age < FRESH_MS && age > -FUTURE_SLACK_MS) return { busy: true, holder: undefined };
      if (!removeStale(path, current, fsError)) return { busy: true, holder: undefined };
      continue;
    }
    if (!isStale(holder)) return { busy: true, holder };
    onStale(holder);
    if (!removeStale(path, current, fsError)) return { busy: true, holder };
  }
  return { busy: true, holder: undefined };
}
