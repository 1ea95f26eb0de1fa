/**
 * Issue 30, item 5: the library used from the user's own folder. `npm pack`
 * gives a tarball; it installs into an empty project (whose package.json
 * carries the same `overrides` as ours: npm applies overrides only at the root
 * project, and danfojs-node cannot install without them); a `.mts` script runs
 * there with tsx (plain `node t.mts` fails on Node 20); `milab notebook-setup`
 * writes the tslab kernel spec there, and a notebook in that folder executes
 * headless and shows its values; a cell that does not compile shows its real
 * messages (`Cannot find module ...`, a type error) in the executed notebook, not
 * `Error: `, and notebooks/execute.py reports that cell (its source, its stderr,
 * each cell's time, the partial notebook: the compile-error case of its report).
 *
 * The install goes to the npm registry for metadata only (tarballs come from
 * the npm cache `npm ci` filled: --prefer-offline). Needs the build (npm test
 * builds first). No wall-clock assertion: the generous timeouts only bound a
 * hung process (an install on the loaded 2-core CI machine took ~2 min).
 */
import { execFile } from "node:child_process";
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statfsSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../..");
const hasJupyter = existsSync("/usr/bin/jupyter");
const MINUTE = 60_000;
const work = mkdtempSync(join(scratchDir(), "milab-pack-"));
const proj = join(work, "proj");

/**
 * Where the install goes: /dev/shm (tmpfs) when it is writable and has room for the ~0.5 GB the install writes
 * (~19,000 files), else the system temp dir. The files and the install are the same; on tmpfs they are never
 * written back to disk nor discarded block by block when the folder is removed (on this host's ext4 the removal
 * alone took ~4 s). A small /dev/shm (Docker's default is 64 MB) falls back to tmpdir().
 */
function scratchDir(): string {
  const shm = "/dev/shm";
  try {
    accessSync(shm, constants.W_OK);
    const fs = statfsSync(shm);
    if (fs.bavail * fs.bsize > 2 * 1024 ** 3) return shm;
  } catch {
    // no /dev/shm (macOS, Windows): the system temp dir
  }
  return tmpdir();
}

/** Run a command; on failure return its output instead of throwing, so assertions can show it. */
async function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; out: string; err: string }> {
  try {
    const r = await run(cmd, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, out: r.stdout, err: r.stderr };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof x.code === "number" ? x.code : 1, out: x.stdout ?? "", err: x.stderr ?? String(e) };
  }
}

const SCRIPT = `import { backtest } from "market-intel-lab";
const close = new Float64Array([100, 110, 99]);
const bt = backtest({ close, position: new Float64Array([1, 1, 1]), periodsPerYear: 365 });
console.log(JSON.stringify({ equity: Array.from(bt.equity) }));
`;

function notebook(cells: string[]): string {
  return JSON.stringify({
    cells: cells.map((source) => ({ cell_type: "code", execution_count: null, metadata: {}, outputs: [], source })),
    metadata: { kernelspec: { name: "tslab", display_name: "TypeScript", language: "typescript" } },
    nbformat: 4,
    nbformat_minor: 5,
  });
}

