/**
 * Every notebook in notebooks/ executes headless with the tslab kernel and no
 * cell fails (issue 6, item 5); plus the static promises the notebooks make to
 * readers: committed with the outputs of their last run, prose cells, the
 * package import (never ../src), a fixed clock, a closed server, and sources
 * in sync with notebooks/src/*.md.
 *
 * Execution goes through notebooks/execute.py (nbclient, the engine of
 * `jupyter nbconvert --execute`) so a failure shows the failing cell's source
 * and its stderr (tslab reports compile errors only there).
 * Needs the build (npm test builds first) and Debian's jupyter
 * (`.ci/run` installs it); skipped, loudly, only when /usr/bin/jupyter is missing.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeTslabKernelSpec } from "../../src/notebooks/writeTslabKernelSpec.js";
// @ts-expect-error plain ESM helper without types
import { buildNotebook } from "../../notebooks/build.mjs";
import { scaledMs } from "../support/timeScale.js";

const root = resolve(import.meta.dirname, "../..");
const dir = join(root, "notebooks");
const names = readdirSync(dir).filter((f) => f.endsWith(".ipynb")).sort();
const hasJupyter = existsSync("/usr/bin/jupyter");

interface Cell {
  cell_type: "code" | "markdown" | "raw";
  source: string | string[];
  outputs?: { output_type: string; name?: string; text?: string | string[]; ename?: string; evalue?: string; data?: Record<string, unknown> }[];
  execution_count?: number | null;
}
interface Notebook {
  cells: Cell[];
  metadata: { kernelspec?: { name?: string } };
}

const text = (s: string | string[] | undefined): string => (Array.isArray(s) ? s.join("") : (s ?? ""));
const read = (name: string): Notebook => JSON.parse(readFileSync(join(dir, name), "utf8")) as Notebook;
const code = (nb: Notebook): Cell[] => nb.cells.filter((c) => c.cell_type === "code");

/**
 * At most two kernels at once (the CI machine has two cores; each tslab kernel
 * is mostly single-threaded and a few hundred MB): the executions below are
 * declared concurrent and queue here, so the file takes about half the time.
 */
const KERNELS = 2;
let running = 0;
const waiting: (() => void)[] = [];
async function withKernelSlot<T>(job: () => Promise<T>): Promise<T> {
  if (running >= KERNELS) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await job();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/**
 * The notebooks that took longest in the last CI runs (07 144 s, 05 80 s, 06 75 s, 08 75 s, 04 70 s at load
 * 3-5), in that order, then the rest by name: the kernel slots take them longest first, so the last one to start
 * is a short one and the file ends about when its two slots have done half the work each.
 */
const LONGEST = ["07-", "05-", "06-", "08-", "04-"];
function longestFirst(all: readonly string[]): string[] {
  const rank = (name: string) => {
    const i = LONGEST.findIndex((p) => name.startsWith(p));
    return i < 0 ? LONGEST.length : i;
  };
  return [...all].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * The executors of the notebooks below: at most KERNELS long-lived `execute.py --stdin` processes, each given one
 * notebook path at a time and answering with its report line, so the suite starts one python (nbclient, zmq: about
 * 0.5 s of CPU) per kernel slot instead of one per notebook. Every notebook still gets a fresh tslab kernel of its own.
 */
interface Executor {
  readonly child: ChildProcessWithoutNullStreams;
  /** Settles when the process has exited. */
  readonly closed: Promise<void>;
  /** Resolves the report line of the notebook this executor is running. */
  pending?: { resolve: (line: string) => void; reject: (err: Error) => void } | undefined;
}
const idle: Executor[] = [];
const executors: Executor[] = [];
function startExecutor(outDir: string): Executor {
  const child = spawn("/usr/bin/python3", [join(dir, "execute.py"), "--out-dir", outDir, "--timeout", String(Math.ceil(scaledMs(240_000) / 1000)), "--stdin"], {
    env: { ...process.env, JUPYTER_PATH: kernelPath(), TZ: "UTC" },
  });
  const ex: Executor = { child, closed: new Promise((resolve) => child.on("close", () => resolve())) };
  let buffered = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => {
    buffered += d.toString();
    for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const p = ex.pending;
      ex.pending = undefined;
      p?.resolve(line);
    }
  });
  child.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-8000)));
  child.on("close", (code) => {
    executors.splice(executors.indexOf(ex), 1);
    const i = idle.indexOf(ex);
    if (i >= 0) idle.splice(i, 1);
    ex.pending?.reject(new Error(`execute.py --stdin exited with ${code} before reporting; stderr:\n${stderr}`));
  });
  executors.push(ex);
  return ex;
}
/** Execute one notebook (its own kernel) in an idle executor, within a kernel slot; its report line. */
function executeNotebook(path: string, outDir: string): Promise<string> {
  return withKernelSlot(async () => {
    const ex = idle.pop() ?? startExecutor(outDir);
    try {
      return await new Promise<string>((resolve, reject) => {
        ex.pending = { resolve, reject };
        ex.child.stdin.write(`${path}\n`);
      });
    } finally {
      if (executors.includes(ex)) idle.push(ex);
    }
  });
}
afterAll(async () => {
  const all = [...executors];
  for (const ex of all) ex.child.stdin.end(); // EOF: each exits after its last notebook
  await Promise.all(all.map((ex) => ex.closed)); // and is waited for: no orphan, its CPU counted with this process's
});

/** The kernel spec, written once (sync) before any kernel starts: concurrent kernels never read a half-written file. */
let jupyterPathMemo: string | undefined;
const kernelPath = (): string => (jupyterPathMemo ??= writeTslabKernelSpec(root));

