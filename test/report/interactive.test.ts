/**
 * Interactive charts, offline (issue 23 item 3): interactiveSpec adds tooltips
 * and a scale-bound zoom; renderTearsheet({ interactive: true }) inlines the
 * specs and the bundled viewer (dist/vendor/vega-viewer.js: run `npm run
 * build` first); in headless Chromium with every non-file request refused the
 * charts draw live, hovering shows a tooltip, the wheel zooms, nothing is
 * fetched, and the print view shows the static SVGs.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { equitySpec } from "../../src/report/equityChart.js";
import { icDecaySpec } from "../../src/report/icDecayChart.js";
import { interactiveSpec } from "../../src/report/interactiveSpec.js";
import { renderTearsheet, writeReport, type TearsheetInput } from "../../src/report/index.js";
import { newPage } from "../support/sharedBrowser.js";
import { scaledMs } from "../support/timeScale.js";

const dir = mkdtempSync(join(tmpdir(), "milab-live-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const n = 200;
const t0 = Date.UTC(2026, 9, 1);
const time = Float64Array.from({ length: n }, (_, i) => t0 + i * 3_600_000);
const equity = Float64Array.from({ length: n }, (_, i) => 10_000 * (1 + 0.001 * i));
const input: TearsheetInput = {
  title: "Live",
  sections: [
    { title: "A", equity: { time, series: { strategy: equity } }, icDecay: { horizon: [1, 2, 4], ic: { BTC: [0.05, 0.03, 0.01] }, ciLow: { BTC: [0, -0.01, -0.03] }, ciHigh: { BTC: [0.1, 0.07, 0.05] } } },
    { title: "B", positions: { time, series: { BTC: equity.map((_, i) => (i % 40 < 20 ? 1 : -1)) } } },
  ],
};

describe("interactiveSpec", () => {
  it("gives a time chart tooltips and an x zoom bound to its scales, without touching the input", () => {
    const spec = equitySpec({ time, series: { s: equity } });
    const before = JSON.stringify(spec);
    const live = interactiveSpec(spec) as unknown as Record<string, unknown>;
    expect(JSON.stringify(spec)).toBe(before);
    expect(live["params"]).toEqual([{ name: "zoom", select: { type: "interval", encodings: ["x"] }, bind: "scales" }]);
    expect((live["config"] as Record<string, Record<string, unknown>>)["mark"]!["tooltip"]).toBe(true);
  });
  it("puts the zoom on the first layer with a continuous x (IC decay: the band, not the zero rule)", () => {
    const live = interactiveSpec(icDecaySpec(input.sections[0]!.icDecay!)) as unknown as { layer: Record<string, unknown>[] };
    expect(live.layer.map((l) => l["params"] !== undefined)).toEqual([false, true, false]);
  });
  it("leaves a chart with its own params or an ordinal x without zoom", () => {
    const withParams = interactiveSpec({ params: [{ name: "p", value: 1 }], mark: "point", encoding: { x: { field: "x", type: "quantitative" } } } as never) as unknown as Record<string, unknown>;
    expect(withParams["params"]).toEqual([{ name: "p", value: 1 }]);
    const ordinal = interactiveSpec({ mark: "bar", encoding: { x: { field: "x", type: "ordinal" } } } as never) as unknown as Record<string, unknown>;
    expect(ordinal["params"]).toBeUndefined();
  });
});

describe("renderTearsheet({ interactive: true })", () => {
  it("inlines the specs and the viewer, keeps one static SVG per chart, and is byte-identical across runs", async () => {
    const html = await renderTearsheet(input, { interactive: true });
    expect(html).toBe(await renderTearsheet(input, { interactive: true }));
    const page = html.slice(0, html.indexOf("<script"));
    expect((page.match(/<svg/g) ?? []).length).toBe(4); // equity, drawdown, IC decay, positions
    expect((html.match(/data-spec="/g) ?? []).length).toBe(4);
    expect(html).toContain('<script type="application/json" id="milab-specs">');
    expect(html.match(/<\/script/gi)?.length).toBe(2); // only the two elements' own ends
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
    expect(await renderTearsheet(input)).not.toMatch(/<script/i); // static by default
  });
});

describe("an interactive report in Chromium, offline", () => {
  it("draws every chart live, shows a tooltip on hover, zooms with the wheel, fetches nothing, prints the static SVGs", async () => {
    const file = await writeReport(join(dir, "live.html"), input, { interactive: true });
    const mb = statSync(file).size / 1e6;
    expect(mb).toBeLessThan(2); // ~1.2 MB of viewer + this small page
    const page = await newPage({ viewport: { width: 1100, height: 900 } }); // in the worker's one Chromium (test/support/sharedBrowser.ts)
    try {
      page.setDefaultTimeout(scaledMs(30_000)); // Playwright's 30 s for goto, waits and actions, scaled to the load
      const requests: string[] = [];
      const errors: string[] = [];
      await page.route("**/*", (route) => {
        const url = route.request().url();
        if (url.startsWith("file:")) return route.continue();
        requests.push(url);
        return route.abort();
      });
      page.on("pageerror", (e) => errors.push(String(e)));
      page.on("console", (m) => {
        if (m.type() === "error" || m.type() === "warning") errors.push(m.text());
      });
      await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
      await page.waitForFunction(() => document.querySelectorAll("figure.live .live-chart svg").length === 4, null, { timeout: scaledMs(20_000) });
      expect(await page.locator("figure.live > svg").first().isVisible()).toBe(false); // the static copy steps aside

      // hover a point of the IC decay: vega-tooltip shows its encoded fields
      const dot = page.locator("figure.live .live-chart .mark-symbol.role-mark path").nth(1);
      await dot.evaluate((el) => el.scrollIntoView({ block: "center" }));
      const at = (await dot.boundingBox())!;
      await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
      const tip = page.locator("#vg-tooltip-element");
      await tip.waitFor({ state: "visible", timeout: scaledMs(5_000) });
      expect(await tip.innerText()).toMatch(/horizon \(bars\)\s+2/); // the point at horizon 2 (or its band)

      const live = page.locator("figure.live .live-chart").first();
      await live.evaluate((el) => el.scrollIntoView({ block: "center" }));
      const box = (await live.locator(".mark-line path").first().boundingBox())!;

      // wheel over the plot: the x axis' labels change (zoomed)
      const labels = () => live.locator(".role-axis-label text").allTextContents();
      const before = await labels();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, -400);
      // the view redraws on its own time: poll for the change (a loaded machine may take longer than 300 ms)
      await expect.poll(labels, { timeout: scaledMs(5_000) }).not.toEqual(before);

      await page.emulateMedia({ media: "print" });
      expect(await page.locator("figure.live > svg").first().isVisible()).toBe(true);
      expect(await live.isVisible()).toBe(false);

      expect(requests).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, scaledMs(60_000));
});
