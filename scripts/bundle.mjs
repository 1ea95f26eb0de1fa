// Write the library's JavaScript (dist/**/*.js): one esbuild pass over src/ with code splitting, so that a
// program loads its entry file and a few shared chunks instead of ~400 ES modules (Node's ES-module loader, not
// our code, was most of a `milab` start: docs/notes/cli-startup-cost.md). tsc still type-checks and writes the
// .d.ts files beside them (tsconfig.build.json, same paths as before); this script writes only JavaScript.
//
// Entry points: every file package.json "exports" and "bin" name, plus the files loaded by path at run time
// (RUNTIME_ENTRIES). Every other module lives once, in dist/chunks/: a strategy module importing
// "market-intel-lab" and the CLI share its classes, WeakMaps and registries (splitting never copies a module into
// two outputs). Code that needs a file of the package finds it from the package root (packageInfo().root,
// src/store/packageVersion.ts), never relative to its own module, which is a chunk once built.
import { build } from "esbuild";
import { readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");

/**
 * Files the library loads by path at run time (not through "exports"): the sweep pool's worker thread
 * (src/research/sweepPool.ts) and the kernel-spec writer notebooks/setup.mjs imports from the checkout.
 */
const RUNTIME_ENTRIES = ["dist/research/sweepWorker.js", "dist/notebooks/writeTslabKernelSpec.js"];

/** Every dist/<path>.js package.json names ("exports" conditions, "main", "bin"), as src/<path>.ts. */
function entryPoints() {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const named = new Set(RUNTIME_ENTRIES);
  const visit = (v) => {
    if (typeof v === "string") {
      if (v.endsWith(".js")) named.add(v.replace(/^\.\//, ""));
    } else if (v !== null && typeof v === "object") for (const x of Object.values(v)) visit(x);
  };
  visit(pkg.exports);
  visit(pkg.main);
  visit(pkg.bin);
  return [...named].sort().map((js) => {
    if (!js.startsWith("dist/")) throw new Error(`bundle.mjs: ${js} (package.json) is not under dist/`);
    const src = join(root, "src", js.slice("dist/".length).replace(/\.js$/, ".ts"));
    statSync(src); // throws (ENOENT, naming the file) when an entry has no source
    return src;
  });
}

/** Remove the JavaScript of earlier builds (tsc's one file per module, old chunks); keep .d.ts and dist/vendor. */
function removeOldJs(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (relative(dist, path) !== "vendor") removeOldJs(path);
    } else if (e.name.endsWith(".js") || e.name.endsWith(".js.map")) rmSync(path);
  }
}

/** Newest modification time of the files under `dirPath` (0 when there are none). */
function newest(dirPath) {
  let t = 0;
  for (const e of readdirSync(dirPath, { withFileTypes: true })) {
    const path = join(dirPath, e.name);
    t = Math.max(t, e.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return t;
}

const mtime = (f) => {
  try {
    return statSync(f).mtimeMs;
  } catch {
    return Number.NaN;
  }
};

// Skipped when every entry's output is newer than the sources, package.json, tsconfig.json and this script, as
// `tsc -b` skips its part (`npm start` on a built tree starts at once).
const entries = entryPoints();
const outputs = entries.map((src) => join(dist, relative(join(root, "src"), src).replace(/\.ts$/, ".js")));
const inputs = Math.max(newest(join(root, "src")), ...["package.json", "tsconfig.json"].map((f) => mtime(join(root, f))), mtime(fileURLToPath(import.meta.url)));
if (!(Math.min(...outputs.map(mtime)) > inputs)) {
  removeOldJs(dist);
  await build({
    absWorkingDir: root,
    entryPoints: entries,
    outbase: join(root, "src"),
    outdir: dist,
    entryNames: "[dir]/[name]",
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "es2022",
    packages: "external",
    sourcemap: "linked",
    tsconfig: join(root, "tsconfig.json"),
    logLevel: "warning",
    // keep every function's and class's `.name` as written: errors take their name from their class (MarketIntelError:
    // `new.target.name`), which esbuild would otherwise rename (`class _HttpError` for a class that names itself)
    keepNames: true,
  });
}
