/**
 * A child script in a fresh process under V8's optimisation trace, for the tests that read from V8's own
 * trace whether a loop was optimised or thrown away (loopJit, labelJit, fusedJit, sweepJit, strategyCallJit;
 * no timing anywhere). The script is bundled by {@link bundleChild} (plain node, no loader in the child: about
 * 0.5 s of CPU a child instead of ~2 s under tsx) and started as `node <flags> <bundle> ...args` with TZ=UTC.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { bundleChild } from "./bundleChild.js";

/** A traced child's exit status, its stdout (V8's trace and the script's own lines) and its stderr. */
export interface TracedRun {
  readonly status: number | null;
  readonly out: string;
  readonly err: string;
}

/** Run `entry` (a TypeScript child script: file URL or absolute path) once under `flags` [--trace-opt --trace-deopt]. */
export function traceChild(entry: URL | string, args: readonly string[] = [], flags: readonly string[] = ["--trace-opt", "--trace-deopt"]): Promise<TracedRun> {
  const script = bundleChild(entry instanceof URL ? fileURLToPath(entry) : entry);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...flags, script, ...args], { env: { ...process.env, TZ: "UTC" } });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, out, err }));
  });
}

/**
 * A trace's records, one per element: its lines, each cut again where another record starts inside it. V8's compile
 * threads print `[completed compiling ...]` / `[completed optimizing ...]` while the main thread prints a `[bailout ...`
 * line, so one line can hold two records (seen in CI: a bailout of the helper carryOnMissingPrice with the completed
 * compile of spanLoopOneCoin appended, which a whole-line match read as a bailout of the loop; the other order could hide
 * a bailout of a loop behind a compile record).
 */
export function traceLines(out: string): string[] {
  return out.split("\n").flatMap((l) => l.split(/(?=\[(?:bailout|completed |compiling |optimizing |marking dependent code))/));
}
