#!/usr/bin/env node
/**
 * `npm run notebooks:run`: execute notebooks headless with the tslab kernel
 * and save each one IN PLACE with the outputs of this run (what readers see on
 * GitHub). Stops with exit status 1 and the failing cell's error when a cell fails.
 *
 * Usage: node notebooks/run.mjs [notebooks/NN-name.ipynb ...]   (default: every notebooks/*.ipynb)
 * Needs: the build (`npm run build`, notebooks import "market-intel-lab" = dist/),
 * Debian's /usr/bin/python3 with nbclient (`apt-get install jupyter-nbconvert python3-nbclient jupyter-client`).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { setupKernel } from "./setup.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..");
if (!existsSync(join(root, "dist", "index.js"))) {
  console.error("notebooks:run: dist/index.js is missing; run `npm run build` first (notebooks import the built package)");
  process.exit(2);
}
const notebooks = process.argv.slice(2).length > 0
  ? process.argv.slice(2).map((p) => resolve(p))
  : readdirSync(here).filter((f) => f.endsWith(".ipynb")).sort().map((f) => join(here, f));
const jupyterPath = await setupKernel(root);
const result = spawnSync("/usr/bin/python3", [join(here, "execute.py"), "--in-place", ...notebooks], {
  env: { ...process.env, JUPYTER_PATH: jupyterPath, TZ: "UTC" },
  encoding: "utf8",
  stdio: ["ignore", "pipe", "inherit"],
});
if (result.error) {
  console.error(`notebooks:run: cannot start /usr/bin/python3 (${result.error.message}); install Debian's python3-nbclient`);
  process.exit(2);
}
for (const line of result.stdout.split("\n").filter(Boolean)) {
  const r = JSON.parse(line);
  if (r.ok) {
    console.log(`ok    ${r.notebook} (${r.cells} code cells, ${r.seconds} s)`);
    // the slowest cells (wall seconds, compile included): where a notebook's time goes
    const slow = (r.cell_seconds ?? []).map((s, i) => [i, s]).filter(([, s]) => s !== null).sort((a, b) => b[1] - a[1]).slice(0, 3);
    if (slow.length > 0) console.log(`      slowest cells: ${slow.map(([i, s]) => `${i} ${s} s`).join(", ")}`);
  } else {
    console.log(`FAIL  ${r.notebook}: cell ${r.error.cell} ${r.error.ename} ${r.error.evalue}`);
    console.log(r.error.source.replace(/^/gm, "    > "));
    console.log(r.error.outputs.replace(/^/gm, "    | "));
  }
}
process.exit(result.status ?? 1);
