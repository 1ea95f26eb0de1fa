/**
 * backtestSection / summaryTiles: a tearsheet section straight from a backtest
 * result. Expected numbers are worked out by hand from the prices.
 */
import { describe, expect, it } from "vitest";
import { backtest } from "../../src/backtest/index.js";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { backtestSection, renderTearsheet, summaryTiles } from "../../src/report/index.js";
import { cagrLabel, cagrNote, MIN_CAGR_DAYS, shownCagr } from "../../src/report/summaryTiles.js";

const DAY = 86_400_000;
const time = [0, DAY, 2 * DAY, 3 * DAY];
const close = [100, 110, 99, 108.9];
// long over bars 1 and 2 only: equity 1000 -> 1100 -> 990 -> 990 (no costs)
const result = backtest({ time, close, position: [1, 1, 0, 0], initialCash: 1000 });

describe("backtestSection", () => {
  it("builds tiles, equity with buy and hold, positions and trades from the result", () => {
    const s = backtestSection(result, { title: "BTC", close });
    expect(Array.from(result.equity)).toEqual([1000, 1100, 990, 990]);
    const tile = (label: string) => s.metrics?.find((m) => m.label === label)?.value;
    expect(tile("Total return")).toBeCloseTo(990 / 1000 - 1, 12);
    expect(tile("CAGR")).toBeNaN(); // three days: not annualised
    expect(tile("Fees paid")).toBe(0);
    expect(tile("Closed trades")).toBe(1);
    const bh = s.equity?.series["buy & hold"] as Float64Array;
    // 1000 x close / 100
    expect(Array.from(bh)).toEqual([1000, 1100, 990, 1089]);
    expect(s.signal).toBeUndefined();
    expect(s.trades?.length).toBe(1);
    expect(Array.from(s.positions?.series["position"] as Float64Array)).toEqual([1, 1, 0, 0]);
  });
  it("shows the bars held, not the bars with a target: an always-long target stopped out on bar 2 is held at 2 of 4 closes", () => {
    // entry at the close of bar 0 (100), stop 5 % below (95); bar 2's low 94 reaches it, and the
    // position stays flat while the target stays 1 (stopLoss): held at the closes of bars 0 and 1.
    const stopped = backtest({ time, close, open: [100, 100, 108, 100], high: [100, 111, 108, 110], low: [100, 100, 94, 99], position: [1, 1, 1, 1], stopLoss: 0.05, initialCash: 1000 });
    expect(Array.from(stopped.exposure, (w) => w !== 0)).toEqual([true, true, false, false]);
    const tile = backtestSection(stopped, { title: "BTC" }).metrics?.find((m) => m.label === "Bars held")?.value;
    expect(tile).toBe(0.5); // targets are non-zero on 4 of 4 bars: 1
    expect(stopped.metrics.exposure).toBe(0.5); // the engine's mean gross weight held says the same at size 1
  });
  it("adds the signal chart when a score is given, with the thresholds", () => {
    const s = backtestSection(result, { title: "BTC", close, score: [0.2, 0.3, -0.1, 0], thresholds: { buy: 0.1, sell: -0.1 } });
    expect(s.signal?.thresholds).toEqual({ buy: 0.1, sell: -0.1 });
    expect(s.signal?.trades).toBe(result.trades);
  });
  it("renders into a page", async () => {
    const html = await renderTearsheet({ title: "t", sections: [backtestSection(result, { title: "BTC", close, score: [0, 0, 0, 0] })] });
    expect((html.match(/<svg/g) ?? []).length).toBe(4); // equity, drawdown, signal, positions
  });
  it("rejects a close or score of the wrong length with a typed error", () => {
    expect(() => backtestSection(result, { title: "x", close: [1, 2] })).toThrow(InvalidArgumentError);
    expect(() => backtestSection(result, { title: "x", score: [1] })).toThrow("backtestSection: score must have one value per bar of the result (4), got 1");
  });
});

describe("shownCagr and summaryTiles", () => {
  it("shows the annual return from exactly MIN_CAGR_DAYS days on, NaN below and for one point", () => {
    expect(MIN_CAGR_DAYS).toBe(28);
    expect(shownCagr({ annualReturn: 0.5 }, [0, 28 * DAY])).toBe(0.5);
    expect(shownCagr({ annualReturn: 0.5 }, [0, 28 * DAY - 1])).toBeNaN();
    expect(shownCagr({ annualReturn: 0.5 }, [0])).toBeNaN();
    expect(shownCagr({ annualReturn: 0.5 }, [])).toBeNaN();
  });
  it("lists the twelve headline tiles in order, the Sharpe ratio with its standard error", () => {
    const s = backtestSection(result, { title: "x" });
    expect(s.metrics?.map((m) => m.label)).toEqual([
      "Total return", "CAGR", "Sharpe", "Sharpe SE", "Sortino", "Max drawdown", "Volatility", "Closed trades", "Win rate", "Bars held", "Fees paid", "Funding paid (− = received)",
    ]);
    const tiles = summaryTiles({ periods: 40, observations: 40, periodsPerYear: 365, totalReturn: 0.1, annualReturn: 2, sharpeRatio: 1, sortinoRatio: 1, maxDrawdown: -0.1, annualVolatility: 0.2, trades: 3, winRate: 0.5, exposure: 0.4, skewness: 0, kurtosis: 0 } as Parameters<typeof summaryTiles>[0], { time: [0, 30 * DAY], fees: 7, funding: -2 });
    // Sharpe SE on 40 daily returns with Sharpe 1, normal moments (skewness 0, excess kurtosis 0): sqrt((365 + 1/2) / (40 − 1)) = sqrt(9.37179...) = 3.0613387...
    // (python3: math.sqrt(365.5 / 39) = 3.0613387384925033)
    expect(tiles.map((t) => (t.label === "Sharpe SE" ? "se" : t.value))).toEqual([0.1, 2, 1, "se", 1, -0.1, 0.2, 3, 0.5, 0.4, 7, -2]);
    expect(tiles[3]!.value).toBeCloseTo(3.0613387384925033, 13);
    // 30 days compounded to a year: the label says so; a year or more, or under 28 days (no CAGR), it does not
    expect(tiles[1]!.label).toBe("CAGR (annualised from 30 days)");
    expect(cagrNote([0, 30 * DAY])).toBe("CAGR annualises 30 days of returns (compounded to 365 days): an extrapolation, not a forecast.");
    for (const days of [0, 3, 27.9, 365, 800]) {
      expect(cagrLabel([0, days * DAY])).toBe("CAGR");
      expect(cagrNote([0, days * DAY])).toBeUndefined();
    }
    expect(cagrLabel([])).toBe("CAGR");
    expect(cagrLabel([5])).toBe("CAGR");
  });
});
