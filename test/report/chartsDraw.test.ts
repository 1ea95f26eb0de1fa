/**
 * Every chart draws (issue 30 item 1), read in Debian's Chromium (playwright-core): a report
 * holding each kind of chart that went wrong (the horizontal bar charts of the study report,
 * which the scale-bound zoom left blank with "11.42" cut to "1"; VaR and CVaR labels close
 * together; two position strips; numbered drawdown episodes), opened live (interactive) and
 * printed (static SVG), all charts together and each chart alone, must show marks in every
 * chart and no label cut or overlapping another (test/report/helpers/chartDefects.ts). The
 * detector itself is shown to fail on a page with a bar clipped to nothing, a cut label and
 * two labels on top of each other. Worker-free; the live view needs `npm run build` (viewer).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { barSpec } from "../../src/report/barChart.js";
import { histogramSpec } from "../../src/report/histogramChart.js";
import { interactiveSpec } from "../../src/report/interactiveSpec.js";
import { underwaterSpec } from "../../src/report/underwaterChart.js";
import { writeReport, type TearsheetSection } from "../../src/report/index.js";
import { chartDefects, type ChartDefect } from "./helpers/chartDefects.js";
import { newPage } from "../support/sharedBrowser.js";

const dir = mkdtempSync(join(tmpdir(), "milab-draw-"));
// No wall-clock limits (a loaded 2-core machine must not fail a correct run): vitest's timeout off
// for these tests and hooks (0), and playwright's waits likewise (setDefaultTimeout(0)). Pages are
// opened in the worker's one Chromium (test/support/sharedBrowser.ts).
afterAll(() => rmSync(dir, { recursive: true, force: true }), 0);

const n = 240;
const t0 = Date.UTC(2026, 9, 1);
const time = Float64Array.from({ length: n }, (_, i) => t0 + i * 3_600_000);
// a drawdown of 20% recovered, then one of 35% still open at the end
const equity = Float64Array.from({ length: n }, (_, i) => 10_000 * (i < 60 ? 1 - i / 300 : i < 100 ? 0.8 + (i - 60) / 200 : 1 - (i - 100) / 400));
const returns = Float64Array.from({ length: 400 }, (_, i) => 0.01 * Math.sin(i * 1.7) * Math.cos(i * 0.3));

const sections: TearsheetSection[] = [
  {
    title: "What if",
    regimeReturns: {
      category: ["BTC best", "BTC yours", "ETH best", "ETH yours"],
      value: [0.5, -1.2, 11.42, 2.1],
      title: "Out-of-sample Sharpe ratio: your rule vs the in-sample winner",
      options: { format: ".2f", valueTitle: "Sharpe (out of sample)", horizontal: true },
    },
  },
  {
    title: "Attribution",
    attribution: {
      category: ["imbalance", "funding", "imbalance", "funding"],
      value: [0.012, -0.02, 0.031, 0.004],
      group: ["BTC", "BTC", "ETH", "ETH"],
      title: "Component attribution: IC drop without the component",
      options: { format: ".3f", valueTitle: "IC drop", labels: false },
    },
  },
  { title: "Positions", positions: { time, series: { BTC: Float64Array.from(time, (_, i) => (i % 50 < 25 ? 0.5 : -0.5)), ETH: Float64Array.from(time, (_, i) => (i % 70 < 30 ? -0.5 : 0.5)) } } },
  {
    title: "Risk",
    specs: [
      { spec: histogramSpec(returns, { title: "Distribution of bar returns", markers: [{ label: "VaR 5%", value: -0.0085 }, { label: "CVaR 5%", value: -0.0095 }] }) },
      { spec: underwaterSpec({ time, equity, episodes: { peak: [time[100] as number, time[0] as number], recovery: [Number.NaN, time[99] as number], depth: [-0.35, -0.2] } }, { title: "Underwater" }) },
    ],
  },
];

async function defectsOf(file: string): Promise<ChartDefect[]> {
  const page = await newPage({ viewport: { width: 1100, height: 1400 } });
  page.setDefaultTimeout(0);
  try {
    await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
    await page.waitForFunction(() => [...document.querySelectorAll("figure[data-spec]")].every((f) => f.classList.contains("live")));
    const figures = await page.locator("figure:has(svg)").count();
    expect(figures).toBeGreaterThan(0);
    return [...(await chartDefects(page, "live")), ...(await chartDefects(page, "static"))];
  } finally {
    await page.close();
  }
}

describe("interactiveSpec: zoom only where the scale allows it", () => {
  it("gives a horizontal bar chart (x = the bar's length) tooltips but no zoom, and keeps the zoom of a time axis with bars", () => {
    const horizontal = interactiveSpec(barSpec({ category: ["a", "b"], value: [1, 11.42] }, { horizontal: true })) as unknown as { layer: Record<string, unknown>[]; config: { mark: { tooltip: boolean } } };
    expect(horizontal.layer.some((l) => l["params"] !== undefined)).toBe(false);
    expect(horizontal.config.mark.tooltip).toBe(true);
    const grouped = interactiveSpec(barSpec({ category: ["a", "a"], value: [1, 2], group: ["BTC", "ETH"] }, { horizontal: true })) as unknown as { layer: Record<string, unknown>[] };
    expect(grouped.layer.some((l) => l["params"] !== undefined)).toBe(false);
    const monthly = interactiveSpec({ mark: "bar", encoding: { x: { field: "t", type: "temporal" }, y: { field: "v", type: "quantitative" } } } as never) as unknown as Record<string, unknown>;
    expect(monthly["params"]).toEqual([{ name: "zoom", select: { type: "interval", encodings: ["x"] }, bind: "scales" }]);
  });
});

describe("every chart draws, live and printed, together and alone (Chromium)", { timeout: 0 }, () => {
  it("a report of every chart kind has marks in every chart and no cut or overlapping label", async () => {
    const file = await writeReport(join(dir, "all.html"), { title: "Charts", sections }, { interactive: true });
    expect(await defectsOf(file)).toEqual([]);
  });

  it("each chart alone has marks and no cut or overlapping label", async () => {
    for (const [k, section] of sections.entries()) {
      const file = await writeReport(join(dir, `alone-${k}.html`), { title: section.title, sections: [section] }, { interactive: true });
      expect({ section: section.title, defects: await defectsOf(file) }).toEqual({ section: section.title, defects: [] });
    }
  });

  it("the detector fails on a bar clipped to nothing, a cut label and two labels on top of each other", async () => {
    const file = join(dir, "broken.html");
    writeFileSync(
      file,
      `<!doctype html><html><body><figure><svg width="300" height="100" xmlns="http://www.w3.org/2000/svg">
        <defs><clipPath id="none"><rect x="0" y="0" width="0" height="100"/></clipPath><clipPath id="cut"><rect x="0" y="0" width="180" height="100"/></clipPath></defs>
        <g class="mark-text role-title"><text class="role-title-text" x="5" y="12">Broken</text></g>
        <g class="mark-rect role-mark" clip-path="url(#none)"><path d="M10,20h150v20h-150Z" fill="green"/></g>
        <g class="mark-text role-mark" clip-path="url(#cut)"><text x="170" y="35" font-size="12">11.42</text></g>
        <g class="mark-text role-axis-label"><text x="20" y="90" font-size="12">-0.5</text><text x="28" y="92" font-size="12">0.5</text></g>
      </svg></figure></body></html>`,
    );
    const page = await newPage({ viewport: { width: 800, height: 600 } });
    page.setDefaultTimeout(0);
    try {
      await page.goto(pathToFileURL(file).href);
      const found = (await chartDefects(page, "static")).map((d) => d.defect);
      expect(found.some((d) => d.startsWith("no marks drawn"))).toBe(true);
      expect(found.some((d) => d.startsWith('label "11.42" cut or covered at its end'))).toBe(true);
      expect(found).toContain('labels "-0.5" and "0.5" overlap');
    } finally {
      await page.close();
    }
  });
});