if (!hasJupyter) {
  console.warn(
    "\n!!! notebooks NOT executed: /usr/bin/jupyter is missing. Install Debian's jupyter-nbconvert python3-nbclient jupyter-client (.ci/run does). !!!\n",
  );
}

describe("notebooks", () => {
  it("there are notebooks, numbered in reading order", () => {
    expect(names.length).toBeGreaterThanOrEqual(1);
    for (const name of names) expect(name).toMatch(/^\d\d-[a-z0-9-]+\.ipynb$/);
  });

  describe.each(names)("%s (as committed)", (name) => {
    const nb = read(name);
    const sources = code(nb).map((c) => text(c.source));

    it("uses the tslab kernel", () => {
      expect(nb.metadata.kernelspec?.name).toBe("tslab");
    });

    it("explains itself: opens with a markdown title and has prose between code cells", () => {
      expect(nb.cells[0]?.cell_type).toBe("markdown");
      expect(text(nb.cells[0]?.source)).toMatch(/^# /);
      const prose = nb.cells.filter((c) => c.cell_type === "markdown").length;
      expect(prose).toBeGreaterThanOrEqual(Math.ceil(code(nb).length / 2));
    });

    it("imports the package (built dist/), never ../src, and never imports vega in a cell", () => {
      const all = sources.join("\n");
      expect(all).toMatch(/from "market-intel-lab"/);
      expect(all).not.toMatch(/from "\.\.?\//);
      expect(all).not.toMatch(/from "vega(-lite)?"/);
    });

    it("is reproducible: fixed seed and clock for the replay server, which the last cell closes", () => {
      const all = sources.join("\n");
      if (all.includes("startReplayServer(")) {
        expect(all).toMatch(/startReplayServer\(\{[^}]*seed:[^}]*clock:/);
        expect(sources.at(-1)).toMatch(/server\.close\(\)/);
      }
      expect(all).not.toMatch(/Date\.now\(\)/);
    });

    it("is committed with the outputs of a complete, error-free run", () => {
      const cells = code(nb);
      cells.forEach((c, i) => {
        expect(c.execution_count, `code cell ${i} has not been run`).toBe(i + 1);
        for (const o of c.outputs ?? []) {
          expect(o.output_type, `code cell ${i}: ${o.ename ?? ""} ${o.evalue ?? ""}`).not.toBe("error");
          // Readers see stderr as a red box: compile errors, runtime traces, library warnings. None belongs in a committed run.
          if (o.output_type === "stream") expect(o.name === "stderr" ? text(o.text) : "", `code cell ${i} wrote to stderr`).toBe("");
        }
      });
    });

    it("keeps its outputs small (no 10k-row tables)", () => {
      expect(readFileSync(join(dir, name)).length).toBeLessThan(1_500_000);
    });

    it("carries build.mjs's metadata (kernelspec, language_info), so rebuilding and re-running leave no diff", () => {
      const stem = name.replace(/\.ipynb$/, "");
      const built = buildNotebook(stem, readFileSync(join(dir, "src", `${stem}.md`), "utf8"), undefined) as Notebook;
      expect(nb.metadata).toEqual(built.metadata);
    });

    it("matches its source notebooks/src/*.md (run `npm run notebooks:build`)", () => {
      const stem = name.replace(/\.ipynb$/, "");
      const src = join(dir, "src", `${stem}.md`);
      expect(existsSync(src), `missing ${src}`).toBe(true);
      const built = buildNotebook(stem, readFileSync(src, "utf8"), undefined) as Notebook;
      expect(nb.cells.map((c) => [c.cell_type, text(c.source)])).toEqual(built.cells.map((c) => [c.cell_type, text(c.source)]));
    });
  });

  // The executor's report of a failing cell (a runtime error: the cell, its source and stderr, the partial notebook)
  // is checked in test/notebooks/chartBundle.test.ts, whose notebook ends with a cell that throws (one tslab kernel for
  // both checks); a compile error's report in test/packaging/packedTarball.test.ts.

  describe.skipIf(!hasJupyter)("executed headless", () => {
    it.concurrent.each(longestFirst(names))(
      "%s runs every cell without error",
      async (name) => {
        expect(existsSync(join(root, "dist", "index.js")), "dist/index.js missing: run `npm run build` first (npm test does)").toBe(true);
        const outDir = join(root, "test", ".tmp", "notebooks");
        mkdirSync(outDir, { recursive: true });
        const stdout = await executeNotebook(join(dir, name), outDir);
        const report = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as {
          ok: boolean;
          error?: { cell: number; source: string; ename: string; evalue: string; outputs: string };
          seconds?: number;
          cell_seconds?: (number | null)[];
        };
        // a diagnosis, not a check: a notebook that took long in its kernel says where (one took ~6 min once in CI)
        if ((report.seconds ?? 0) > 60) console.log(`${name}: ${report.seconds} s in its kernel, by cell ${JSON.stringify(report.cell_seconds)}`);
        const e = report.error;
        const message = e
          ? `${name}: cell ${e.cell} failed: ${e.ename} ${e.evalue}\n--- source ---\n${e.source}\n--- outputs ---\n${e.outputs}`
          : "";
        expect(report.ok, message).toBe(true);
        const executed = JSON.parse(readFileSync(join(outDir, name), "utf8")) as Notebook;
        expect(code(executed).every((c) => typeof c.execution_count === "number")).toBe(true);
        // A re-run leaves no diff when the outputs are unchanged: the kernel's own language_info
        // (tslab 1.0.22 says TypeScript "3.7.2") never replaces the notebook's metadata.
        expect(executed.metadata).toEqual(read(name).metadata);
      },
      // Queue time included: up to two notebooks ahead of this one.
      scaledMs(600_000),
    );
  });
});
