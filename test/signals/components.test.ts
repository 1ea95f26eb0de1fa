/**
 * Component scorers, weights, compositeScore, classifySignal and signalConfidence.
 * Reference values are hand-computed from docs/DESIGN.md's table (stated inline).
 */
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/index.js";
import * as signals from "../../src/signals/index.js";
import {
  CHEAP_GAS_GWEI,
  COMPONENT_NAMES,
  DEFAULT_SCORERS,
  EXTRA_SCORERS,
  DEFAULT_WEIGHTS,
  classifySignal,
  classifySignalStrength,
  compositeScore,
  scoreBasis,
  scoreCorrelation,
  scoreComponents,
  scoreFunding,
  scoreGas,
  scoreImbalance,
  scoreMomentum,
  scoreVolatility,
  signalConfidence,
  validateThresholds,
  validateWeights,
} from "../../src/signals/index.js";

describe("default scorers (docs/DESIGN.md table)", () => {
  it("imbalance = 2(v - 0.5), v clamped to [0, 1]", () => {
    expect(scoreImbalance(0.5)).toBe(0);
    expect(scoreImbalance(0)).toBe(-1);
    expect(scoreImbalance(1)).toBe(1);
    expect(scoreImbalance(0.75)).toBe(0.5);
    expect(scoreImbalance(0.6305)).toBeCloseTo(0.261, 15);
    expect(scoreImbalance(-0.2)).toBe(-1);
    expect(scoreImbalance(1.7)).toBe(1);
    expect(scoreImbalance(Number.NaN)).toBeNaN();
  });

  it("funding = clamp(-v * 1e4, -1, 1): saturates at ±0.0001 an hour", () => {
    expect(scoreFunding(0)).toBe(-0);
    expect(scoreFunding(0.0000048)).toBeCloseTo(-0.048, 15);
    expect(scoreFunding(0.0001)).toBe(-1);
    expect(scoreFunding(-0.0001)).toBe(1);
    expect(scoreFunding(0.00005)).toBeCloseTo(-0.5, 15);
    expect(scoreFunding(0.01)).toBe(-1);
    expect(scoreFunding(-0.01)).toBe(1);
    expect(scoreFunding(Number.POSITIVE_INFINITY)).toBe(-1);
    expect(scoreFunding(Number.NaN)).toBeNaN();
  });

  it("basis = clamp(-v / 50, -1, 1): saturates at ±50 bps", () => {
    expect(scoreBasis(0)).toBe(-0);
    expect(scoreBasis(12.5)).toBe(-0.25);
    expect(scoreBasis(50)).toBe(-1);
    expect(scoreBasis(-50)).toBe(1);
    expect(scoreBasis(49.9)).toBeCloseTo(-0.998, 15);
    expect(scoreBasis(400)).toBe(-1);
    expect(scoreBasis(-400)).toBe(1);
    expect(scoreBasis(Number.NaN)).toBeNaN();
  });

  it("momentum = clamp(v / 2, -1, 1): saturates at ±2 % in 5 minutes", () => {
    expect(scoreMomentum(0)).toBe(0);
    expect(scoreMomentum(0.356)).toBeCloseTo(0.178, 15);
    expect(scoreMomentum(2)).toBe(1);
    expect(scoreMomentum(-2)).toBe(-1);
    expect(scoreMomentum(5)).toBe(1);
    expect(scoreMomentum(-1)).toBe(-0.5);
    expect(scoreMomentum(Number.NaN)).toBeNaN();
  });

  it("gas = 0.3 up to 1.1 gwei, then falls 0.1 per gwei to -1 (this library's assumption above)", () => {
    expect(CHEAP_GAS_GWEI).toBe(1.1);
    expect(scoreGas(0)).toBe(0.3);
    expect(scoreGas(0.8)).toBe(0.3);
    expect(scoreGas(1.1)).toBe(0.3);
    expect(scoreGas(1.1000001)).toBeLessThan(0.3);
    expect(scoreGas(2.1)).toBeCloseTo(0.2, 12);
    expect(scoreGas(4.1)).toBeCloseTo(0, 12);
    expect(scoreGas(14.1)).toBeCloseTo(-1, 12);
    expect(scoreGas(100)).toBe(-1);
    expect(scoreGas(Number.NaN)).toBeNaN();
  });

  it("extra components: volatility 0 below 50 %, -1 from 90 %; correlation 0 up to 0.5, -1 at 1", () => {
    expect(Math.abs(scoreVolatility(30))).toBe(0);
    expect(Math.abs(scoreVolatility(50))).toBe(0);
    expect(scoreVolatility(70)).toBe(-0.5);
    expect(scoreVolatility(90)).toBe(-1);
    expect(scoreVolatility(300)).toBe(-1);
    expect(scoreVolatility(Number.NaN)).toBeNaN();
    expect(Math.abs(scoreCorrelation(-1))).toBe(0);
    expect(Math.abs(scoreCorrelation(0.5))).toBe(0);
    expect(scoreCorrelation(0.9)).toBeCloseTo(-0.8, 15);
    expect(scoreCorrelation(1)).toBe(-1);
    expect(scoreCorrelation(Number.NaN)).toBeNaN();
    expect(Object.keys(EXTRA_SCORERS)).toEqual(["volatility", "correlation"]);
  });

  it("every scorer maps into [-1, 1] over a wide grid", () => {
    for (const f of [...Object.values(DEFAULT_SCORERS), ...Object.values(EXTRA_SCORERS)]) {
      let lo = Infinity;
      let hi = -Infinity;
      for (let x = -1e3; x <= 1e3; x += 0.37) {
        const s = f(x / 100);
        lo = Math.min(lo, s);
        hi = Math.max(hi, s);
      }
      expect(lo).toBeGreaterThanOrEqual(-1);
      expect(hi).toBeLessThanOrEqual(1);
    }
  });
});

