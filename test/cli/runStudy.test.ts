/**
 * The study behind the demo and `milab backtest`, on hand-made one-minute
 * data whose outcome is worked out independently: a composite that is always
 * a buy must give buy-and-hold minus the entry cost and the hourly funding.
 */
import { InvalidArgumentError as CommanderArgumentError } from "commander";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { DEFAULT_WEIGHTS } from "../../src/signals/index.js";
import type { StudyData } from "../../src/cli/study/loadStudyData.js";
import { DEFAULT_STUDY, runStudy } from "../../src/cli/study/runStudy.js";
import { scorecardRows } from "../../src/cli/study/scorecard.js";
import { studyHighlights } from "../../src/cli/study/studyHighlights.js";
import { parseCoins, parseWeights } from "../../src/cli/options.js";
import { parseSeeds } from "../../src/cli/commands/seeds.js";

const MIN = 60_000;
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 9, 1);

/** 10 hours of one-minute BTC data: price rising 0.01 per minute from 100; a constant buy composite. */
function data(fundingRate: number, imbalance = 1): StudyData {
  const n = 10 * 60 + 1;
  const time = Float64Array.from({ length: n }, (_, i) => T0 + i * MIN);
  const fill = (v: number) => new Float64Array(n).fill(v);
  return {
    time,
    columns: {
      btc_price: Float64Array.from({ length: n }, (_, i) => 100 + 0.01 * i),
      btc_funding_rate: fill(fundingRate),
      btc_imbalance: fill(imbalance), // score 2*(1-0.5) = 1
      btc_basis_bps: fill(0),
      btc_momentum_5m_pct: fill(0),
      eth_basefee_live: fill(0.5), // cheap gas: score 0.3
    },
    requests: 6,
  };
}

const options = { ...DEFAULT_STUDY, coins: ["BTC"] as const, initialCash: 1000 };

/**
 * Mertens (2002) standard error of the annualised Sharpe ratio of the non-NaN returns, written
 * here from the formula: sqrt(P (1 - g3 SRp + (g4 - 1) / 4 SRp²) / (n - 1)), SRp = mean / std (ddof 1),
 * g3 and g4 the population skewness and (non-excess) kurtosis.
 */
function mertensSE(returns: ArrayLike<number>, P: number): number {
  const r = Array.from(returns).filter((v) => !Number.isNaN(v));
  const n = r.length;
  const mean = r.reduce((a, b) => a + b, 0) / n;
  const m = (k: number): number => r.reduce((a, b) => a + (b - mean) ** k, 0) / n;
  const srp = mean / Math.sqrt((m(2) * n) / (n - 1));
  const g3 = m(3) / m(2) ** 1.5;
  const g4 = m(4) / m(2) ** 2;
  return Math.sqrt((P * (1 - g3 * srp + ((g4 - 1) / 4) * srp ** 2)) / (n - 1));
}

