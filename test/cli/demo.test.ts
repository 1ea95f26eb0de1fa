/**
 * The main job: `milab demo` (what `npm start` runs) prints the scorecard and
 * writes a self-contained report, which then renders in headless Chromium
 * with no console error, every chart sized and every section present.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openInBrowser } from "../report/helpers/openInBrowser.js";
import { runMilab, type MilabRun } from "./helpers/runMilab.js";
import { scaledMs } from "../support/timeScale.js";

const dir = mkdtempSync(join(tmpdir(), "milab-demo-"));
const report = join(dir, "report.html");
let run: MilabRun;

beforeAll(async () => {
  run = await runMilab(["demo", "--out", dir]);
}, scaledMs(120_000));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("milab demo", () => {
  it("exits 0 and prints the scorecard: every coin and the portfolio with the headline columns", () => {
    expect(run.code, run.stderr).toBe(0);
    const out = run.stdout;
    expect(out).toContain("Scorecard");
    for (const col of ["total return", "buy & hold", "CAGR", "Sharpe", "Sortino", "max DD", "trades", "win rate", "fees paid", "funding paid"]) expect(out).toContain(col);
    for (const row of ["BTC", "ETH", "SOL", "HYPE", "Portfolio (4 coins)"]) expect(out).toMatch(new RegExp(`^${row.replace(/[()]/g, "\\$&")}\\s+-?\\d`, "m"));
    expect(out).toContain("embedded replay server (simulator seed 42)");
    expect(out).toContain("Period: 2026-10-02 01:00 to 2026-11-01 00:00 UTC, 720 bars of 1h");
    expect(out).toContain("What if: your rule vs the best of 3006 variants (weight grid 0.1 x thresholds), in sample and out of sample");
    for (const coin of ["BTC", "ETH", "SOL", "HYPE"]) expect(out).toMatch(new RegExp(`^${coin}\\s+best of 3006 in sample\\s`, "m"));
    expect(out).toMatch(/^Key facts\n- The portfolio returned -?\d+\.\d% net of costs and funding/m);
    expect(out).toContain("Real data (Coinbase BTC 4h + Hyperliquid funding");
    expect(out).toContain(`Report: ${report}`);
    expect(run.stderr).toBe(""); // no progress bar when stderr is not a terminal
  });

  it("writes one self-contained HTML file: the live charts' specs and bundled viewer inline, no external resource", () => {
    const html = readFileSync(report, "utf8");
    expect(statSync(report).size).toBeGreaterThan(100_000);
    expect(html.match(/<script/gi)).toEqual(["<script", "<script"]); // the specs (JSON) and the viewer, nothing loaded
    expect(html).not.toMatch(/<script[^>]* src=/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
    // the run manifest: package and version, and a SHA-256 of the inputs (64 hex digits)
    const manifest = html.slice(html.indexOf('id="run-manifest"'));
    expect(manifest).toMatch(/market-intel-lab \d+\.\d+\.\d+/);
    expect(manifest).toMatch(/inputs \(SHA-256\)<\/th><td><code>[0-9a-f]{64}</);
  });

  it("renders in headless Chromium: no console or page error, sized charts, every section", async () => {
    const check = await openInBrowser(report, join(dir, "report.png"));
    expect(check.consoleErrors).toEqual([]);
    expect(check.pageErrors).toEqual([]);
    expect(check.externalRequests).toEqual([]);
    expect(check.sectionIds).toEqual(["highlights", "summary", "portfolio", "signal-evaluation", "btc", "eth", "sol", "hype", "what-if", "is-it-real", "real-data", "real-data-performance", "real-data-signal", "run-manifest"]);
    // portfolio 4 (equity, drawdown, positions, regime), signal evaluation 2, 4 per coin, what-if 1,
    // is it real 4 (heatmap, threshold, walk-forward folds, PBO logits), real data 4,
    // real-data performance 6 (monthly heatmap, underwater, rolling metrics, distribution, yearly, exposure),
    // real-data signal tearsheet 5 (IC per window, IC histogram, QQ, quantile means, cumulative by quantile)
    // every chart drawn live but is-it-real's four (pre-rendered SVG), whose static copies show
    expect(check.svgSizes.length).toBe(4 + 2 + 4 * 4 + 1 + 4 + 4 + 6 + 5);
    for (const s of check.svgSizes) {
      expect(s.width).toBeGreaterThan(100);
      expect(s.height).toBeGreaterThan(50);
    }
    expect(check.tableRows).toBeGreaterThan(100);
    expect(check.screenshotBytes).toBeGreaterThan(100_000);
  });
});
