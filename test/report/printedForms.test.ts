/**
 * Results print a short form through util.inspect (console.log, a tslab cell's last
 * value): a backtest, a sweep, a walk-forward and a Panel, instead of every series.
 * Before this change, inspect(bt) of 1e5 bars listed its Float64Arrays (and the
 * lazy getters as [Getter]) and none of these texts existed: every case below failed.
 */
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { backtest, backtestPortfolio, createPanel, runWalkForward, selectBestVariant, simplexGrid, sweepComposite, sweepStrategy, walkForward } from "../../src/index.js";
import { panelText } from "../../src/data/panelText.js";
import { displayForms } from "../../src/report/show.js";
import { generateBars } from "../bench/backtestData.js";

const MIN = 60_000;

describe("a backtest's printed form", () => {
  // Always long one unit of equity, no fees: equity = 10,000 x close / close[0] (hand-computed).
  const n = 100_000;
  const time = Float64Array.from({ length: n }, (_, i) => Date.UTC(2026, 0, 1) + i * MIN);
  const close = Float64Array.from({ length: n }, (_, i) => 100 + i * 0.0001);
  const bt = backtest({ time, close, position: new Float64Array(n).fill(1), initialCash: 10_000 });

  it("is short and names bars, UTC range, equity, total return and trades", () => {
    const text = inspect(bt);
    expect(text.length).toBeLessThan(2000);
    // python3: (100 + 99999 * 0.0001) / 100 - 1 = 0.099999; 10000 * that + 10000 = 10999.99; 99,999 min after 2026-01-01 = 2026-03-11 10:39
    expect(text).toContain("BacktestResult: 100,000 bars 2026-01-01 00:00 → 2026-03-11 10:39 UTC");
    expect(text).toContain("equity 10,000 → 10,999.99, total return 10.00%, 1 trade");
    expect(text).toContain("stats(bt)");
    expect(bt.trades.length).toBe(1);
  });

  it("leaves the fields as they were: the hook is non-enumerable", () => {
    expect(Object.keys(bt)).not.toContain(inspect.custom);
    expect(Object.getOwnPropertyDescriptor(bt, inspect.custom)?.enumerable).toBe(false);
    expect({ ...bt }.equity).toBe(bt.equity);
    expect(bt.equity[n - 1]).toBeCloseTo(10_999.99, 6);
  });

  it("numbers the bars without times and says when the account was ruined", () => {
    const r = backtest({ close: [100, 50, 1, 2], position: [3, 3, 3, 3], initialCash: 1000, maxLeverage: 3 });
    const text = inspect(r);
    expect(text).toMatch(/^BacktestResult: 4 bars\n/);
    if (r.ruinIndex >= 0) expect(text).toContain(`ruined at bar ${r.ruinIndex}`);
  });

  it("prints an empty run", () => {
    expect(inspect(backtest({ time: [], close: [], position: [] }))).toMatch(/^BacktestResult: 0 bars\n/);
  });
});

describe("a portfolio's printed form", () => {
  it("names the coins and the run's numbers", () => {
    // test/backtest/portfolio.test.ts's case: E = 1000 -> 1119.7791 (hand-computed there), one round trip per coin
    const r = backtestPortfolio({
      time: [0, 1, 2, 3],
      coins: { BTC: { close: [100, 110, 121, 121], position: [1, 1, 0, 0] }, ETH: { close: [10, 9, 9.9, 9.9], position: [1, 1, 0, 0] } },
      weights: { BTC: 0.6, ETH: 0.4 },
      feeBps: 10,
      initialCash: 1000,
    });
    const text = inspect(r);
    expect(text).toMatch(/^PortfolioResult \(BTC, ETH\): 4 bars 1970-01-01 00:00 → 1970-01-01 00:00 UTC\n/);
    expect(text).toContain("equity 1,000 → 1,119.78, total return 11.98%, 2 trades");
    expect(r.trades).toHaveLength(2);
  });
});

describe("a sweep's printed form", async () => {
  const N = 600;
  const bars = generateBars(N, 3);
  const input = { time: Float64Array.from({ length: N }, (_, i) => i * 3_600_000), close: bars.close, imbalance: bars.imbalance, funding: bars.funding };
  const sweep = await sweepComposite(input, { weights: simplexGrid(["imbalance", "funding"], 0.25), thresholds: [0.05, 0.2], feeBps: 2, workers: 0 });

  it("names the variants, the parameter columns and the best 5 rows by Sharpe ratio", () => {
    const text = inspect(sweep);
    expect(text.length).toBeLessThan(2000);
    expect(text).toContain(`SweepResult: ${sweep.length} of ${sweep.total} variants`);
    expect(text).toContain("parameters: w_imbalance, w_funding, threshold");
    // the best rows, sorted here independently: Sharpe descending, NaN out
    const s = sweep.columns["sharpeRatio"] as Float64Array;
    const ranked = Array.from(s.keys()).filter((i) => !Number.isNaN(s[i] as number)).sort((a, b) => (s[b] as number) - (s[a] as number));
    const lines = text.split("\n").filter((l) => l.startsWith("    #"));
    expect(lines).toHaveLength(Math.min(5, sweep.length));
    lines.forEach((line, k) => expect(line.startsWith(`    #${(sweep.columns["variant"] as Float64Array)[ranked[k] as number]} `)).toBe(true));
    expect(sweep.best()?.index).toBe(ranked[0]);
  });
});

