import { randomBytes } from "node:crypto";
import { copyFileSync, linkSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { isProcessAlive } from "../load/isProcessAlive.js";
import type { ReadCodecs } from "./codecs.js";
import { readFileBytes, type ReadScratch } from "./readFileBytes.js";
import { storeEntries } from "./storeEntries.js";
import { verifyStoreFile } from "./verifyStoreFile.js";

/** Prefix of a query's snapshot folder in the store's root: `.query-<pid>-<random>` (hidden: no reader globs it). */
const SNAPSHOT_PREFIX = ".query-";

/** The files one query reads: per view (endpoint), its files' paths (pinned copies, see takeQuerySnapshot). */
export interface QuerySnapshot {
  readonly views: ReadonlyMap<string, readonly string[]>;
}

/**
 * An engine's pinned copies of the store's files, kept from query to query: a
 * private folder `.query-<pid>-<random>` of the store's root, what is pinned
 * there (by path below the root, with the identity of the file pinned) and
 * which file identities were verified. Queries of one engine run one at a
 * time, so the folder is theirs alone.
 * @internal
 */
export interface PinnedFiles {
  readonly folder: string;
  /** By the file's path below the root: the identity of the copy pinned and the copy's path. */
  readonly pinned: Map<string, { readonly id: string; readonly path: string }>;
  /** Identities (device, inode, size, modification time) of files verified: a file the store wrote is never changed in place, only replaced. */
  readonly verified: Set<string>;
  /** The store cannot be written by this process (read-only disk or folder): its files are read where they are (nobody can replace them either). */
  inPlace: boolean;
}

/** A fresh, empty set of pinned files for the store at `root` (the folder is made on first use). @internal */
export function createPinnedFiles(root: string): PinnedFiles {
  return { folder: join(root, `${SNAPSHOT_PREFIX}${process.pid}-${randomBytes(6).toString("hex")}`), pinned: new Map(), verified: new Set(), inPlace: false };
}

/** Remove the pinned copies (the store's files stay). @internal */
export function removePinnedFiles(pins: PinnedFiles): void {
  rmSync(pins.folder, { recursive: true, force: true });
  pins.pinned.clear();
}

/**
 * Remove the snapshot folders that killed processes left in the store's root.
 * @internal
 */
export function sweepQuerySnapshots(root: string): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^\.query-(\d+)-[0-9a-f]+$/.exec(name);
    if (m === null || Number(m[1]) === process.pid || isProcessAlive(Number(m[1]))) continue;
    rmSync(join(root, name), { recursive: true, force: true });
  }
}

/** Attempts at linking a name that writers keep replacing before the query fails (each failure needs a rename in the instant between the link's lookup and the link). */
const MAX_LINK_ATTEMPTS = 1000;

/**
 * Hard-link `from` at `to` (the same file: it can no longer change under the
 * query), or copy it where links are not supported; false when `from` is gone.
 * A writer replaces a file by renaming a new one over its name, and `link`
 * can then fail with ENOENT although the name never stopped existing (Linux
 * resolves the name to the old file, whose last link the rename removes
 * before the new link is made: measured 62 ENOENT in 40,786 links beside
 * 1,350 renames in 3 s). So ENOENT counts as "gone" only when the name no
 * longer exists (stat); otherwise the link is made again, to the new file.
 * @throws the link's system error when the name exists but cannot be linked in 1,000 attempts
 * @internal
 */
export function pinFile(from: string, to: string): boolean {
  for (let attempt = 1; ; attempt++) {
    try {
      linkSync(from, to);
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT") {
        if (!exists(from)) return false;
        if (attempt >= MAX_LINK_ATTEMPTS) throw err; // never skipped silently: a query without a committed file gives wrong answers
        continue;
      }
      if (code !== "EXDEV" && code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "ENOSYS" && code !== "EMLINK") throw err;
    }
    break;
  }
  try {
    copyFileSync(from, to);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw err;
  }
}

/** True when `path` names something (ENOENT: false; other errors are thrown). */
function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw err;
  }
}

