import { lstatSync, readdirSync, type Dirent } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { UnsafeStorePathError } from "../errors/UnsafeStorePathError.js";

function kindOf(e: { isSymbolicLink(): boolean; isBlockDevice(): boolean; isCharacterDevice(): boolean; isFIFO(): boolean; isSocket(): boolean }): string | undefined {
  if (e.isSymbolicLink()) return "a symbolic link";
  if (e.isBlockDevice() || e.isCharacterDevice()) return "a device";
  if (e.isFIFO()) return "a pipe";
  if (e.isSocket()) return "a socket";
  return undefined;
}

function refuse(path: string, kind: string, where: string): UnsafeStorePathError {
  return new UnsafeStorePathError(path, `${where}: ${JSON.stringify(path)} is ${kind}; a store holds only its own folders and files, so nothing is read, written or deleted through it: remove it, or copy the real folder in its place`);
}

/**
 * The entries of a folder of a store (none when it does not exist), refusing
 * the ones the store never follows: symbolic links (a `day=` folder linked to
 * a user's folder would have saves write and delete there), devices, pipes
 * and sockets (among the entries `only` keeps, by name). The one rule of the store's closed box, used before every
 * read, write and delete below its root.
 * @param where the calling function, for the message
 * @throws UnsafeStorePathError naming the first such entry
 * @internal
 */
export function storeEntries(dir: string, where: string, only: (name: string) => boolean = () => true): Dirent[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return [];
    if (code === "ENOTDIR") throw refuse(dir, "not a folder", where);
    throw err;
  }
  entries = entries.filter((e) => only(e.name));
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const kind = kindOf(e);
    if (kind !== undefined) throw refuse(join(dir, e.name), kind, where);
  }
  return entries;
}

/**
 * Check a path below the store's root before it is written or deleted: it
 * lies inside `root` (no `..`, not absolute elsewhere), and each part of it
 * that exists is a real folder (the last may be a regular file), none a
 * symbolic link or a device. Parts that do not exist yet are created as
 * folders by the write.
 * @throws UnsafeStorePathError naming the part refused
 * @internal
 */
export function checkStorePath(root: string, path: string, where: string): void {
  const rel = relative(root, path);
  if (rel === "") return;
  if (isAbsolute(rel) || rel === ".." || rel.startsWith(`..${sep}`)) throw refuse(path, `outside the store ${JSON.stringify(root)}`, where);
  const parts = rel.split(sep);
  let at = root;
  for (let i = 0; i < parts.length; i++) {
    at = join(at, parts[i] as string);
    let st;
    try {
      st = lstatSync(at);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
      throw err;
    }
    const kind = kindOf(st);
    if (kind !== undefined) throw refuse(at, kind, where);
    if (i < parts.length - 1 && !st.isDirectory()) throw refuse(at, "not a folder", where);
  }
}