beforeAll(async () => {
  if (!existsSync(join(root, "dist", "index.js"))) throw new Error("packedTarball.test: dist/ is missing; run `npm run build` first");
  const pack = await sh("npm", ["pack", "--pack-destination", work, "--ignore-scripts", "--silent"], root);
  expect(pack.err + pack.out).toContain("market-intel-lab-");
  const tarball = join(work, readdirSync(work).find((f) => f.endsWith(".tgz"))!);
  const { overrides } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { overrides: unknown };
  await sh("mkdir", ["-p", proj], work);
  writeFileSync(join(proj, "package.json"), JSON.stringify({ name: "my-research", private: true, type: "module", overrides }, null, 2));
  const install = await sh("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", tarball], proj);
  if (install.code !== 0) throw new Error(`npm install of the packed tarball failed:\n${install.err}`);
}, 20 * MINUTE);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the packed tarball in an empty project", () => {
  it("installs the package with its runtime dependencies, not its dev dependencies", () => {
    const pkg = join(proj, "node_modules", "market-intel-lab");
    expect(existsSync(join(pkg, "dist", "index.js"))).toBe(true);
    expect(existsSync(join(pkg, "src"))).toBe(false);
    for (const dep of ["danfojs-node", "zod", "vega", "commander"]) expect(existsSync(join(proj, "node_modules", dep)), dep).toBe(true);
    for (const dev of ["tslab", "vitest", "tsx"]) expect(existsSync(join(proj, "node_modules", dev)), dev).toBe(false);
  });

  it("runs a .mts script with tsx; the equity is 10,000 x 1.1 x 0.9 by hand", async () => {
    writeFileSync(join(proj, "t.mts"), SCRIPT);
    const r = await sh(join(root, "node_modules", ".bin", "tsx"), ["t.mts"], proj);
    expect(r.err).toBe("");
    const { equity } = JSON.parse(r.out) as { equity: number[] };
    expect(equity[0]).toBe(10_000);
    expect(equity[1]).toBeCloseTo(11_000, 9);
    expect(equity[2]).toBeCloseTo(9_900, 9);
  }, 5 * MINUTE);

  it.runIf(process.versions.node.startsWith("20."))("plain `node t.mts` fails on Node 20, as the README says", async () => {
    writeFileSync(join(proj, "t.mts"), SCRIPT);
    const r = await sh(process.execPath, ["t.mts"], proj);
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/Unknown file extension "\.mts"|ERR_UNKNOWN_FILE_EXTENSION/);
  }, 5 * MINUTE);

  it("milab notebook-setup refuses a folder without tslab, naming the install command", async () => {
    const r = await sh(join(proj, "node_modules", ".bin", "milab"), ["notebook-setup"], proj);
    expect(r.code).toBe(2);
    expect(r.err).toContain("npm install --save-dev tslab");
  }, 5 * MINUTE);

  it.runIf(hasJupyter)("milab notebook-setup + a notebook in the folder: values shown, a bad import's real message shown", async () => {
    // the user's `npm install -D tslab`, without a second download: the checkout's tslab
    symlinkSync(join(root, "node_modules", ".bin", "tslab"), join(proj, "node_modules", ".bin", "tslab"));
    const setup = await sh(join(proj, "node_modules", ".bin", "milab"), ["notebook-setup"], proj);
    expect(setup.err).toBe("");
    const jupyterPath = join(proj, ".jupyter-kernel");
    expect(setup.out).toContain(`JUPYTER_PATH=${jupyterPath}`);
    const spec = JSON.parse(readFileSync(join(jupyterPath, "kernels", "tslab", "kernel.json"), "utf8")) as { argv: string[] };
    expect(spec.argv[0]).toBe(join(proj, "node_modules", ".bin", "tslab"));

    // One kernel for both: the good cell runs first and shows its values, then the cell that does not compile stops
    // the notebook with its real messages (nbclient stops at the first failing cell, so the good cell's outputs are
    // kept and the cell after it never runs). This is also notebooks/execute.py's report of a compile error (tslab's
    // error reply is empty, the diagnostics only in the cell's stderr), moved here from test/notebooks/notebooks.test.ts
    // ("the executor reports a failing cell", which keeps the runtime error) so that the suite starts one kernel fewer.
    const good = SCRIPT.replace("console.log(JSON.stringify", "console.log(\"EQ\" + JSON.stringify");
    const bad = 'import { nothing } from "no-such-module-xyz";\nconst x: number = "text";\nconsole.log(x, nothing);';
    writeFileSync(join(proj, "mine.ipynb"), notebook([good, bad, 'console.log("never");']));
    const env = { ...process.env, JUPYTER_PATH: jupyterPath, TZ: "UTC" };
    const r = await sh("/usr/bin/python3", [join(root, "notebooks", "execute.py"), "--out-dir", join(proj, "out"), "mine.ipynb"], proj, env);
    expect(r.code).toBe(1);
    const reports = r.out.trim().split("\n").map(
      (l) => JSON.parse(l) as { ok: boolean; error?: { cell: number; source: string; evalue: string; outputs: string }; cell_seconds: (number | null)[] },
    );
    expect(reports.map((x) => x.ok)).toEqual([false]);
    const report = reports[0]!;
    expect(report.error!.cell).toBe(1);
    expect(report.error!.source).toBe(bad);
    expect(report.error!.evalue).toContain("Cannot find module 'no-such-module-xyz'");
    expect(report.error!.evalue).toMatch(/not assignable to type 'number'/);
    // the cell's stderr, where tslab writes its diagnostics, is in the report too
    expect(report.error!.outputs).toMatch(/\[stderr\][^\n]*Cannot find module 'no-such-module-xyz'/);
    expect(report.error!.outputs).toMatch(/\[stderr\][^\n]*not assignable to type 'number'/);
    // each code cell's time: the two that ran have one, the one after the failure none
    expect(report.cell_seconds).toHaveLength(3);
    report.cell_seconds.forEach((s, i) => (i <= 1 ? expect(s).toBeGreaterThanOrEqual(0) : expect(s).toBeNull()));
    const written = readFileSync(join(proj, "out", "mine.ipynb"), "utf8");
    // the timing records behind cell_seconds are not written into the notebook (a re-run leaves no diff)
    expect(written).not.toContain("iopub.status");
    const executed = JSON.parse(written) as {
      cells: { execution_count?: number | null; outputs: { output_type: string; text?: string; evalue?: string }[] }[];
    };
    const text = executed.cells[0]!.outputs.map((o) => o.text ?? "").join("");
    const equity = (JSON.parse(text.slice(text.indexOf("EQ") + 2)) as { equity: number[] }).equity;
    expect(equity[2]).toBeCloseTo(9_900, 9);
    const error = executed.cells[1]!.outputs.find((o) => o.output_type === "error");
    expect(error?.evalue).toContain("Cannot find module 'no-such-module-xyz'");
    expect(error?.evalue).toMatch(/not assignable to type 'number'/);
    expect(executed.cells[2]!.execution_count ?? null).toBeNull();
  }, 15 * MINUTE);
});
