/**
 * Trend labels (efficiency ratio), regime statistics, market regime and
 * liquidation alerts. Reference values hand-computed (stated inline) or from
 * an independent brute-force implementation in this file.
 */
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/index.js";
import {
  CASCADE_THRESHOLDS,
  LIQUIDATION_LEVELS,
  MARKET_REGIMES,
  TREND_LABELS,
  efficiencyRatio,
  liquidationAlerts,
  marketRegime,
  marketRegimes,
  regimeStatistics,
  regimeStatisticsSeries,
  trendLabels,
  type CoinState,
} from "../../src/signals/index.js";
import { mulberry32, sameValues } from "./helpers.js";

describe("efficiencyRatio and trendLabels", () => {
  it("hand values: |net move| / path length over the window", () => {
    expect(efficiencyRatio([1, 2, 3, 2], { window: 3 })[3]).toBeCloseTo(1 / 3, 15);
    expect(Array.from(efficiencyRatio([1, 2, 3, 4, 5], { window: 2 }))).toEqual([Number.NaN, Number.NaN, 1, 1, 1]);
    expect(Array.from(efficiencyRatio([1, 2, 1, 2, 1], { window: 2 }))).toEqual([Number.NaN, Number.NaN, 0, 0, 0]);
    expect(Array.from(efficiencyRatio([1, 3], { window: 1 }))).toEqual([Number.NaN, 1]);
  });

  it("equals a direct sum over each window on a long random walk (rolling sum stays accurate)", () => {
    const rnd = mulberry32(2);
    const p = [100];
    for (let i = 1; i < 10_000; i++) p.push(p[i - 1]! + rnd() - 0.5);
    const w = 37;
    const er = efficiencyRatio(p, { window: w });
    for (const t of [w, 4095, 4096, 4097, 9999]) {
      let path = 0;
      for (let k = t - w + 1; k <= t; k++) path += Math.abs(p[k]! - p[k - 1]!);
      expect(er[t]).toBeCloseTo(Math.abs(p[t]! - p[t - w]!) / path, 10);
    }
  });

  it("NaN in the window, a flat window and warm-up are NaN; recovers after the NaN leaves", () => {
    const er = efficiencyRatio([1, 2, Number.NaN, 4, 5, 6, 7], { window: 2 });
    expect(Array.from(er)).toEqual([Number.NaN, Number.NaN, Number.NaN, Number.NaN, Number.NaN, 1, 1]);
    expect(Array.from(efficiencyRatio([5, 5, 5, 5], { window: 2 }))).toEqual(new Array(4).fill(Number.NaN));
    expect(efficiencyRatio([], { window: 2 }).length).toBe(0);
    expect(Array.from(efficiencyRatio([1], { window: 1 }))).toEqual([Number.NaN]);
  });

  it("trendLabels: 1 Trending at or above the threshold, 0 Mean-Reverting below, -1 unknown", () => {
    expect(TREND_LABELS).toEqual(["Mean-Reverting", "Trending"]);
    expect(Array.from(trendLabels([1, 2, 3, 2, 3], { window: 2, threshold: 0.5 }))).toEqual([-1, -1, 1, 0, 0]);
    // threshold boundaries: 0 -> every known bar trends; 1 -> only straight lines
    expect(Array.from(trendLabels([1, 2, 3, 2, 3], { window: 2, threshold: 0 }))).toEqual([-1, -1, 1, 1, 1]);
    expect(Array.from(trendLabels([1, 2, 3, 2.5, 3], { window: 2, threshold: 1 }))).toEqual([-1, -1, 1, 0, 0]);
    // at exactly the threshold: ER([1,2,3,2], 3) = 1/3
    expect(trendLabels([1, 2, 3, 2], { window: 3, threshold: 1 / 3 })[3]).toBe(1);
    expect(trendLabels(new Array(300).fill(1).map((_, i) => i)).at(-1)).toBe(1); // default window 240, threshold 0.3
    expect(trendLabels(new Array(300).fill(1).map((_, i) => i))[239]).toBe(-1);
    expect(() => trendLabels([1], { threshold: 1.5 })).toThrow("trendLabels: threshold must be in [0, 1], got 1.5");
    expect(() => trendLabels([1], { window: 0 })).toThrow("trendLabels: window must be a positive integer, got 0");
    expect(() => efficiencyRatio([1], { window: 1.5 })).toThrow("efficiencyRatio: window must be a positive integer, got 1.5");
  });

  it("does not mutate its input", () => {
    const p = Float64Array.of(1, 2, 3, 2, 1);
    trendLabels(p, { window: 2 });
    expect(Array.from(p)).toEqual([1, 2, 3, 2, 1]);
  });
});

