/**
 * renderTearsheet / writeReport: a self-contained page (no script, no external
 * resource), every part drawn when given, every text escaped; then the page
 * opened in headless Chromium: no console or page error, no request leaves the
 * file, every SVG has a size, the key sections exist.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Trade } from "../../src/backtest/Trade.js";
import { FileWriteError, InvalidArgumentError } from "../../src/errors/index.js";
import { renderTearsheet, writeReport, type TearsheetInput } from "../../src/report/index.js";
import { tradeColumns } from "../../src/report/renderTearsheet.js";
import { openInBrowser } from "./helpers/openInBrowser.js";

const dir = mkdtempSync(join(tmpdir(), "milab-report-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const n = 300;
const t0 = Date.UTC(2026, 9, 1);
const time = Float64Array.from({ length: n }, (_, i) => t0 + i * 3_600_000);
const price = Float64Array.from({ length: n }, (_, i) => 100 * Math.exp(0.05 * Math.sin(i / 25)));
const equity = Float64Array.from({ length: n }, (_, i) => 10_000 * (1 + 0.0004 * i + 0.02 * Math.sin(i / 9)));
const score = Float64Array.from({ length: n }, (_, i) => 0.35 * Math.sin(i / 12));
const trades: Trade[] = [
  { coin: "BTC", side: "long", entryIndex: 3, exitIndex: 20, entryTime: time[3] as number, exitTime: time[20] as number, entryPrice: 100, exitPrice: 104, units: 1, return: 0.04, pnl: 3.9, barsHeld: 17, fees: 0.1, funding: 0, open: false },
  { coin: "BTC", side: "short", entryIndex: 40, exitIndex: n - 1, entryTime: time[40] as number, exitTime: time[n - 1] as number, entryPrice: 103, exitPrice: 101, units: 2, return: 103 / 101 - 1, pnl: -1.25, barsHeld: n - 41, fees: 0.2, funding: 0.05, open: true },
];

const input: TearsheetInput = {
  title: "Composite <signal> & co",
  subtitle: "synthetic data",
  notes: ["fees 5 bps", "seed 42"],
  summary: { title: "Scorecard", table: { strategy: ["BTC", "Portfolio"], "total return": [0.12, -0.03] }, signed: ["total return"] },
  sections: [
    {
      title: "BTC",
      intro: "long above 0.1, short below -0.1",
      metrics: [
        { label: "Total return", value: 0.1234, format: "percent", signed: true },
        { label: "Sharpe", value: -0.5, signed: true },
        { label: "Trades", value: 2, format: "integer" },
        { label: "Calmar", value: Number.NaN },
      ],
      equity: { time, series: { strategy: equity, "buy & hold": price.map((p) => p * 100) } },
      signal: { time, price, score, trades, thresholds: { buy: 0.1, sell: -0.1 } },
      positions: { time, series: { BTC: score.map((s) => (s > 0.1 ? 1 : s < -0.1 ? -1 : 0)) } },
      regimeReturns: { category: ["low", "normal", "high"], value: [0.001, -0.002, 0.003] },
      icDecay: { horizon: [1, 2, 4, 8], ic: { BTC: [0.06, 0.05, 0.03, 0.01] } },
      attribution: { category: ["imbalance", "funding"], value: [0.01, -0.004] },
      tables: [{ title: "Regime table", table: { regime: ["low"], sharpe: [1.5] } }],
      trades,
    },
    { title: "Signal evaluation", icDecay: { horizon: [1, 4], ic: { ETH: [0.02, 0.01] } } },
  ],
};

/**
 * The page of `input` and the progress its render reported, rendered once (its 8 charts are most of this file's CPU)
 * and read by the tests that only read it; a second render, without onChart, must give the same bytes.
 */
let rendered: Promise<{ html: string; calls: [number, number][] }> | undefined;
function page(): Promise<{ html: string; calls: [number, number][] }> {
  rendered ??= (async () => {
    const calls: [number, number][] = [];
    const html = await renderTearsheet(input, { onChart: (done, total) => calls.push([done, total]) });
    return { html, calls };
  })();
  return rendered;
}

