/**
 * Bundle a TypeScript child script (and the library source it imports) into
 * one ESM file with esbuild, so the reliability suite can start it many times
 * at plain-node speed: about 0.3-0.5 s of CPU instead of about 1.5-2.3 s under
 * `node --import tsx` (measured: a compaction child 2.3 s CPU under tsx).
 * npm packages stay outside the bundle (imported from node_modules at run
 * time: parquet-wasm's WebAssembly, DuckDB's native addon), so the bundle is
 * written inside the repository, node_modules/.cache/milab-children, where
 * they resolve. One file per entry (named by the entry's path), rebuilt from
 * the source once per test process and renamed into place (atomic: a process
 * starting it meanwhile reads a whole bundle), so nothing accumulates. Start it
 * as `spawn(process.execPath, [bundleChild(entry), ...args])`.
 */
import { buildSync } from "esbuild";
import { createHash } from "node:crypto";
import { mkdirSync, renameSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const built = new Map<string, string>();

/** Path of the bundled `.mjs` of `entry` (an absolute .ts path), under node_modules/.cache/milab-children. */
export function bundleChild(entry: string): string {
  const have = built.get(entry);
  if (have !== undefined) return have;
  const folder = join(repo, "node_modules", ".cache", "milab-children");
  mkdirSync(folder, { recursive: true });
  const out = join(folder, `${basename(entry, ".ts")}-${createHash("sha1").update(entry).digest("hex").slice(0, 10)}.mjs`);
  const staged = `${out}.${process.pid}.tmp.mjs`;
  buildSync({ entryPoints: [entry], bundle: true, platform: "node", format: "esm", target: "node20", outfile: staged, packages: "external", logLevel: "error" });
  renameSync(staged, out);
  built.set(entry, out);
  return out;
}
