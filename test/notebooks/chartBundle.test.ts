/**
 * A chart cell in a notebook executed by the real tslab kernel holds the chart as one
 * display_data bundle: JupyterLab's vega-lite MIME type (drawn interactively, offline), the SVG
 * fallback (nbconvert, GitHub) and a text line (issue 30, Done when #2). The bundle is read from
 * the executed .ipynb, as a reader's front end would; and notebook 03 is committed with one.
 * Needs the build (`npm run build`) and Debian's jupyter; skipped, loudly, when /usr/bin/jupyter is missing.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { writeTslabKernelSpec } from "../../src/notebooks/writeTslabKernelSpec.js";
import { scaledMs } from "../support/timeScale.js";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../..");
const hasJupyter = existsSync("/usr/bin/jupyter");
const VEGA_LITE = "application/vnd.vegalite.v5+json";

interface Output {
  output_type: string;
  data?: Record<string, unknown>;
  name?: string;
  text?: string | string[];
}
interface Notebook {
  cells: { cell_type: string; outputs?: Output[]; execution_count?: number | null }[];
}

const displays = (nb: Notebook): Output[] => nb.cells.flatMap((c) => c.outputs ?? []).filter((o) => o.output_type === "display_data");
const joined = (s: unknown): string => (Array.isArray(s) ? s.join("") : String(s));

if (!hasJupyter) console.warn("\n!!! chart bundle notebook NOT executed: /usr/bin/jupyter is missing (.ci/run installs it). !!!\n");

/**
 * One kernel for two checks (each reads its own cells of the one executed notebook): three chart cells, then a cell
 * that prints, a cell that throws at run time and a cell after it. The charts are read from the partial notebook
 * execute.py writes on a failure (the cells before the failing one, with their outputs, exactly as a complete run
 * writes them); the failure report is that of test/notebooks/notebooks.test.ts's former broken notebook (a compile
 * error's report runs in test/packaging/packedTarball.test.ts). One tslab kernel fewer than two notebooks (~5 s CPU).
 */
const CELLS = [
  'import { barChart, equityChart, show } from "market-intel-lab";',
  'show(await barChart({ category: ["BTC", "ETH"], value: [0.5, 11.42] }, { title: "IC drop" }));',
  'show(await equityChart({ time: [0, 86_400_000, 172_800_000], series: { strategy: [100, 103, 101] } }));',
  'console.log("fine");',
  'console.log("before");\nthrow new Error("boom in cell 5");',
  'console.log("never");',
] as const;
/** The cell that throws, and what its report must show. */
const FAILING = 4;
const FAILURE = /boom in cell 5/;
const dir = join(root, "test", ".tmp", "notebooks-chart");

interface Executed {
  code: number;
  stdout: string;
  nb: Notebook;
}
let executed: Promise<Executed> | undefined;
/** Execute the notebook once (its own tslab kernel); both tests below read the result. */
function execute(): Promise<Executed> {
  executed ??= (async () => {
    expect(existsSync(join(root, "dist", "index.js")), "dist/index.js missing: run `npm run build` first").toBe(true);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "chart.ipynb");
    writeFileSync(
      file,
      JSON.stringify({
        cells: CELLS.map((source, i) => ({ cell_type: "code", id: `c${i}`, metadata: {}, execution_count: null, outputs: [], source })),
        metadata: { kernelspec: { name: "tslab", display_name: "TypeScript", language: "typescript" } },
        nbformat: 4,
        nbformat_minor: 5,
      }),
    );
    const result = await run(
      "/usr/bin/python3",
      [join(root, "notebooks", "execute.py"), "--out-dir", join(dir, "out"), "--timeout", String(Math.ceil(scaledMs(120_000) / 1000)), file],
      { env: { ...process.env, JUPYTER_PATH: writeTslabKernelSpec(root), TZ: "UTC" }, maxBuffer: 16 * 1024 * 1024 },
    ).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (err: { code?: number; stdout?: string }) => ({ code: typeof err.code === "number" ? err.code : -1, stdout: String(err.stdout ?? "") }),
    );
    return { ...result, nb: JSON.parse(readFileSync(join(dir, "out", "chart.ipynb"), "utf8")) as Notebook };
  })();
  return executed;
}