describe("weights", () => {
  it("DEFAULT_WEIGHTS: .30/.25/.20/.15/.10 in COMPONENT_NAMES order, summing to 1, frozen", () => {
    expect(Object.keys(DEFAULT_WEIGHTS)).toEqual([...COMPONENT_NAMES]);
    expect(Object.values(DEFAULT_WEIGHTS)).toEqual([0.3, 0.25, 0.2, 0.15, 0.1]);
    expect(Object.values(DEFAULT_WEIGHTS).reduce((a, b) => a + b, 0)).toBe(1);
    expect(Object.isFrozen(DEFAULT_WEIGHTS)).toBe(true);
  });

  it("validateWeights: rejects negative, NaN, infinite, empty and sums other than 1 (unless allowAnySum)", () => {
    expect(validateWeights({ a: 0.5, b: 0.5 })).toEqual({ a: 0.5, b: 0.5 });
    expect(validateWeights({ a: 0, b: 1 })).toEqual({ a: 0, b: 1 });
    expect(() => validateWeights({ a: -0.1, b: 1.1 })).toThrow("weights: weight of a must be a finite non-negative number, got -0.1");
    expect(() => validateWeights({ a: Number.NaN })).toThrow(InvalidArgumentError);
    expect(() => validateWeights({ a: Number.POSITIVE_INFINITY })).toThrow(InvalidArgumentError);
    expect(() => validateWeights({})).toThrow("weights must name at least one component");
    expect(() => validateWeights({ a: 0.5, b: 0.4 })).toThrow("weights must sum to 1, got 0.9 (pass allowAnySum: true to opt out)");
    expect(validateWeights({ a: 0.5, b: 0.4 }, "w", true)).toEqual({ a: 0.5, b: 0.4 });
    // boundary of the sum tolerance (1e-9)
    expect(() => validateWeights({ a: 0.5, b: 0.5 + 5e-10 })).not.toThrow();
    expect(() => validateWeights({ a: 0.5, b: 0.5 + 2e-9 })).toThrow(InvalidArgumentError);
  });
});

