/**
 * sharpeRatioStandardError: the library's one Sharpe standard error,
 * SE = sqrt(P · (1 − γ₃·SR_p + (γ₄ − 1)/4 · SR_p²) / (n − 1)), SR_p = SR / sqrt(P)
 * (Bailey & López de Prado 2012, the σ̂(SR̂) inside their PSR; normal returns
 * give Lo's 2002 bracket P + SR²/2, over n − 1).
 *
 * Reference values computed with Debian's /usr/bin/python3 (math, numpy,
 * scipy.stats.skew / kurtosis):
 *   math.sqrt((365 + 0.5) / 39)               # 3.0613387384925033
 *   math.sqrt((8760 + 2.5**2/2) / 720)        # 3.488697026748589
 *   math.sqrt(1.02 / 50)                      # 0.14282856857085702
 *   math.sqrt(1.8125 / 100)                   # 0.1346291201783626
 *   math.sqrt(4 * 1.8125 / 100)               # 0.2692582403567252
 *   math.sqrt(0.8125 / 100)                   # 0.09013878188659974
 * and on the fixed 60-bar series
 *   t = np.arange(60); r = 0.001 + 0.01*np.sin(0.7*t) + 0.006*np.cos(1.9*t)**3 + 0.004*(t%7==0)
 *   sr = r.mean()/r.std(ddof=1); sk = skew(r, bias=True); ek = kurtosis(r, fisher=True, bias=True)
 *   math.sqrt(365*(1 - sk*sr + (ek+2)/4*sr**2)/59)      # 2.523091682873982 (with the moments)
 *   math.sqrt((365 + (sr*math.sqrt(365))**2/2)/59)      # 2.5279433031409786 (normal returns)
 */
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { kurtosis, sharpeRatio, sharpeRatioStandardError, skewness } from "../../src/metrics/index.js";

const R = Array.from({ length: 60 }, (_, t) => 0.001 + 0.01 * Math.sin(0.7 * t) + 0.006 * Math.cos(1.9 * t) ** 3 + (t % 7 === 0 ? 0.004 : 0));