describe("runStudy", () => {
  it("samples the bar closes on the hour and replays the composite: 0.3 x 1 + 0.1 x 0.3 = 0.33, a buy", () => {
    const s = runStudy(data(0), options);
    const btc = s.coins.BTC!;
    expect(Array.from(s.time)).toEqual(Array.from({ length: 11 }, (_, i) => T0 + i * HOUR));
    expect(Array.from(btc.close)).toEqual(Array.from({ length: 11 }, (_, i) => 100 + 0.01 * 60 * i));
    for (const c of btc.replay.composite) expect(c).toBeCloseTo(0.33, 12);
    expect(Array.from(btc.replay.label)).toEqual(new Array(11).fill(1));
    expect(s.portfolio).toBeUndefined();
    expect(s.periodsPerYear).toBe(8760);
  });

  it("the portfolio's buy & hold is bought once in equal shares and never rebalanced (not a constant mix)", () => {
    const d = data(0);
    const n = d.time.length;
    // ETH halves linearly from 200 to 100 over the ten hours (constant imbalance 0.5: score 0).
    const eth = Float64Array.from({ length: n }, (_, i) => 200 - (100 * i) / (n - 1));
    const cols = { ...d.columns, eth_price: eth, eth_funding_rate: new Float64Array(n), eth_imbalance: new Float64Array(n).fill(0.5), eth_basis_bps: new Float64Array(n), eth_momentum_5m_pct: new Float64Array(n) };
    const s = runStudy({ ...d, columns: cols }, { ...options, coins: ["BTC", "ETH"] as const });
    const p = s.portfolio!;
    // Hand: 500 x BTC_i / 100 + 500 x ETH_i / 200; at the end 500 x 106 / 100 + 500 x 100 / 200 = 530 + 250 = 780.
    expect(p.buyHold[0]).toBeCloseTo(1000, 9);
    expect(p.buyHold[10]).toBeCloseTo(780, 9);
    // A 50/50 mix reset every hour would compound the average hourly return instead: a different number.
    let mix = 1000;
    for (let i = 1; i <= 10; i++) {
      const b = (100 + 0.6 * i) / (100 + 0.6 * (i - 1)) - 1;
      const e = (200 - 10 * i) / (200 - 10 * (i - 1)) - 1;
      mix *= 1 + (b + e) / 2;
    }
    expect(Math.abs(mix - 780)).toBeGreaterThan(1);
    const row = scorecardRows(s).at(-1)!;
    expect(row.buyHoldReturn).toBeCloseTo(-0.22, 12);
    // Sharpe SE on the n = 10 hourly returns, adjusted for their skewness and kurtosis (Mertens 2002).
    expect(row.sharpeSE).toBeCloseTo(mertensSE(p.result.returns, 8760), 9);
  });

  it("an always-long signal earns buy and hold minus 6 bps at entry and the hourly funding, worked out by hand", () => {
    // funding 1e-5 per hour scores -0.1 (clamp(-v * 1e4)): composite 0.33 - 0.025 = 0.305, still a buy
    const rate = 0.00001;
    const s = runStudy(data(rate), options);
    const btc = s.coins.BTC!;
    const p = (i: number) => 100 + 0.6 * i;
    // bar 1: (p1/p0 - 1) - 0.0006 (fee 5 + slippage 1 bps on |1 - 0|) - funding 0.0001; then (p_i/p_{i-1} - 1) - 0.0001
    let expected = 1000 * (1 + (p(1) / p(0) - 1) - 0.0006 - rate);
    for (let i = 2; i <= 10; i++) expected *= 1 + (p(i) / p(i - 1) - 1) - rate;
    expect(btc.result.equity[10]).toBeCloseTo(expected, 9);
    expect(Array.from(btc.replay.label)).toEqual(new Array(11).fill(1));
    expect(btc.feesPaid).toBeCloseTo(1000 * 0.0006, 9);
    expect(btc.buyHold[10]).toBeCloseTo((1000 * p(10)) / p(0), 9);
    const row = scorecardRows(s)[0]!;
    expect(row.strategy).toBe("BTC");
    expect(row.totalReturn).toBeCloseTo(expected / 1000 - 1, 12);
    expect(row.buyHoldReturn).toBeCloseTo(p(10) / p(0) - 1, 12);
    expect(row.fundingPaid).toBeGreaterThan(0);
    const facts = studyHighlights(s);
    expect(facts[0]).toBe(
      // Sharpe SE on n = 10 hourly returns, adjusted for their skewness and kurtosis (Mertens 2002)
      `BTC returned +${((expected / 1000 - 1) * 100).toFixed(1)}% net of costs and funding (Sharpe ${btc.summary.sharpeRatio.toFixed(2)} ± ${mertensSE(btc.result.returns, 8760).toFixed(2)} standard error, max drawdown 0.0%) against +${((p(10) / p(0) - 1) * 100).toFixed(1)}% for buy and hold (bought once, never rebalanced).`,
    );
    expect(facts[1]).toBe("Fees and slippage cost 1 (0.1% of the starting cash) over 1 trade (1 still open at the end).");
    // ten hours are far below the 28 days from which a CAGR is shown
    expect(row.cagr).toBeNaN();
    expect(btc.summary.annualReturn).toBeGreaterThan(1);
  });

  it("stays flat with no costs when the composite is neutral (imbalance at 0.5: 0.03 < threshold 0.1)", () => {
    const s = runStudy(data(0, 0.5), options);
    const btc = s.coins.BTC!;
    expect(Array.from(btc.replay.label)).toEqual(new Array(11).fill(0));
    expect(btc.result.equity[10]).toBe(1000);
    expect(btc.feesPaid).toBe(0);
    expect(btc.result.trades.length).toBe(0);
  });

  it("follows the threshold option at its boundary: a composite of 0.33 is neutral with threshold 0.34", () => {
    const s = runStudy(data(0), { ...options, threshold: 0.34 });
    expect(Array.from(s.coins.BTC!.replay.label)).toEqual(new Array(11).fill(0));
  });

  it("does not mutate its input", () => {
    const d = data(0.0001);
    const before = Array.from(d.columns["btc_price"]!);
    runStudy(d, options);
    expect(Array.from(d.columns["btc_price"]!)).toEqual(before);
  });

  it("rejects bad options and too little history with typed errors", () => {
    expect(() => runStudy(data(0), { ...options, barMinutes: 0 })).toThrow(InvalidArgumentError);
    expect(() => runStudy(data(0), { ...options, barMinutes: 0 })).toThrow("study: bar size must be a whole number of minutes 1..1440, got 0");
    expect(() => runStudy(data(0), { ...options, coins: [] })).toThrow("study: coins must name at least one");
    expect(() => runStudy({ time: Float64Array.of(T0), columns: {}, requests: 0 }, options)).toThrow("fewer than two points");
    expect(() => runStudy(data(0), { ...options, barMinutes: 600 })).toThrow("fewer than three 600-minute bars");
  });
});