describe("scoreComponents", () => {
  it("scores the given components with the defaults, skips unknown names, keeps NaN", () => {
    const s = scoreComponents({ imbalance: 0.6305, momentum_5m: 0.356, other: 3, funding: Number.NaN });
    expect(Object.keys(s).sort()).toEqual(["funding", "imbalance", "momentum_5m"]);
    expect(s["imbalance"]).toBeCloseTo(0.261, 15);
    expect(s["momentum_5m"]).toBeCloseTo(0.178, 15);
    expect(s["funding"]).toBeNaN();
  });

  it("accepts replacement and extra scorers; the empty input gives an empty record", () => {
    const s = scoreComponents({ imbalance: 0.6, volatility: 80 }, { imbalance: () => 0.5, volatility: (v) => -v / 100 });
    expect(s).toEqual({ imbalance: 0.5, volatility: -0.8 });
    expect(scoreComponents({ volatility: 70, correlation: 0.9, sentiment: 1 })).toEqual({ volatility: -0.5, correlation: scoreCorrelation(0.9) });
    expect(scoreComponents({})).toEqual({});
  });

  it("does not mutate its input", () => {
    const v = { imbalance: 0.7 };
    scoreComponents(v);
    expect(v).toEqual({ imbalance: 0.7 });
  });
});

describe("compositeScore", () => {
  const worked = { imbalance: 0.261, funding: -0.048, basis_spread: -1, momentum_5m: 0.178, gas: 0.3 };

  it("docs/DESIGN.md worked example: -0.0771 (hand: .0783 - .012 - .2 + .0267 + .03 = -0.0770), neutral", () => {
    const c = compositeScore(worked);
    expect(c).toBeCloseTo(-0.077, 14);
    expect(Math.abs(c - -0.0771)).toBeLessThan(0.0005); // the service printed -0.0771 from unrounded scores
    expect(classifySignal(c)).toBe("neutral");
  });

  it("missing components: renormalise (default), zero, nan", () => {
    const { gas: _g, ...four } = worked;
    const sum4 = 0.3 * 0.261 + 0.25 * -0.048 + 0.2 * -1 + 0.15 * 0.178;
    expect(compositeScore(four)).toBeCloseTo(sum4 / 0.9, 15);
    expect(compositeScore({ ...four, gas: Number.NaN })).toBeCloseTo(sum4 / 0.9, 15);
    expect(compositeScore(four, DEFAULT_WEIGHTS, "zero")).toBeCloseTo(sum4, 15);
    expect(compositeScore(four, DEFAULT_WEIGHTS, "nan")).toBeNaN();
    expect(compositeScore({}, DEFAULT_WEIGHTS, "renormalise")).toBeNaN();
    expect(compositeScore({}, DEFAULT_WEIGHTS, "zero")).toBeNaN();
  });

  it("custom weights, extra components ignored unless weighted; bad weights and policy rejected", () => {
    expect(compositeScore({ a: 1, b: -1, c: 5 }, { a: 0.75, b: 0.25 })).toBe(0.5);
    expect(() => compositeScore(worked, { imbalance: 0.5 })).toThrow("compositeScore: weights must sum to 1, got 0.5");
    expect(() => compositeScore(worked, DEFAULT_WEIGHTS, "drop" as never)).toThrow(
      "compositeScore: missing must be one of renormalise, zero, nan, got drop",
    );
  });
});

