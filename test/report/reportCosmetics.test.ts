/**
 * Report cosmetics a reader notices (issue 30, item 7), each with a text or a Chromium assertion:
 * trade tables in one decimal format per column, with an exit-reason column; the trade count
 * says how many are open (tiles, scorecard); the what-if `weights` column inside its card; the
 * VaR and CVaR labels apart; the manifest without `data {"BTC":{},…}`; sweep tables with
 * readable headings. Expected strings are written by hand.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { Trade } from "../../src/backtest/Trade.js";
import { whatIfColumns, WHAT_IF_FORMAT, type WhatIfRow } from "../../src/cli/study/runSweepWhatIf.js";
import { SCORECARD_FORMAT, SCORECARD_HEADINGS, scorecardColumns, type ScorecardRow } from "../../src/cli/study/scorecard.js";
import { performanceSummary } from "../../src/metrics/performanceSummary.js";
import { columnDecimals } from "../../src/report/columnDecimals.js";
import { displayForms, performanceSection, renderTearsheet, textTable, writeReport, type TearsheetSection } from "../../src/report/index.js";
import { tradeColumns, tradeFormats } from "../../src/report/renderTearsheet.js";
import { summaryTiles } from "../../src/report/summaryTiles.js";
import { withoutEmptyObjects } from "../../src/report/withoutEmptyObjects.js";
import { createManifest } from "../../src/store/createManifest.js";
import { chartDefects } from "./helpers/chartDefects.js";
import { newPage } from "../support/sharedBrowser.js";

const T0 = Date.UTC(2026, 9, 1);
const H = 3_600_000;
const trade = (over: Partial<Trade>): Trade => ({
  entryIndex: 0,
  exitIndex: 1,
  entryTime: T0,
  exitTime: T0 + H,
  side: "long",
  entryPrice: 61_234.5,
  exitPrice: 61_900,
  units: 0.1,
  return: 0.01,
  pnl: 541.1,
  barsHeld: 1,
  fees: 3,
  funding: 0,
  open: false,
  reason: "signal",
  ...over,
}) as Trade;
const trades: Trade[] = [
  trade({}),
  trade({ pnl: -1002.04, return: -0.02, exitPrice: 95.12, entryPrice: 97.5, reason: "stop", fees: 12.345 }),
  trade({ pnl: 10, reason: "take_profit" }),
  trade({ pnl: 1.5, open: true, reason: "end" }),
];

describe("trade tables: one decimal format per column and the exit reason", () => {
  it("cash with two decimals everywhere, thousands separated", () => {
    const text = textTable(tradeColumns(trades), { format: tradeFormats(trades) });
    const f = tradeFormats(trades);
    expect([541.1, -1002.04, 10, 1.5].map((v) => f["pnl"]!(v))).toEqual(["541.10", "-1,002.04", "10.00", "1.50"]);
    expect(f["fees"]!(12.345)).toBe("12.35");
    // prices: 95.12 to 61,900 need 2 decimals for 4 significant digits
    expect(f["entry price"]!(61_234.5)).toBe("61,234.50");
    expect(f["exit price"]!(95.12)).toBe("95.12");
    expect(text).toContain("541.10");
    expect(text).not.toMatch(/\b541\.1\b(?!0)/);
  });

  it("a column of small prices gets the decimals it needs, the same for every row", () => {
    const f = columnDecimals([0.1234, 2.5]);
    expect([f(0.1234), f(2.5)]).toEqual(["0.1234", "2.5000"]);
    expect(columnDecimals([], 2)(Number.NaN)).toBe("–");
    expect(columnDecimals([0, 0])(0)).toBe("0.00"); // no non-zero value: 2 decimals
  });

  it("an exit-reason column says why each trade closed, 'open' for one still open", () => {
    expect(tradeColumns(trades)["exit reason"]).toEqual(["signal", "stop-loss", "take-profit", "open"]);
    expect(tradeColumns([])["exit reason"]).toEqual([]);
  });
});

describe("the trade count says how many are open", () => {
  const returns = Float64Array.from({ length: 48 }, (_, i) => (i === 0 ? Number.NaN : 0.001 * Math.sin(i)));
  const time = Float64Array.from({ length: 48 }, (_, i) => T0 + i * H);
  const summary = performanceSummary(returns, { time, trades });
  it("tiles: closed trades, and the open ones beside them", () => {
    expect(summary.trades).toBe(3);
    const tiles = summaryTiles(summary, { time, fees: 0, funding: 0, openTrades: 1 });
    expect(tiles.find((t) => t.label.startsWith("Closed trades"))).toEqual({ label: "Closed trades (+1 open)", value: 3, format: "integer" });
    expect(summaryTiles(summary, { time, fees: 0, funding: 0 }).some((t) => t.label === "Closed trades")).toBe(true);
  });
  it("scorecard: a closed-trades column and an open-trades column", () => {
    const row: ScorecardRow = {
      strategy: "BTC",
      totalReturn: 0.1,
      buyHoldReturn: 0.05,
      cagr: Number.NaN,
      sharpe: 1.2,
      sharpeSE: 0.4,
      sortino: 1.5,
      maxDrawdown: 0.08,
      trades: 324,
      openTrades: 2,
      winRate: 0.5,
      feesPaid: 100,
      fundingPaid: -3,
    };
    const text = textTable(scorecardColumns([row]), { format: SCORECARD_FORMAT });
    expect(SCORECARD_HEADINGS.trades).toBe("closed trades");
    expect(SCORECARD_HEADINGS.openTrades).toBe("open trades");
    const [head, , line] = text.split("\n");
    const col = (name: string) => line!.slice(head!.indexOf(name), head!.indexOf(name) + name.length).trim();
    expect(col("closed trades")).toBe("324");
    expect(col("open trades")).toBe("2");
  });
});

describe("the manifest shows no empty data objects", () => {
  it("drops objects left empty once the columns were hashed, keeps every parameter", () => {
    expect(withoutEmptyObjects({ feeBps: 5, data: { BTC: {}, ETH: {} }, weights: { a: 0.5 }, list: [{}, 1] })).toEqual({ feeBps: 5, weights: { a: 0.5 }, list: [null, 1] });
    expect(withoutEmptyObjects({ data: {} })).toBeUndefined();
    const input = { data: { BTC: {} } };
    withoutEmptyObjects(input);
    expect(input).toEqual({ data: { BTC: {} } }); // not modified
  });
  it("the rendered manifest lists the data columns under the inputs, not as data {\"BTC\":{}}", async () => {
    const close = Float64Array.of(1, 2, 3);
    const manifest = createManifest({ kind: "report", options: { feeBps: 5, data: { BTC: { close, funding: close }, ETH: { close, funding: close } } } });
    expect(manifest.parameters).toEqual({ feeBps: 5, data: { BTC: {}, ETH: {} } }); // what the store records
    const html = await renderTearsheet({ title: "m", sections: [], manifest });
    const card = html.slice(html.indexOf('id="run-manifest"'));
    expect(card).not.toMatch(/&quot;BTC&quot;:\{\}|"BTC":\{\}/);
    expect(card).not.toMatch(/<th>\s*data<\/th>/);
    expect(card).toContain("data.BTC.close");
    expect(card).toMatch(/<th>\s+feeBps<\/th><td><code>5<\/code>/);
  });
});

describe("sweep tables: readable headings", () => {
  it("show(sweep) heads its metric columns Sharpe, total return, max drawdown, not camelCase", () => {
    const sweep = {
      components: ["imbalance"],
      length: 2,
      total: 2,
      complete: true,
      periodsPerYear: 8760,
      best: () => undefined,
      columns: {
        variant: Float64Array.of(0, 1),
        w_imbalance: Float64Array.of(0.5, 1),
        sharpeRatio: Float64Array.of(0.08664, 1.5),
        totalReturn: Float64Array.of(0.01, 0.2),
        maxDrawdown: Float64Array.of(0.05, 0.1),
        exposure: Float64Array.of(0.5, 0.25),
      },
    };
    const forms = displayForms(sweep);
    const head = forms.text.split("\n")[1]!;
    expect(head.trim().split(/\s{2,}/)).toEqual(["variant", "w_imbalance", "Sharpe", "total return", "max drawdown", "exposure"]);
    expect(forms.text).not.toMatch(/sharpeRatio|totalReturn|maxDrawdown/);
    expect(forms.text).toMatch(/1\.5\s+20\.00%\s+10\.00%\s+25\.0%/); // formats follow their columns
    expect(forms.html).toContain('<th class="num">Sharpe</th>');
    // a caller's format may still name a metric by its field name
    expect(displayForms(sweep, { format: { sharpeRatio: (x) => `S${x}` } }).text).toContain("S1.5");
  });
});

describe("in Chromium (the report as printed)", { timeout: 0 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "milab-cosmetics-"));
  // pages in the worker's one Chromium (test/support/sharedBrowser.ts)
  afterAll(() => rmSync(dir, { recursive: true, force: true }), 0);

  const weights = "imbalance=0.3,funding=0.25,basis_spread=0.2,momentum_5m=0.15,gas=0.1";
  const row = (coin: string, rule: string, w: string): WhatIfRow =>
    ({ coin, rule, weights: w, threshold: 0.3, inSampleSharpe: 1.2, inSampleReturn: 0.05, outOfSampleSharpe: -0.4, dsr: 0.2, effectiveTrials: 40, pbo: 0.6, trials: 1260 }) as unknown as WhatIfRow;
  const n = 24 * 60;
  const time = Float64Array.from({ length: n }, (_, i) => T0 + i * H);
  const returns = Float64Array.from({ length: n }, (_, i) => (i === 0 ? Number.NaN : 0.004 * Math.sin(i * 1.3) + 0.001 * Math.cos(i * 0.07)));
  const sections: TearsheetSection[] = [
    {
      title: "What if",
      tables: [{ title: "your rule vs the best", table: whatIfColumns([row("BTC", "your rule", weights), row("BTC", "best of 1260 in sample", "imbalance=0.1,funding=0.1,basis_spread=0.4,momentum_5m=0.3,gas=0.1")]), format: WHAT_IF_FORMAT }],
      trades,
    },
    performanceSection({ time, returns }, { title: "Performance" }),
  ];

  // one report (its charts rendered once), opened at each width
  let written: Promise<string> | undefined;
  it.each([1100, 900])("at %i px: no table runs past its card, the trade list has its exit reasons, no chart label overlaps", async (width) => {
    written ??= writeReport(join(dir, "r.html"), { title: "Cosmetics", sections });
    const file = await written;
    const page = await newPage({ viewport: { width, height: 1400 } });
    page.setDefaultTimeout(0);
    try {
      await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
      // at 1100 px no table needs its horizontal scroll; at 900 the trade list (13 columns) may, the what-if table may not
      const overflow = await page.$$eval(".table-wrap", (els) =>
        els.map((e) => ({ table: e.previousElementSibling?.textContent ?? "", over: e.scrollWidth - e.clientWidth })).filter((x) => x.over > 1),
      );
      expect(overflow.filter((o) => width >= 1100 || !o.table.startsWith("Trades"))).toEqual([]);
      // the weights cell is whole, inside the card
      const cell = await page.$$eval("td.wrap", (els) => els.map((e) => ({ text: e.textContent, right: e.getBoundingClientRect().right, card: e.closest(".card")!.getBoundingClientRect().right })));
      expect(cell.length).toBeGreaterThanOrEqual(2);
      for (const c of cell) expect(c.right).toBeLessThanOrEqual(c.card);
      expect(cell[0]!.text).toBe(weights);
      const headers = await page.$$eval("th", (els) => els.map((e) => e.textContent));
      expect(headers).toContain("exit reason");
      // every chart of the performance section: VaR and CVaR apart, drawdown numbers apart, marks drawn
      expect(await chartDefects(page, "static")).toEqual([]);
      const labels = await page.$$eval("svg text", (els) => els.map((e) => e.textContent ?? ""));
      expect(labels.some((l) => l.includes("CVaR 5%"))).toBe(true);
      expect(labels.some((l) => /(^|[^C])VaR 5%/.test(l))).toBe(true);
    } finally {
      await page.close();
    }
  });
});