describe("sharpeRatioStandardError", () => {
  it("normal returns (no moments given): sqrt((P + SR²/2) / (n − 1))", () => {
    // (365 + 1²/2) / 39 = 365.5 / 39 = 9.37179…, sqrt → 3.06134
    expect(sharpeRatioStandardError(1, { observations: 40, periodsPerYear: 365 })).toBeCloseTo(3.0613387384925033, 13);
    // (8760 + 6.25/2) / 720 = 8763.125 / 720 = 12.171…, sqrt → 3.48870
    expect(sharpeRatioStandardError(2.5, { observations: 721, periodsPerYear: 8760 })).toBeCloseTo(3.488697026748589, 13);
    // A per-period ratio, P = 1: (1 + 0.04/2) / 50 = 0.0204, sqrt → 0.142829
    expect(sharpeRatioStandardError(0.2, { observations: 51, periodsPerYear: 1 })).toBeCloseTo(0.14282856857085702, 15);
    // Zero Sharpe: sqrt(365 / 365) = 1
    expect(sharpeRatioStandardError(0, { observations: 366, periodsPerYear: 365 })).toBe(1);
    // Two observations is the least: sqrt((1 + 0) / 1) = 1
    expect(sharpeRatioStandardError(0, { observations: 2, periodsPerYear: 1 })).toBe(1);
    // Explicit zero moments are the default
    expect(sharpeRatioStandardError(1, { observations: 40, periodsPerYear: 365, skewness: 0, excessKurtosis: 0 })).toBe(
      sharpeRatioStandardError(1, { observations: 40, periodsPerYear: 365 }),
    );
  });

  it("non-normal returns: the bracket 1 − γ₃·SR_p + (γ₄ − 1)/4·SR_p², per period and annualised", () => {
    // SR_p 0.5, γ₃ −1, γ₄ 3 + 3 = 6: 1 + 0.5 + 5/4 · 0.25 = 1.8125; / 100, sqrt → 0.134629
    expect(sharpeRatioStandardError(0.5, { observations: 101, periodsPerYear: 1, skewness: -1, excessKurtosis: 3 })).toBeCloseTo(0.1346291201783626, 15);
    // The same returns annualised with P = 4: SR = 0.5 · 2 = 1, SE = sqrt(4 · 1.8125 / 100) = 0.269258 (twice the per-period SE)
    expect(sharpeRatioStandardError(1, { observations: 101, periodsPerYear: 4, skewness: -1, excessKurtosis: 3 })).toBeCloseTo(0.2692582403567252, 15);
    // Negative skew makes a positive Sharpe less certain than a negative one: SR_p −0.5 gives 1 − 0.5 + 0.3125 = 0.8125
    expect(sharpeRatioStandardError(-0.5, { observations: 101, periodsPerYear: 1, skewness: -1, excessKurtosis: 3 })).toBeCloseTo(0.09013878188659974, 15);
  });

  it("matches scipy's moments on a fixed series, with sharpeRatio, skewness and kurtosis of the library", () => {
    const sharpe = sharpeRatio(R, { periodsPerYear: 365 });
    expect(sharpe).toBeCloseTo(4.907003829186185, 12);
    const o = { observations: R.length, periodsPerYear: 365 };
    expect(sharpeRatioStandardError(sharpe, { ...o, skewness: skewness(R), excessKurtosis: kurtosis(R) })).toBeCloseTo(2.523091682873982, 12);
    expect(sharpeRatioStandardError(sharpe, o)).toBeCloseTo(2.5279433031409786, 12);
  });

  it("is symmetric in the sign of the ratio without skewness and shrinks as 1/sqrt(n − 1)", () => {
    const o = { observations: 101, periodsPerYear: 365 };
    expect(sharpeRatioStandardError(-1.5, o)).toBe(sharpeRatioStandardError(1.5, o));
    // n − 1 = 400 against 100: half the error
    const quarter = sharpeRatioStandardError(1.5, { observations: 401, periodsPerYear: 365 });
    expect(quarter * 2).toBeCloseTo(sharpeRatioStandardError(1.5, o), 14);
  });

  it("says a Sharpe of ~1 on 40 daily bars is noise: the ratio is well inside two standard errors of 0", () => {
    // 40 returns alternating +1.1 % / -1 %: mean 0.0005, sd ~0.0106, annualised Sharpe ~0.90.
    const r = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? 0.011 : -0.01));
    const sr = sharpeRatio(r, { periodsPerYear: 365 });
    const se = sharpeRatioStandardError(sr, { observations: r.length, periodsPerYear: 365 });
    expect(sr).toBeGreaterThan(0.8);
    expect(Math.abs(sr)).toBeLessThan(2 * se);
  });

  it("NaN for fewer than two observations, a NaN or infinite ratio, or NaN moments", () => {
    expect(sharpeRatioStandardError(1, { observations: 1, periodsPerYear: 365 })).toBeNaN();
    expect(sharpeRatioStandardError(1, { observations: 0, periodsPerYear: 365 })).toBeNaN();
    expect(sharpeRatioStandardError(Number.NaN, { observations: 40, periodsPerYear: 365 })).toBeNaN();
    // A zero-variance series has an infinite Sharpe and no asymptotic variance.
    expect(sharpeRatioStandardError(Number.POSITIVE_INFINITY, { observations: 10, periodsPerYear: 365 })).toBeNaN();
    expect(sharpeRatioStandardError(Number.NEGATIVE_INFINITY, { observations: 10, periodsPerYear: 1 })).toBeNaN();
    // The moments of a constant series are NaN (skewness([1, 1, 1]) is NaN).
    expect(sharpeRatioStandardError(0.5, { observations: 10, periodsPerYear: 1, skewness: Number.NaN })).toBeNaN();
    expect(sharpeRatioStandardError(0.5, { observations: 10, periodsPerYear: 1, excessKurtosis: Number.NaN })).toBeNaN();
  });

  it("NaN for inconsistent moments (a bracket ≤ 0), not the square root of a negative number", () => {
    // SR_p 1, γ₃ 3, γ₄ 3: 1 − 3 + 2/4 = −1.5
    expect(sharpeRatioStandardError(1, { observations: 50, periodsPerYear: 1, skewness: 3 })).toBeNaN();
    // SR_p 1, γ₃ 1.5: 1 − 1.5 + 0.5 = 0 exactly: no error of 0 either
    expect(sharpeRatioStandardError(1, { observations: 50, periodsPerYear: 1, skewness: 1.5 })).toBeNaN();
    // Annualised: SR 2 with P 4 is SR_p 1, the same bracket −1.5
    expect(sharpeRatioStandardError(2, { observations: 50, periodsPerYear: 4, skewness: 3 })).toBeNaN();
  });

  it("does not mutate its options", () => {
    const o = Object.freeze({ observations: 40, periodsPerYear: 365, skewness: -0.5, excessKurtosis: 1 });
    expect(Number.isFinite(sharpeRatioStandardError(1, o))).toBe(true);
    expect(o).toEqual({ observations: 40, periodsPerYear: 365, skewness: -0.5, excessKurtosis: 1 });
  });

  it("rejects bad options with an InvalidArgumentError naming the option", () => {
    const cases: [() => unknown, string, RegExp][] = [
      [() => sharpeRatioStandardError(1, { observations: 2.5, periodsPerYear: 365 }), "observations", /sharpeRatioStandardError: observations must be/],
      [() => sharpeRatioStandardError(1, { observations: -1, periodsPerYear: 365 }), "observations", /got -1/],
      [() => sharpeRatioStandardError(1, { observations: "40" as never, periodsPerYear: 365 }), "observations", /got 40/],
      [() => sharpeRatioStandardError(1, undefined as never), "observations", /got undefined/],
      [() => sharpeRatioStandardError(1, { observations: 10, periodsPerYear: 0 }), "periodsPerYear", /sharpeRatioStandardError: periodsPerYear must be/],
      [() => sharpeRatioStandardError(1, { observations: 10, periodsPerYear: Number.NaN }), "periodsPerYear", /got NaN/],
      [() => sharpeRatioStandardError(1, { observations: 10, periodsPerYear: Number.POSITIVE_INFINITY }), "periodsPerYear", /got Infinity/],
      [() => sharpeRatioStandardError(1, { observations: 10, periodsPerYear: 1, skewness: "0" as never }), "skewness", /sharpeRatioStandardError: skewness must be a number/],
      [() => sharpeRatioStandardError(1, { observations: 10, periodsPerYear: 1, skewness: null as never }), "skewness", /got null/],
      [() => sharpeRatioStandardError(1, { observations: 10, periodsPerYear: 1, excessKurtosis: "3" as never }), "excessKurtosis", /sharpeRatioStandardError: excessKurtosis must be a number/],
    ];
    for (const [call, argument, message] of cases) {
      expect(call).toThrow(InvalidArgumentError);
      expect(call).toThrow(message);
      try {
        call();
      } catch (e) {
        expect((e as InvalidArgumentError).argument).toBe(argument);
      }
    }
  });
});
