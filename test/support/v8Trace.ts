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
 * a bailout of a loop behind a compile record), and a child's "phase <name>" line written inside a record is put after it.
 */
export function traceLines(out: string): string[] {
  // V8 writes a record in pieces (one write(2) each: "[marking ", the address, " ", the function, ...; seen with strace), while
  // a child script's own line ("phase <name>\n", console.log) is one write: so it can land inside a record (seen in CI:
  // "[completed optimizing 0x...phase sweep" then the record's rest on the next line, and loopJit missed "phase sweep").
  // Such a line is taken out of the record and put right after the record's line, which is mended.
  const mended = out.replace(/([^\n])(phase [^\n]*)\n([^\n]*)/g, "$1$3\n$2");
  return mended.split("\n").flatMap((l) => l.split(/(?=\[(?:bailout|completed |compiling |optimizing |marking dependent code))/));
}
