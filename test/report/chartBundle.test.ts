/**
 * show(chart) in a tslab kernel sends ONE display_data bundle: the interactive vega-lite spec
 * (application/vnd.vegalite.v5+json), the SVG and a text line (issue 30, item 2). Here the kernel
 * is a stand-in package laid out as tslab 1.0 is (dist/public.js hands out `display`, dist/jupyter.js
 * holds `lastWriteDisplayData`); test/notebooks/chartBundle.test.ts runs the real kernel.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { barChart, displayForms, show } from "../../src/report/index.js";
import { barSpec } from "../../src/report/barChart.js";
import { VEGA_LITE_MAX_CHARS, VEGA_LITE_MIME } from "../../src/report/chartForms.js";
import { renderSvg } from "../../src/report/renderSvg.js";

const root = resolve(import.meta.dirname, "../..");

/** A fake tslab package on disk, loaded through Node's require (so it sits in require.cache as the real one does). */
function fakeKernel(): { sent: { data: Record<string, unknown>; metadata: object; transient: object; update: boolean }[]; html: string[] } {
  const dir = join(root, "test", ".tmp", `fake-tslab-${process.pid}`, "node_modules", "tslab", "dist");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "jupyter.js"), "exports.lastWriteDisplayData = null;\n");
  writeFileSync(
    join(dir, "public.js"),
    'const jupyter = require("./jupyter");\nexports.display = { html: (s) => jupyter.lastWriteDisplayData({ data: { "text/html": s }, metadata: {}, transient: {} }, false) };\n',
  );
  const req = createRequire(join(dir, "public.js"));
  const pub = req("./public.js") as unknown;
  const jupyter = req("./jupyter.js") as { lastWriteDisplayData: unknown };
  const sent: { data: Record<string, unknown>; metadata: object; transient: object; update: boolean }[] = [];
  const html: string[] = [];
  jupyter.lastWriteDisplayData = (msg: { data: Record<string, unknown>; metadata: object; transient: object }, update: boolean) => {
    sent.push({ ...msg, update });
    if (typeof msg.data["text/html"] === "string") html.push(msg.data["text/html"]);
  };
  (globalThis as { __tslab__?: unknown }).__tslab__ = { require: (id: string) => (id === "tslab" ? pub : undefined) };
  return { sent, html };
}

afterEach(() => {
  delete (globalThis as { __tslab__?: unknown }).__tslab__;
  vi.restoreAllMocks();
});

const input = { category: ["BTC", "ETH"], value: [0.5, -11.42] };

describe("show(chart) in a tslab kernel", () => {
  it("sends one display_data message with the vega-lite spec, the SVG and a text line", async () => {
    const svg = await barChart(input, { title: "IC drop" });
    const kernel = fakeKernel();
    show(svg);
    expect(kernel.sent).toHaveLength(1);
    const [msg] = kernel.sent;
    expect(msg!.update).toBe(false);
    expect(Object.keys(msg!.data).sort()).toEqual([VEGA_LITE_MIME, "image/svg+xml", "text/plain"].sort());
    expect(VEGA_LITE_MIME).toBe("application/vnd.vegalite.v5+json");
    expect(msg!.data["image/svg+xml"]).toBe(svg);
    expect(msg!.data["text/plain"]).toMatch(/^\[chart "IC drop", \d+ kB SVG/);
    const spec = msg!.data[VEGA_LITE_MIME] as { $schema: string; data: { values: unknown[] }; config: { mark: { tooltip: boolean } }; params?: unknown };
    // the spec the SVG was drawn from (same data), made interactive, stated as v5 for the v5 MIME type
    expect(spec.$schema).toBe("https://vega.github.io/schema/vega-lite/v5.json");
    expect(spec.data.values).toEqual((barSpec(input, { title: "IC drop" }) as { data: { values: unknown[] } }).data.values);
    expect(spec.config.mark.tooltip).toBe(true);
    // a horizontal bar chart gets no zoom (it would clip the bars: issue 30, item 1)
    expect(spec.params).toBeUndefined();
  });

  it("a time-series chart's bundle zooms on x; the spec is not modified", async () => {
    const spec = {
      data: { values: [{ t: 0, v: 1 }, { t: 86_400_000, v: 2 }] },
      mark: "line",
      encoding: { x: { field: "t", type: "temporal" }, y: { field: "v", type: "quantitative" } },
    } as const;
    const before = JSON.stringify(spec);
    const svg = await renderSvg(spec);
    const kernel = fakeKernel();
    show(svg);
    const sent = kernel.sent[0]!.data[VEGA_LITE_MIME] as { params: { name: string }[] };
    expect(sent.params.map((p) => p.name)).toEqual(["zoom"]);
    expect(JSON.stringify(spec)).toBe(before);
  });

  it("a chart whose spec is over VEGA_LITE_MAX_CHARS goes as SVG and text, which says why (notebooks stay small)", async () => {
    // 300 bars named by 120 characters each: over 32 kB of JSON; 20 bars with short names: under
    const name = (i: number, long: boolean) => (long ? `${"x".repeat(116)}${String(i).padStart(4, "0")}` : `c${i}`);
    const big = await barChart({ category: Array.from({ length: 300 }, (_, i) => name(i, true)), value: Array.from({ length: 300 }, (_, i) => i / 7) });
    const small = await barChart({ category: Array.from({ length: 20 }, (_, i) => name(i, false)), value: Array.from({ length: 20 }, (_, i) => i / 7) });
    const kernel = fakeKernel();
    show(big);
    show(small);
    expect(Object.keys(kernel.sent[0]!.data).sort()).toEqual(["image/svg+xml", "text/plain"]);
    expect(kernel.sent[0]!.data["text/plain"]).toMatch(/static: its \d+ kB of data is over the 32 kB kept interactive \(lower maxPoints\)/);
    expect(Object.keys(kernel.sent[1]!.data)).toContain(VEGA_LITE_MIME);
    expect(JSON.stringify(kernel.sent[1]!.data[VEGA_LITE_MIME]).length).toBeLessThanOrEqual(VEGA_LITE_MAX_CHARS);
  });

  it("an SVG not rendered here (no spec known) goes as SVG and text only", () => {
    const kernel = fakeKernel();
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>';
    show(svg);
    expect(Object.keys(kernel.sent[0]!.data).sort()).toEqual(["image/svg+xml", "text/plain"]);
  });

  it("tables still go through tslab's public display.html", () => {
    const kernel = fakeKernel();
    show({ a: [1, 2] });
    expect(kernel.sent).toHaveLength(1);
    expect(Object.keys(kernel.sent[0]!.data)).toEqual(["text/html"]);
  });

  it("without tslab's internals (another tslab layout) a chart falls back to display.html", async () => {
    const svg = await barChart(input);
    const html = vi.fn();
    (globalThis as { __tslab__?: unknown }).__tslab__ = { require: (id: string) => (id === "tslab" ? { display: { html } } : undefined) };
    show(svg);
    expect(html).toHaveBeenCalledWith(svg);
  });

  it("outside a kernel, prints the text line", async () => {
    const svg = await barChart(input, { title: "weights" });
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    show(svg);
    expect(log).toHaveBeenCalledWith(displayForms(svg).text);
    expect(displayForms(svg).text).toMatch(/^\[chart "weights"/);
  });
});
