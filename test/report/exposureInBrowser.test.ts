/**
 * The tearsheet's exposure, read in the page Chromium renders (playwright-core
 * driving Debian's /usr/bin/chromium): an always-long target with a 5 % stop on
 * real ETH daily bars is stopped out on bar 89 and stays flat, so it is held at
 * 89 of 350 closes. The "Bars held" tile says 25.4 % (not the 100 % of non-zero
 * targets), the same number stats() and the engine's metrics.exposure give, and
 * the exposure chart draws the weight held (titled so), not the target.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { backtest } from "../../src/backtest/backtest.js";
import { loadRealCandles } from "../../src/load/loadRealCandles.js";
import { stats, tearsheet } from "../../src/report/index.js";
import { newPage } from "../support/sharedBrowser.js";
import { scaledMs } from "../support/timeScale.js";

const dir = mkdtempSync(join(tmpdir(), "milab-exposure-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the tearsheet's exposure (in Chromium)", () => {
  it("shows the bars held, 25.4 %, on the tile, and draws the weight held", async () => {
    const p = loadRealCandles("coinbase-eth-1d");
    const c = p.columns as Record<string, Float64Array>;
    const n = p.time.length;
    const bt = backtest({ time: p.time, close: c["close"]!, open: c["open"]!, high: c["high"]!, low: c["low"]!, position: new Float64Array(n).fill(1), stopLoss: 0.05 });
    const file = join(dir, "stop.html");
    await tearsheet(bt, { title: "ETH always long, 5% stop", file });
    const page = await newPage({ viewport: { width: 1100, height: 900 } }); // in the worker's one Chromium (test/support/sharedBrowser.ts)
    try {
      page.setDefaultTimeout(scaledMs(30_000)); // Playwright's 30 s for goto, waits and actions, scaled to the load
      await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
      const tiles = await page.evaluate(() => [...document.querySelectorAll(".tile")].map((t) => [t.querySelector(".label")?.textContent ?? "", t.querySelector(".value")?.textContent ?? ""]));
      const titles = await page.evaluate(() => [...document.querySelectorAll("figure svg .role-title-text")].map((t) => t.textContent ?? ""));
      expect(tiles.find(([label]) => label === "Bars held")?.[1]).toBe("25.4%");
      expect(tiles.map(([label]) => label)).not.toContain("Exposure");
      expect(titles).toContain("Exposure over time (|weight held at each close|, fraction of equity)");
      expect(titles.some((t) => t.startsWith("Target exposure"))).toBe(false);
    } finally {
      await page.close();
    }
    // one number: the tile, stats() and the engine agree
    expect(stats(bt).rows.find((r) => r.label === "Bars held [%]")?.text).toBe("25.4%");
    expect(bt.metrics.exposure).toBeCloseTo(89 / 350, 12);
  }, scaledMs(240_000));
});