describe("CLI parsers", () => {
  it("parseCoins: comma list, any case, de-duplicated, or all", () => {
    expect(parseCoins("eth, BTC,eth")).toEqual(["ETH", "BTC"]);
    expect(parseCoins("all")).toEqual(["BTC", "ETH", "SOL", "HYPE"]);
    expect(() => parseCoins("btc,doge")).toThrow(CommanderArgumentError);
  });
  it("parseSeeds: lists and ascending ranges, de-duplicated, 1 to 50 seeds", () => {
    expect(parseSeeds("3, 1-3,7")).toEqual([3, 1, 2, 7]);
    expect(parseSeeds("0")).toEqual([0]);
    expect(parseSeeds("1-50")).toHaveLength(50);
    expect(() => parseSeeds("1-51")).toThrow("seeds must name 1 to 50 seeds, got 51");
    expect(() => parseSeeds("5-1")).toThrow("seeds: a range must ascend, got 5-1");
    expect(() => parseSeeds("a")).toThrow("seeds must look like 1,2,3 or 1-10, got a");
    expect(() => parseSeeds("")).toThrow(CommanderArgumentError);
  });
  it("parseWeights: name=value pairs that sum to 1, known components only", () => {
    expect(parseWeights("imbalance=0.5, funding=0.5")).toEqual({ imbalance: 0.5, funding: 0.5 });
    const all = Object.entries(DEFAULT_WEIGHTS).map(([k, v]) => `${k}=${v}`).join(",");
    expect(parseWeights(all)).toEqual({ ...DEFAULT_WEIGHTS });
    expect(() => parseWeights("imbalance=0.5")).toThrow(CommanderArgumentError);
    expect(() => parseWeights("imbalance")).toThrow("weights must look like imbalance=0.3,funding=0.25");
    expect(() => parseWeights("volume=1")).toThrow('unknown component "volume"');
    expect(() => parseWeights("imbalance=x,funding=1")).toThrow("weights must look like");
  });
});