describe("a strategy sweep's printed form", async () => {
  const N = 400;
  const close = generateBars(N, 4).close;
  const time = Float64Array.from({ length: N }, (_, i) => i * 3_600_000);
  // long when the close is above its `lookback`-bar mean, else flat (or short with mode "short")
  const rule = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>): Float64Array => {
    const x = c["close"] as Float64Array;
    const k = p["lookback"] as number;
    const below = p["mode"] === "short" ? -1 : 0;
    const out = new Float64Array(x.length);
    let sum = 0;
    for (let i = 0; i < x.length; i++) {
      sum += x[i] as number;
      if (i >= k) sum -= x[i - k] as number;
      out[i] = i + 1 < k ? 0 : (x[i] as number) > sum / k ? 1 : below;
    }
    return out;
  };
  const sweep = await sweepStrategy(rule, { data: { time, close }, grid: { lookback: [5, 10, 20], mode: ["flat", "short"], feeBps: [null, 5] }, workers: 0 });

  it("show() names the grid's parameters (not an empty component list) and its string values as strings", () => {
    const lines = displayForms(sweep).text.split("\n");
    expect(lines[0]).toContain("parameters lookback, mode, feeBps;");
    expect(lines[0]).not.toMatch(/components\s*;/);
    const header = lines[1] as string;
    const modeAt = header.indexOf("mode");
    const modes = lines.slice(3).map((l) => l.slice(modeAt).trim().split(/\s+/)[0]);
    expect(modes.length).toBeGreaterThan(0);
    for (const m of modes) expect(["flat", "short"]).toContain(m);
  });

  it("lists its grid's parameters and the best rows with their values decoded", () => {
    const text = inspect(sweep);
    expect(text).toContain(`SweepResult: 12 of 12 variants`);
    expect(text).toContain("parameters: lookback, mode, feeBps;");
    const best = sweep.best();
    expect(best).toBeDefined();
    const first = text.split("\n").find((l) => l.startsWith("    #")) as string;
    const p = sweep.paramsOf(best?.index as number);
    expect(first).toContain(`lookback ${String(p["lookback"])}, mode ${String(p["mode"])}, feeBps ${p["feeBps"] === null ? "unset" : String(p["feeBps"])}:`);
  });
});

describe("a walk-forward's printed form", () => {
  const A = [0.02, 0.01, 0.03, 0.02, -0.01, -0.02, -0.01, -0.03, 0.01, 0.0, -0.01, 0.02];
  const B = [0.01, -0.01, 0.01, -0.01, 0.01, -0.01, 0.01, -0.01, 0.01, -0.01, 0.01, -0.01];
  const C = [-0.02, -0.01, -0.02, -0.03, 0.02, 0.01, 0.03, 0.01, 0.02, 0.03, -0.01, 0.01];
  const wf = runWalkForward(walkForward({ n: 12, train: 4, test: 4 }), selectBestVariant([A, B, C], { periodsPerYear: 1 }));

  it("summarises the folds: in-sample vs out-of-sample per fold and the stitched score", () => {
    const text = inspect(wf);
    expect(text).toMatch(/^WalkForwardResult: 2 folds over 12 bars/);
    // fold 0 picks A (best on bars 0..3), tested on A[4..8]: numpy mean/std(ddof=1) = -1.8278153875348278
    expect(text).toMatch(/fold 0: test bars 4–8, choice 0, in-sample [\d.]+ → out-of-sample -1\.828/);
    expect(text.split("\n")).toHaveLength(5);
  });
});

describe("a Panel's printed form", () => {
  it("shows rows, the UTC range and the columns", () => {
    const p = createPanel([Date.UTC(2026, 9, 1), Date.UTC(2026, 10, 1)], { close: [1, 2], volume: [3, 4] });
    expect(inspect(p)).toBe("Panel: 2 rows 2026-10-01 00:00 → 2026-11-01 00:00 UTC\n  columns (2): close, volume\n  show(panel) for the rows, toDataFrame(panel) for a DataFrame");
    expect(Object.keys(p)).toEqual(["time", "columns"]);
  });

  it("prints 0 rows, NaN times and many columns sensibly", () => {
    expect(inspect(createPanel([], {}))).toMatch(/^Panel: 0 rows\n {2}columns \(0\): none\n/);
    expect(panelText({ time: Float64Array.of(Number.NaN, 5000), columns: {} })).toMatch(/^Panel: 2 rows – → 1970-01-01 00:00:05 UTC\n/);
    const many: Record<string, number[]> = {};
    for (let k = 0; k < 20; k++) many[`c${k}`] = [k];
    expect(inspect(createPanel([0], many))).toContain("c11, … and 8 more");
  });
});