describe("classifySignal and strength", () => {
  it("threshold 0.1 by default: boundary values belong to buy / sell", () => {
    expect(classifySignal(0.1)).toBe("buy");
    expect(classifySignal(0.0999999)).toBe("neutral");
    expect(classifySignal(-0.1)).toBe("sell");
    expect(classifySignal(-0.0999999)).toBe("neutral");
    expect(classifySignal(0)).toBe("neutral");
    expect(classifySignal(Number.NaN)).toBe("neutral");
    expect(classifySignal(0.12)).toBe("buy");
  });

  it("threshold boundaries: 0 labels every non-zero score; 1 only ±1", () => {
    expect(classifySignal(1e-9, { threshold: 0 })).toBe("buy");
    expect(classifySignal(0, { threshold: 0 })).toBe("neutral");
    expect(classifySignal(0.999, { threshold: 1 })).toBe("neutral");
    expect(classifySignal(-1, { threshold: 1 })).toBe("sell");
  });

  it("rejects thresholds outside [0, 1] and strong below threshold", () => {
    expect(() => classifySignal(0, { threshold: -0.1 })).toThrow("classifySignal: threshold must be a number in [0, 1], got -0.1");
    expect(() => classifySignal(0, { threshold: 1.5 })).toThrow(InvalidArgumentError);
    expect(() => classifySignal(0, { threshold: Number.NaN })).toThrow(InvalidArgumentError);
    expect(() => classifySignalStrength(0, { threshold: 0.2, strong: 0.1 })).toThrow(
      "classifySignalStrength: strong must be a number in [threshold, 1], got 0.1",
    );
    expect(validateThresholds({})).toEqual({ threshold: 0.1, strong: Number.POSITIVE_INFINITY });
  });

  it("strength: ±2 at or beyond strong, ±1 at or beyond threshold", () => {
    expect(classifySignalStrength(0.35, { strong: 0.3 })).toBe(2);
    expect(classifySignalStrength(0.3, { strong: 0.3 })).toBe(2);
    expect(classifySignalStrength(-0.3, { strong: 0.3 })).toBe(-2);
    expect(classifySignalStrength(0.2, { strong: 0.3 })).toBe(1);
    expect(classifySignalStrength(-0.1)).toBe(-1);
    expect(classifySignalStrength(0.05)).toBe(0);
    expect(classifySignalStrength(Number.NaN)).toBe(0);
    expect(classifySignalStrength(0.99)).toBe(1); // no strong band by default
  });
});

describe("signalConfidence", () => {
  it("0.5 * min(1, |c| / 0.3) + 0.5 * agreeing weight share", () => {
    expect(signalConfidence({ imbalance: 1, funding: 1 }, { imbalance: 0.5, funding: 0.5 }, 1)).toBe(1);
    // c = 0.15: strength 0.5; agreeing weight .3 of (.3 + .7) -> 0.5*0.5 + 0.5*0.3 = 0.4
    expect(signalConfidence({ a: 0.9, b: -0.1 }, { a: 0.3, b: 0.7 }, 0.15)).toBeCloseTo(0.4, 15);
    // NaN scores leave the agreement base: only a counts
    expect(signalConfidence({ a: 0.9, b: Number.NaN }, { a: 0.3, b: 0.7 }, 0.15)).toBeCloseTo(0.75, 15);
    expect(signalConfidence({ a: 0 }, { a: 1 }, 0)).toBe(0);
    expect(signalConfidence({ a: 1 }, { a: 1 }, Number.NaN)).toBeNaN();
  });
});

describe("componentMetricIds", () => {
  it("names the history metrics of a coin's components (gas is Ethereum's base fee for every coin)", () => {
    const { componentMetricIds } = signals;
    expect(componentMetricIds("sol")).toEqual({
      imbalance: "sol_imbalance",
      funding: "sol_funding_rate",
      basis_spread: "sol_basis_bps",
      momentum_5m: "sol_momentum_5m_pct",
      gas: "eth_basefee_live",
    });
    expect(() => componentMetricIds("DOGE")).toThrow('componentMetricIds: coin must be one of BTC, ETH, SOL, HYPE (lower case accepted), got "DOGE"');
  });
});