describe("renderTearsheet", () => {
  it("is one self-contained HTML page: inline CSS and SVG, no script, no external resource", async () => {
    const { html } = await page();
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain("<style>");
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<link/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
    expect((html.match(/<svg/g) ?? []).length).toBe(8); // equity, drawdown, signal, positions, regime, IC, attribution + IC of section 2
  });
  it("escapes every user text", async () => {
    const { html } = await page();
    expect(html).toContain("<h1>Composite &lt;signal&gt; &amp; co</h1>");
    expect(html).toContain("<title>Composite &lt;signal&gt; &amp; co</title>");
    expect(html).not.toContain("<signal>");
  });
  it("draws tiles with their formats: percent, signed colour, integer, NaN as a dash", async () => {
    const { html } = await page();
    expect(html).toContain('<div class="value pos">12.3%</div>');
    expect(html).toContain('<div class="value neg">-0.50</div>');
    expect(html).toContain('<div class="value">2</div>');
    expect(html).toContain('<div class="value">–</div>');
  });
  it("links every section from the table of contents with unique ids", async () => {
    const { html } = await page();
    expect(html).toContain('<a href="#btc">BTC</a>');
    expect(html).toContain('<a href="#signal-evaluation">Signal evaluation</a>');
    const twice = await renderTearsheet({ title: "t", sections: [{ title: "A b" }, { title: "A b" }] });
    expect(twice).toContain('id="a-b"');
    expect(twice).toContain('id="a-b-2"');
  });
  it("lists the trades, marking an open trade", async () => {
    const { html } = await page();
    expect(html).toContain("Trades (2, 1 still open at the end)");
    expect(html).toContain("<td>open</td>");
    expect(html).toContain('<td class="num pos" style="color:#2f9e44">4.00%</td>');
    const cols = tradeColumns(trades);
    expect(cols["side"]).toEqual(["long", "short"]);
    expect(cols["exit"]).toEqual(["2026-10-01 20:00", "open"]);
  });
  it("lists the key facts, escaped, above the summary; none when there are none", async () => {
    // the sections' charts are left out: where the key facts go does not depend on them
    const html = await renderTearsheet({ ...input, sections: [], highlights: ["Sharpe < 0 & costs > 0"] });
    expect(html).toContain('<section class="card highlights" id="highlights"><h2>Key facts</h2><ul><li>Sharpe &lt; 0 &amp; costs &gt; 0</li></ul></section>');
    expect(html.indexOf('id="highlights"')).toBeGreaterThan(0);
    expect(html.indexOf('id="highlights"')).toBeLessThan(html.indexOf('id="summary"'));
    expect(await renderTearsheet({ ...input, sections: [], highlights: [] })).not.toContain("Key facts");
    expect((await page()).html).not.toContain("Key facts"); // none given
  });
  it("renders a page with no section, and is byte-identical across runs", async () => {
    const empty = await renderTearsheet({ title: "Empty", sections: [] });
    expect(empty).toContain("<h1>Empty</h1>");
    expect(await renderTearsheet(input)).toBe((await page()).html); // a second render (and one without onChart)
  });
  it("reports progress once per chart, up to the total", async () => {
    const { calls } = await page();
    expect(calls).toEqual(Array.from({ length: 8 }, (_, i) => [i + 1, 8]));
  });
  it("passes chart argument errors through as typed errors", async () => {
    await expect(renderTearsheet({ title: "x", sections: [{ title: "s", equity: { time: [1, 2], series: { a: [1] } } }] })).rejects.toThrow(InvalidArgumentError);
  });
});

describe("writeReport: a file that cannot be written", () => {
  it("is a FileWriteError naming the path and what to do, and the old report is kept whole", async () => {
    const folder = join(dir, "unwritable", "report.html");
    mkdirSync(folder, { recursive: true });
    // the page without its charts: the error and the replacement (written aside, then renamed) do not depend on its size
    const small: TearsheetInput = { ...input, sections: [] };
    const err = await writeReport(folder, small).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileWriteError);
    expect((err as FileWriteError).errno).toBe("EISDIR");
    expect((err as Error).message).toBe(`writeReport: could not write ${folder} (EISDIR): it is a folder: give a file path`);
    expect(readdirSync(join(dir, "unwritable"))).toEqual(["report.html"]);
    // an existing report is replaced whole (written aside, then renamed): never left half-written
    const old = join(dir, "old.html");
    writeFileSync(old, "previous");
    await writeReport(old, small);
    expect(readFileSync(old, "utf8")).toBe(await renderTearsheet(small));
    expect(readdirSync(dir).filter((f) => f.startsWith(".tmp-"))).toEqual([]);
  });
});

describe("writeReport in headless Chromium", () => {
  it("writes the page, which renders with no error, no request out, and sized charts", async () => {
    const file = await writeReport(join(dir, "nested", "report.html"), input);
    expect(readFileSync(file, "utf8")).toContain("<h1>");
    const shot = join(dir, "report.png");
    const check = await openInBrowser(file, shot);
    expect(check.consoleErrors).toEqual([]);
    expect(check.pageErrors).toEqual([]);
    expect(check.externalRequests).toEqual([]);
    expect(check.svgSizes.length).toBe(8);
    for (const s of check.svgSizes) {
      expect(s.width).toBeGreaterThan(100);
      expect(s.height).toBeGreaterThan(50);
    }
    expect(check.headings).toEqual(["Composite <signal> & co", "Scorecard", "BTC", "Signal evaluation"]);
    expect(check.sectionIds).toEqual(["summary", "btc", "signal-evaluation"]);
    expect(check.tableRows).toBe(2 + 1 + 2);
    expect(statSync(shot).size).toBeGreaterThan(20_000);
  });
});
