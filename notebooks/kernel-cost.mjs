#!/usr/bin/env node
/**
 * Where a notebook's KERNEL CPU goes, as the suite runs it: executes each given notebook
 * headless (notebooks/execute.py, a fresh tslab kernel each, outputs written to a scratch
 * folder, the committed notebook untouched) with the kernel under V8's sampling profiler
 * (`node --cpu-prof`: NODE_OPTIONS may not carry it, so a scratch kernel spec starts node
 * with it), then prints per notebook:
 *  - the kernel's sampled CPU by package (TypeScript = tslab's per-cell type-check and emit,
 *    market-intel-lab = dist/, wasm, mathjs/typed-function = danfo's load, GC, ...);
 *  - inclusive CPU of tslab's phases: creating the converter (lib + @types parse), convert
 *    (every cell's compile: rebuild, diagnostics, emit), require (module loading);
 *  - the python executor's own CPU and the kernel's (children) from getrusage.
 * The profiler adds overhead (~30-50 %): compare shares, not absolute seconds. Worker threads
 * (a sweep's piscina pool) get their own profile; their blocking waits show as piscina samples.
 *
 * Usage (after `npm run build`): node notebooks/kernel-cost.mjs notebooks/01-quickstart.ipynb [...]
 * Complements notebooks/compile-cost.cjs (compile alone, no kernel) and `npm run notebooks:run`
 * (wall time per cell).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..");
const notebooks = process.argv.slice(2).map((p) => resolve(p));
if (notebooks.length === 0) {
  console.error("usage: node notebooks/kernel-cost.mjs notebooks/NN-name.ipynb [...]");
  process.exit(2);
}
const scratch = mkdtempSync(join(tmpdir(), "milab-kernel-cost-"));
const profDir = join(scratch, "prof");
const kernelDir = join(scratch, "jupyter", "kernels", "tslab");
mkdirSync(kernelDir, { recursive: true });
// The kernel argv of writeTslabKernelSpec (src/notebooks/writeTslabKernelSpec.ts), with node and its profiler flag in front.
const tslab = realpathSync(join(root, "node_modules", ".bin", "tslab"));
writeFileSync(
  join(kernelDir, "kernel.json"),
  JSON.stringify({ argv: [process.execPath, "--cpu-prof", `--cpu-prof-dir=${profDir}`, tslab, "kernel", "--config-path", "{connection_file}"], display_name: "tslab (profiled)", language: "typescript" }),
);
// getrusage of the python executor itself and of its children (the kernel), printed on exit.
const rusage = `
import atexit, resource, runpy, sys
def _report():
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    print("RUSAGE %.2f %.2f" % (s.ru_utime + s.ru_stime, c.ru_utime + c.ru_stime), file=sys.stderr)
atexit.register(_report)
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
`;

/** Sampled CPU (ms) per profile node, and the parent of each node. */
function load(file) {
  const p = JSON.parse(readFileSync(file, "utf8"));
  const nodes = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + p.timeDeltas[i] / 1000));
  return { nodes, parent, self };
}
function bucket(url, name) {
  const m = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1] === "@tslab/typescript-for-tslab" ? "TypeScript (tslab's compiler)" : m[1];
  if (url.startsWith(`file://${root}/dist/`) || url.startsWith(`${root}/dist/`)) return "market-intel-lab (dist/)";
  if (url.startsWith("wasm://")) return "wasm";
  if (url.startsWith("node:")) return "node internals (module compile, fs, ...)";
  if (url === "") return name || "(native)";
  return "notebook cells and other";
}
const PHASES = [
  ["createConverter", "converter.js"],
  ["convert", "converter.js"],
  ["require", "helpers"],
];
const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;

for (const path of notebooks) {
  rmSync(profDir, { recursive: true, force: true });
  const r = spawnSync("/usr/bin/python3", ["-c", rusage, join(here, "execute.py"), "--out-dir", join(scratch, "out"), path], {
    env: { ...process.env, JUPYTER_PATH: join(scratch, "jupyter"), TZ: "UTC" },
    encoding: "utf8",
  });
  const report = JSON.parse(r.stdout.trim().split("\n").at(-1) || "{}");
  const [, self, children] = /RUSAGE (\S+) (\S+)/.exec(r.stderr) ?? [];
  console.log(`${path.replace(`${root}/`, "")}: ${report.ok ? "ok" : "FAILED"}, ${report.seconds} s wall; python ${self} s CPU, kernel ${children} s CPU`);
  const files = readdirSync(profDir, { withFileTypes: true }).filter((f) => f.name.endsWith(".cpuprofile"));
  for (const f of files) {
    const { nodes, parent, self: selfMs } = load(join(profDir, f.name));
    const byBucket = new Map();
    const phase = new Map(PHASES.map(([n]) => [n, 0]));
    let total = 0;
    for (const [id, ms] of selfMs) {
      const cf = nodes.get(id).callFrame;
      const b = bucket(cf.url ?? "", cf.functionName);
      if (b === "(idle)") continue;
      byBucket.set(b, (byBucket.get(b) ?? 0) + ms);
      total += ms;
      const seen = new Set();
      for (let j = id; j !== undefined; j = parent.get(j)) {
        const c = nodes.get(j).callFrame;
        for (const [name, file] of PHASES) if (!seen.has(name) && c.functionName === name && (c.url ?? "").includes(file)) seen.add(name);
      }
      for (const name of seen) phase.set(name, phase.get(name) + ms);
    }
    // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the kernel, others its worker threads
    const thread = f.name.split(".")[4] === "0" ? "kernel" : `worker thread ${f.name.split(".")[4]}`;
    console.log(`  ${thread}: sampled ${fmt(total)} CPU (profiled); by package:`);
    for (const [b, ms] of [...byBucket].sort((x, y) => y[1] - x[1]).slice(0, 10)) console.log(`    ${fmt(ms).padStart(8)}  ${b}`);
    if (thread === "kernel") console.log(`  tslab phases (inclusive): ${[...phase].map(([n, ms]) => `${n} ${fmt(ms)}`).join(", ")}`);
  }
}
rmSync(scratch, { recursive: true, force: true });
