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
  cells: { cell_type: string; outputs?: Output[] }[];
}

const displays = (nb: Notebook): Output[] => nb.cells.flatMap((c) => c.outputs ?? []).filter((o) => o.output_type === "display_data");
const joined = (s: unknown): string => (Array.isArray(s) ? s.join("") : String(s));

if (!hasJupyter) console.warn("\n!!! chart bundle notebook NOT executed: /usr/bin/jupyter is missing (.ci/run installs it). !!!\n");

describe.skipIf(!hasJupyter)("a chart cell executed by tslab", () => {
  it(
    "holds one display_data with the vega-lite spec, the SVG fallback and a text line",
    async () => {
      expect(existsSync(join(root, "dist", "index.js")), "dist/index.js missing: run `npm run build` first").toBe(true);
      const dir = join(root, "test", ".tmp", "notebooks-chart");
      mkdirSync(dir, { recursive: true });
      const file = join(dir, "chart.ipynb");
      const cells = [
        'import { barChart, equityChart, show } from "market-intel-lab";',
        'show(await barChart({ category: ["BTC", "ETH"], value: [0.5, 11.42] }, { title: "IC drop" }));',
        'show(await equityChart({ time: [0, 86_400_000, 172_800_000], series: { strategy: [100, 103, 101] } }));',
      ];
      writeFileSync(
        file,
        JSON.stringify({
          cells: cells.map((source, i) => ({ cell_type: "code", id: `c${i}`, metadata: {}, execution_count: null, outputs: [], source })),
          metadata: { kernelspec: { name: "tslab", display_name: "TypeScript", language: "typescript" } },
          nbformat: 4,
          nbformat_minor: 5,
        }),
      );
      const { stdout } = await run(
        "/usr/bin/python3",
        [join(root, "notebooks", "execute.py"), "--out-dir", join(dir, "out"), "--timeout", String(Math.ceil(scaledMs(120_000) / 1000)), file],
        { env: { ...process.env, JUPYTER_PATH: writeTslabKernelSpec(root), TZ: "UTC" }, maxBuffer: 16 * 1024 * 1024 },
      );
      expect(JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}")).toMatchObject({ ok: true });
      const nb = JSON.parse(readFileSync(join(dir, "out", "chart.ipynb"), "utf8")) as Notebook;
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
      // nothing on stderr (a red box for the reader)
      expect(nb.cells.flatMap((c) => c.outputs ?? []).filter((o) => o.name === "stderr")).toEqual([]);
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