describe("regimeStatistics and regimeStatisticsSeries", () => {
  it("transition matrix, persistence and duration (hand-counted)", () => {
    // transitions: 0->0, 0->1, 1->1, 1->1, 1->0, 0->0  => row 0: [2/3, 1/3], row 1: [1/3, 2/3]
    const s = regimeStatistics([0, 0, 1, 1, 1, 0, 0], { states: 2 });
    expect(s.transition[0]![0]).toBeCloseTo(2 / 3, 15);
    expect(s.transition[0]![1]).toBeCloseTo(1 / 3, 15);
    expect(s.transition[1]![1]).toBeCloseTo(2 / 3, 15);
    expect(s.current).toBe(0);
    expect(s.duration).toBe(2);
    expect(s.persistence).toBeCloseTo(2 / 3, 15);
    expect(regimeStatistics([0, 0, 1, 1, 1], { states: 2 }).duration).toBe(3);
  });

  it("negative labels are skipped and break no run; unvisited rows are NaN; empty input", () => {
    const s = regimeStatistics([-1, 1, -1, 1, 1], { states: 3 });
    expect(s.duration).toBe(3);
    expect(s.transition[1]).toEqual([0, 1, 0]);
    expect(s.transition[0]!.every(Number.isNaN)).toBe(true);
    const e = regimeStatistics([], { states: 2 });
    expect([e.current, e.duration, e.persistence]).toEqual([-1, 0, Number.NaN]);
    expect(() => regimeStatistics([2], { states: 2 })).toThrow("regimeStatistics: labels must be integers below 2, got 2 at 0");
    expect(() => regimeStatistics([0], { states: 0 })).toThrow("regimeStatistics: states must be a positive integer, got 0");
  });

  it("the series equals regimeStatistics of every prefix (as known at each bar)", () => {
    const rnd = mulberry32(3);
    const labels = Array.from({ length: 400 }, () => (rnd() < 0.1 ? -1 : rnd() < 0.8 ? 1 : Math.floor(rnd() * 3)));
    const s = regimeStatisticsSeries(labels, { states: 3 });
    for (let t = 0; t < labels.length; t++) {
      const p = regimeStatistics(labels.slice(0, t + 1), { states: 3 });
      expect(s.current[t]).toBe(p.current);
      expect(s.duration[t]).toBe(p.duration);
      expect(sameValues([s.persistence[t]!], [p.persistence])).toBe(true);
    }
    expect(Array.from(regimeStatisticsSeries([0, 0, 1, 1], { states: 2 }).persistence)).toEqual([Number.NaN, 1, Number.NaN, 1]);
    expect(regimeStatisticsSeries([], { states: 2 }).current.length).toBe(0);
    expect(() => regimeStatisticsSeries([0], { states: 200 })).toThrow("regimeStatisticsSeries: states must be an integer in [1, 127], got 200");
    expect(() => regimeStatisticsSeries([0.5], { states: 2 })).toThrow(InvalidArgumentError);
  });
});