describe.skipIf(!hasJupyter)("a chart cell executed by tslab", () => {
  it(
    "holds one display_data with the vega-lite spec, the SVG fallback and a text line",
    async () => {
      const { stdout, nb } = await execute();
      // every cell before the throwing one ran without error (the report names the throwing cell as the first failure)
      const report = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as { error?: { cell: number }; cell_seconds?: (number | null)[] };
      expect(report.error?.cell).toBe(FAILING);
      for (let i = 0; i < FAILING; i++) expect(nb.cells[i]!.outputs!.filter((o) => o.output_type === "error")).toEqual([]);
      const [bar, equity] = [displays({ cells: [nb.cells[1]!] }), displays({ cells: [nb.cells[2]!] })];
      expect(bar).toHaveLength(1);
      expect(equity).toHaveLength(1);
      const data = bar[0]!.data!;
      expect(Object.keys(data).sort()).toEqual([VEGA_LITE, "image/svg+xml", "text/plain"].sort());
      const spec = data[VEGA_LITE] as { $schema: string; data: { values: { c: string; v: number }[] }; params?: unknown };
      expect(spec.$schema).toBe("https://vega.github.io/schema/vega-lite/v5.json");
      expect(spec.data.values.map((r) => [r.c, r.v])).toEqual([["BTC", 0.5], ["ETH", 11.42]]);
      expect(spec.params).toBeUndefined(); // bars along x: no zoom
      expect(joined(data["image/svg+xml"])).toMatch(/^<svg[\s\S]*11\.42[\s\S]*<\/svg>$/);
      expect(joined(data["text/plain"])).toMatch(/^\[chart "IC drop", \d+ kB SVG/);
      const line = equity[0]!.data![VEGA_LITE] as { params?: { name: string }[] };
      expect(line.params?.map((p) => p.name)).toEqual(["zoom"]);
      // nothing on stderr (a red box for the reader) in the cells that ran without error
      expect(nb.cells.slice(0, FAILING).flatMap((c) => c.outputs ?? []).filter((o) => o.name === "stderr")).toEqual([]);
    },
    scaledMs(180_000),
  );

  it(
    "the executor reports a runtime error: names the cell, shows its source and its stderr, writes the partial notebook",
    async () => {
      const { code, stdout, nb: partial } = await execute();
      expect(code).toBe(1);
      const report = JSON.parse(stdout.trim()) as { ok: boolean; error: { cell: number; source: string; outputs: string }; cell_seconds: (number | null)[] };
      expect(report.ok).toBe(false);
      // each code cell's time: the cells that ran have one, the cells after the failure none
      expect(report.cell_seconds).toHaveLength(CELLS.length);
      report.cell_seconds.forEach((s, i) => (i <= FAILING ? expect(s).toBeGreaterThanOrEqual(0) : expect(s).toBeNull()));
      expect(report.error.cell).toBe(FAILING);
      expect(report.error.source).toBe(CELLS[FAILING]);
      expect(report.error.outputs).toMatch(FAILURE);
      expect(joined(partial.cells[FAILING - 1]?.outputs?.[0]?.text)).toBe("fine\n");
      expect(partial.cells[FAILING + 1]?.execution_count ?? null).toBeNull();
      // the timing records behind cell_seconds are not written into the notebook (a re-run leaves no diff)
      expect(JSON.stringify(partial)).not.toContain("iopub.status");
    },
    scaledMs(180_000),
  );
});

describe("notebook 03 (as committed)", () => {
  it("holds its charts as bundles: the SVG fallback and text always, the vega-lite spec when small enough to keep", () => {
    const nb = JSON.parse(readFileSync(join(root, "notebooks", "03-composite-replay.ipynb"), "utf8")) as Notebook;
    const charts = displays(nb).filter((o) => o.data?.["image/svg+xml"] !== undefined);
    expect(charts.length).toBeGreaterThanOrEqual(2);
    for (const o of charts) expect(o.data!["text/plain"]).toBeDefined();
    // the signal chart (1,440 one-minute rows) is over the 32 kB kept interactive and says so; the weights bar chart is interactive
    const static_ = charts.filter((o) => o.data![VEGA_LITE] === undefined);
    for (const o of static_) expect(joined(o.data!["text/plain"])).toMatch(/static: its \d+ kB of data is over/);
    const interactive = charts.filter((o) => o.data![VEGA_LITE] !== undefined);
    expect(interactive.length).toBeGreaterThanOrEqual(1);
    for (const o of interactive) {
      expect(Object.keys(o.data!).sort()).toEqual([VEGA_LITE, "image/svg+xml", "text/plain"].sort());
      // a drawable spec with its rows inline (top level or in a layer/concat): works offline
      expect(JSON.stringify(o.data![VEGA_LITE])).toMatch(/"values":\[\{/);
      expect((o.data![VEGA_LITE] as { $schema?: string }).$schema).toMatch(/vega-lite\/v5\.json$/);
    }
  });
});
