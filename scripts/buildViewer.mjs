// Bundle the report's chart viewer (vega + vega-lite + vega-embed and scripts/vegaViewer.entry.js) into one
// minified browser script, dist/vendor/vega-viewer.js, that renderTearsheet inlines into an interactive
// report: the page then needs no network. Skipped when the bundle is newer than its inputs (npm start).
import { build } from "esbuild";
import { mkdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const entry = join(root, "scripts", "vegaViewer.entry.js");
const out = join(root, "dist", "vendor", "vega-viewer.js");
const mtime = (f) => {
  try {
    return statSync(f).mtimeMs;
  } catch {
    return Number.NaN;
  }
};
const inputs = [entry, join(root, "package-lock.json"), fileURLToPath(import.meta.url)];
if (!(mtime(out) > Math.max(...inputs.map(mtime)))) {
  mkdirSync(dirname(out), { recursive: true });
  await build({
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    minify: true,
    format: "iife",
    platform: "browser",
    target: "es2020",
    legalComments: "eof",
    logLevel: "warning",
  });
}