describe("marketRegime and marketRegimes", () => {
  const coin = (composite: number, volRegime: CoinState["volRegime"] = "normal", funding = 0.00001): CoinState => ({ composite, volRegime, funding });

  it("risk_on / risk_off / neutral by breadth, crowded funding and extreme volatility", () => {
    expect(marketRegime([coin(0.2)])).toEqual({ regime: "risk_on", confidence: 1 });
    expect(marketRegime([coin(0.1), coin(0.0)])).toEqual({ regime: "risk_on", confidence: 0.25 }); // b = .05 (boundary), conf .05/.2
    expect(marketRegime([coin(0.1), coin(-0.02)]).regime).toBe("neutral"); // b = .04
    expect(marketRegime([coin(-0.1), coin(0)]).regime).toBe("risk_off"); // b = -.05 boundary
    expect(marketRegime([coin(0.2, "normal", 0.0001)]).regime).toBe("neutral"); // crowded longs block risk_on (boundary)
    expect(marketRegime([coin(0.2, "normal", 0.000099)]).regime).toBe("risk_on");
    // half the coins extreme -> risk_off, confidence at least the extreme share
    expect(marketRegime([coin(0.2, "extreme"), coin(0.2)])).toEqual({ regime: "risk_off", confidence: 1 });
    expect(marketRegime([coin(0.02, "extreme"), coin(0.0)])).toEqual({ regime: "risk_off", confidence: 0.5 });
    expect(marketRegime([coin(0.02), coin(0.0)])).toEqual({ regime: "neutral", confidence: 0.95 });
    expect(marketRegime([])).toEqual({ regime: "neutral", confidence: 0 });
    expect(marketRegime([coin(Number.NaN)])).toEqual({ regime: "neutral", confidence: 0 });
    // NaN funding is unknown, not zero: it neither counts nor blocks
    expect(marketRegime([coin(0.2, "normal", Number.NaN), coin(0.2, "normal", 0.0003)]).regime).toBe("neutral");
  });

  it("options move the thresholds and are validated", () => {
    expect(marketRegime([coin(0.04)], { breadth: 0.03 }).regime).toBe("risk_on");
    expect(marketRegime([coin(0.2, "normal", 0.0002)], { crowdedFunding: 0.0005 }).regime).toBe("risk_on");
    expect(marketRegime([coin(0.2, "extreme"), coin(0.2), coin(0.2)], { extremeShare: 0.33 }).regime).toBe("risk_off");
    expect(marketRegime([coin(0.2, "extreme"), coin(0.2), coin(0.2)], { extremeShare: 0.34 }).regime).toBe("risk_on");
    expect(marketRegime([coin(0.1)], { confidenceScale: 0.1 }).confidence).toBe(1);
    expect(() => marketRegime([], { breadth: -1 })).toThrow("marketRegime: breadth must be a number in [0, 1], got -1");
    expect(() => marketRegime([], { extremeShare: 0 })).toThrow("marketRegime: extremeShare must be in (0, 1], got 0");
    expect(() => marketRegime([], { confidenceScale: 0 })).toThrow(InvalidArgumentError);
    expect(() => marketRegime([], { crowdedFunding: Number.NaN })).toThrow(InvalidArgumentError);
  });

  it("the series version equals marketRegime row by row", () => {
    const rnd = mulberry32(4);
    const coins = ["BTC", "ETH", "SOL", "HYPE"];
    const n = 500;
    const composite = Object.fromEntries(coins.map((c) => [c, Float64Array.from({ length: n }, () => (rnd() < 0.05 ? Number.NaN : (rnd() - 0.5) * 0.4))]));
    const volRegime = Object.fromEntries(coins.map((c) => [c, Int8Array.from({ length: n }, () => Math.floor(rnd() * 5) - 1)]));
    const funding = Object.fromEntries(coins.map((c) => [c, Float64Array.from({ length: n }, () => (rnd() < 0.05 ? Number.NaN : rnd() * 2e-4))]));
    const s = marketRegimes({ composite, volRegime, funding });
    const names = ["low", "normal", "high", "extreme"] as const;
    for (let i = 0; i < n; i++) {
      const one = marketRegime(
        coins.map((c) => ({ composite: composite[c]![i]!, volRegime: names[volRegime[c]![i]!], funding: funding[c]![i]! })),
      );
      expect(MARKET_REGIMES[s.regime[i]! + 1]).toBe(one.regime);
      expect(s.confidence[i]).toBe(one.confidence);
    }
    expect(new Set(s.regime).size).toBe(3);
  });

  it("series: optional inputs, empty, unequal lengths and missing coins", () => {
    const s = marketRegimes({ composite: { BTC: [0.2, -0.2, Number.NaN], ETH: [0.1, -0.1, Number.NaN] } });
    expect(Array.from(s.regime)).toEqual([1, -1, 0]);
    expect(s.breadth[0]).toBeCloseTo(0.15, 15);
    expect(s.breadth[2]).toBeNaN();
    expect(marketRegimes({ composite: { BTC: [] } }).regime.length).toBe(0);
    expect(() => marketRegimes({ composite: {} })).toThrow(/composite must hold at least one coin's column/);
    expect(() => marketRegimes({ composite: { BTC: [1] }, funding: { ETH: [1] } })).toThrow(
      "marketRegimes: funding has no column for BTC; give one per coin of composite (BTC)",
    );
    expect(() => marketRegimes({ composite: { BTC: [1], ETH: [1, 2] } })).toThrow(
      "marketRegimes: every column must have 1 rows, got 2 in composite.ETH",
    );
  });
});

describe("liquidationAlerts", () => {
  it("levels at the live thresholds (1-minute and 5-minute moves, either direction); boundaries fire", () => {
    expect(LIQUIDATION_LEVELS).toEqual(["none", "warning", "critical", "extreme"]);
    expect(CASCADE_THRESHOLDS).toEqual({ warning: { pct1: 1, pct5: 2 }, critical: { pct1: 2, pct5: 5 }, extreme: { pct1: 5, pct5: 10 } });
    expect(Array.from(liquidationAlerts([100, 98.5]))).toEqual([0, 1]);
    expect(Array.from(liquidationAlerts([100, 99.5]))).toEqual([0, 0]);
    expect(Array.from(liquidationAlerts([100, 102]))).toEqual([0, 2]); // exactly 2% in one minute
    expect(Array.from(liquidationAlerts([100, 95]))).toEqual([0, 3]); // exactly 5%
    // 5-minute moves made of small steps: 0.5% a minute
    const steps = [100];
    for (let i = 1; i <= 6; i++) steps.push(steps[i - 1]! * 1.005);
    expect(Array.from(liquidationAlerts(steps))).toEqual([0, 0, 0, 0, 1, 1, 1]); // 1.005^4 - 1 = 2.015%
    const crash = [100, 99, 98, 97, 96, 95, 94];
    // 1-minute moves ~1.01..1.05% (warning); longer: t=2..4 2-4% from bar 0 (warning), t=5 5% critical, t=6 94/99 5.05% critical
    expect(Array.from(liquidationAlerts(crash))).toEqual([0, 1, 1, 1, 1, 2, 2]);
    expect(Array.from(liquidationAlerts([100, 100, 100, 100, 100, 110]))).toEqual([0, 0, 0, 0, 0, 3]);
  });

  it("NaN prices do not count; empty and one point; constant series; no mutation", () => {
    expect(Array.from(liquidationAlerts([100, Number.NaN, 90]))).toEqual([0, 0, 3]); // 90 vs bar 0 (10% over the available span)
    expect(liquidationAlerts([]).length).toBe(0);
    expect(Array.from(liquidationAlerts([5]))).toEqual([0]);
    expect(liquidationAlerts(new Array(20).fill(7)).every((x) => x === 0)).toBe(true);
    const p = Float64Array.of(100, 90);
    liquidationAlerts(p);
    expect(Array.from(p)).toEqual([100, 90]);
  });

  it("thresholds option and its validation", () => {
    const th = { warning: { pct1: 0.5, pct5: 1 }, critical: { pct1: 1, pct5: 2 }, extreme: { pct1: 3, pct5: 4 } };
    expect(Array.from(liquidationAlerts([100, 99.4, 98], { thresholds: th }))).toEqual([0, 1, 2]);
    expect(() => liquidationAlerts([1], { thresholds: { ...th, critical: { pct1: 0.1, pct5: 2 } } })).toThrow(
      'liquidationAlerts: thresholds.critical must have finite positive pct1 and pct5, not below the milder level\'s, got {"pct1":0.1,"pct5":2}',
    );
    expect(() => liquidationAlerts([1], { thresholds: { ...th, warning: { pct1: 0, pct5: 1 } } })).toThrow(InvalidArgumentError);
  });
});