const identity = (st: { dev: number; ino: number; size: number; mtimeMs: number }): string => `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;

/**
 * Pin the store's committed files for one SQL query: every Parquet file
 * under each `endpoint=<name>` folder is hard-linked (copied where links are
 * not supported) into the engine's private folder (see PinnedFiles), so a
 * writer that replaces or deletes a file meanwhile (writes are atomic
 * renames) changes nothing the query reads; a file whose identity (inode,
 * size, modification time) is what was pinned for an earlier query is kept,
 * a new or replaced one is linked afresh and verified (decoded, checksums
 * compared, see verifyStoreFile) unless a file of that identity was verified
 * before. A store this process cannot write (read-only disk or folder) is
 * read in place: nobody can replace its files either. Entries the store
 * refuses (symbolic links, devices; see storeEntries) stop the query by name
 * before anything is read.
 * @param isCancelled checked between files: the pinning stops
 * @throws UnsafeStorePathError, DamagedFileError
 * @internal
 */
export function takeQuerySnapshot(root: string, codecs: ReadCodecs, pins: PinnedFiles, where: string, isCancelled: () => boolean = () => false): QuerySnapshot {
  const views = new Map<string, string[]>();
  const scratch: ReadScratch = { buffer: Buffer.alloc(0) };
  const seen = new Set<string>();
  const verify = (path: string, src: string, id: string): void => {
    if (pins.verified.has(id)) return;
    verifyStoreFile(codecs, readFileBytes(path, scratch), src, where);
    if (pins.verified.size > 1_000_000) pins.verified.clear();
    pins.verified.add(id);
  };
  const walk = (from: string, rel: string, out: string[]): void => {
    for (const e of storeEntries(from, where)) {
      if (e.name.startsWith(".")) continue;
      if (isCancelled()) return;
      const src = join(from, e.name);
      const relPath = join(rel, e.name);
      if (e.isDirectory()) {
        walk(src, relPath, out);
        continue;
      }
      if (!e.isFile() || !e.name.endsWith(".parquet")) continue;
      let now: string;
      try {
        now = identity(statSync(src));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") continue; // deleted meanwhile
        throw err;
      }
      if (!pins.inPlace) {
        try {
          mkdirSync(join(pins.folder, rel), { recursive: true });
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code !== "EROFS" && code !== "EACCES" && code !== "EPERM") throw err;
          pins.inPlace = true;
        }
      }
      if (pins.inPlace) {
        verify(src, src, now);
        out.push(src);
        continue;
      }
      seen.add(relPath);
      const had = pins.pinned.get(relPath);
      let to = had?.path;
      if (had?.id !== now) {
        // Link to a private name, take the identity of what was linked (a writer may have replaced the file since the
        // stat), verify it, and keep it under a name of its own: DuckDB caches file contents by path (and a modification
        // time of one-second resolution), so a version must never take an earlier version's path.
        const fresh = join(pins.folder, rel, `${randomBytes(8).toString("hex")}-${e.name}`);
        if (!pinFile(src, fresh)) continue;
        try {
          const id = identity(statSync(fresh));
          verify(fresh, src, id);
          pins.pinned.set(relPath, { id, path: fresh });
          to = fresh;
        } catch (err) {
          rmSync(fresh, { force: true });
          throw err;
        }
        if (had !== undefined) rmSync(had.path, { force: true });
      }
      out.push(to as string);
    }
  };
  for (const e of storeEntries(root, where, (name) => /^endpoint=[A-Za-z0-9_]+$/.test(name))) {
    if (!e.isDirectory()) continue;
    const files: string[] = [];
    walk(join(root, e.name), e.name, files);
    if (files.length > 0) views.set(e.name.slice("endpoint=".length), files);
  }
  // Files gone from the store: their copies go too.
  if (!isCancelled()) {
    for (const [relPath, copy] of [...pins.pinned]) {
      if (seen.has(relPath)) continue;
      rmSync(copy.path, { force: true });
      pins.pinned.delete(relPath);
    }
  }
  return { views };
}
