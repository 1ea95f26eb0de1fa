import { randomBytes } from "node:crypto";
import { copyFileSync, linkSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ReadCodecs } from "./codecs.js";
import { readFileBytes, type ReadScratch } from "./readFileBytes.js";
import { storeEntries } from "./storeEntries.js";
import { verifyStoreFile } from "./verifyStoreFile.js";

/** Prefix of a query's snapshot folder in the store's root: `.query-<pid>-<random>` (hidden: no reader globs it). */
const SNAPSHOT_PREFIX = ".query-";

/** The files one query reads: per view (endpoint), its files' paths inside the snapshot folder. */
export interface QuerySnapshot {
  readonly views: ReadonlyMap<string, readonly string[]>;
  /** Remove the snapshot folder (the store's files stay). Idempotent. */
  dispose(): void;
}

/** Files already verified, by identity (device, inode, size, modification time): a file the store wrote is never changed in place, only replaced. */
export type VerifiedFiles = Set<string>;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
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
    if (m === null || Number(m[1]) === process.pid || isAlive(Number(m[1]))) continue;
    rmSync(join(root, name), { recursive: true, force: true });
  }
}

/** Hard-link `from` at `to` (the same file: it can no longer change under the query), or copy it where links are not supported; false when `from` is gone. */
function pin(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return false;
    if (code !== "EXDEV" && code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "ENOSYS" && code !== "EMLINK") throw err;
  }
  try {
    copyFileSync(from, to);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw err;
  }
}

/**
 * Pin the store's committed files for one SQL query: every Parquet file
 * under each `endpoint=<name>` folder is hard-linked (copied where links are
 * not supported) into a private folder `.query-<pid>-<random>` of the root,
 * so a writer that replaces or deletes a file meanwhile (writes are atomic
 * renames) changes nothing the query reads; each pinned file is then
 * verified (decoded, checksums compared, see verifyStoreFile) unless a file
 * of the same identity was verified before. A store this process cannot
 * write (read-only disk or folder) is read in place: nobody can replace its
 * files either. Entries the store refuses
 * (symbolic links, devices; see storeEntries) stop the query by name before
 * anything is read.
 * @param isCancelled checked between files: the pinning stops and the snapshot is removed
 * @throws UnsafeStorePathError, DamagedFileError
 * @internal
 */
export function takeQuerySnapshot(root: string, codecs: ReadCodecs, verified: VerifiedFiles, where: string, isCancelled: () => boolean = () => false): QuerySnapshot {
  const folder = join(root, `${SNAPSHOT_PREFIX}${process.pid}-${randomBytes(6).toString("hex")}`);
  let made = false;
  const dispose = (): void => {
    if (made) rmSync(folder, { recursive: true, force: true });
    made = false;
  };
  const views = new Map<string, string[]>();
  const scratch: ReadScratch = { buffer: Buffer.alloc(0) };
  /** A store nobody can write (read-only disk or folder): no writer can replace a file, so its files are read where they are. */
  let inPlace = false;
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
      let to = join(folder, relPath);
      if (!inPlace) {
        try {
          mkdirSync(join(folder, rel), { recursive: true });
          made = true;
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code !== "EROFS" && code !== "EACCES" && code !== "EPERM") throw err;
          inPlace = true;
        }
      }
      if (inPlace) to = src;
      else if (!pin(src, to)) continue;
      const st = statSync(to);
      const id = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
      if (!verified.has(id)) {
        verifyStoreFile(codecs, readFileBytes(to, scratch), src, where);
        if (verified.size > 1_000_000) verified.clear();
        verified.add(id);
      }
      out.push(to);
    }
  };
  try {
    for (const e of storeEntries(root, where, (name) => /^endpoint=[A-Za-z0-9_]+$/.test(name))) {
      if (!e.isDirectory()) continue;
      const files: string[] = [];
      walk(join(root, e.name), e.name, files);
      if (files.length > 0) views.set(e.name.slice("endpoint=".length), files);
    }
  } catch (err) {
    dispose();
    throw err;
  }
  return { views, dispose };
}
