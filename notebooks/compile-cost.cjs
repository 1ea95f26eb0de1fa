#!/usr/bin/env node
/**
 * Where a notebook's COMPILE time goes: feeds each code cell of the given notebooks
 * through tslab's own converter (the TypeScript program tslab builds for every cell:
 * type-check against the previous cells' declarations and the package's dist/*.d.ts,
 * then declaration emit), in a plain node process, without Jupyter and without running
 * any cell. Prints the CPU of creating the converter (tslab's TypeScript and lib/@types)
 * and of each cell, and whether a cell has diagnostics.
 *
 * Usage (after `npm run build`): node notebooks/compile-cost.cjs notebooks/01-quickstart.ipynb [...]
 *
 * `npm run notebooks:run` gives each cell's wall time with running included; this gives
 * the compile part alone, so a change to the package's declarations can be measured
 * cell by cell. Measured this way (load 7-13): creating the converter 2.4-3.4 s CPU per
 * kernel, the first cell (importing market-intel-lab) 1.4-2.3 s, each later cell
 * 0.04-1.1 s; 7.5-11.5 s per notebook of the ~15-50 s a notebook costs in the suite.
 */
"use strict";
const { readFileSync } = require("node:fs");
const { join, resolve } = require("node:path");

const root = resolve(__dirname, "..");
const notebooks = process.argv.slice(2).map((p) => resolve(p));
if (notebooks.length === 0) {
  console.error("usage: node notebooks/compile-cost.cjs notebooks/NN-name.ipynb [...]");
  process.exit(2);
}
// The kernel runs in the notebook's folder (execute.py's resources path): resolve from there.
process.chdir(__dirname);
const { createConverter } = require(join(root, "node_modules", "tslab", "dist", "converter.js"));
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

for (const path of notebooks) {
  let last = cpuMs();
  const start = last;
  const conv = createConverter({ isJS: false, isBrowser: false });
  const lap = () => {
    const now = cpuMs();
    const ms = now - last;
    last = now;
    return ms.toFixed(0);
  };
  const lines = [`converter ${lap()} ms`];
  const nb = JSON.parse(readFileSync(path, "utf8"));
  let prevDecl = "";
  nb.cells
    .filter((c) => c.cell_type === "code")
    .forEach((c, i) => {
      const r = conv.convert(prevDecl, Array.isArray(c.source) ? c.source.join("") : c.source);
      prevDecl = r.declOutput ?? "";
      const diag = r.diagnostics.length > 0 ? ` DIAGNOSTICS: ${r.diagnostics.map((d) => d.messageText).join("; ")}` : "";
      lines.push(`cell ${i} ${lap()} ms${diag}`);
    });
  conv.close();
  console.log(`${path.replace(`${root}/`, "")}: ${(cpuMs() - start).toFixed(0)} ms CPU compiling; ${lines.join(", ")}`);
}
// tslab's watch program keeps file watchers open.
process.exit(0);
