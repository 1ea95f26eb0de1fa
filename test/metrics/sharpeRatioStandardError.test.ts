/**
 * sharpeRatioStandardError against Lo (2002), "The Statistics of Sharpe
 * Ratios": per period SE = sqrt((1 + SR_p^2 / 2) / n), annualised by
 * sqrt(periodsPerYear). Reference values computed with Debian's python3:
 *   math.sqrt((1 + (1/math.sqrt(365))**2/2)/40) * math.sqrt(365)  # 3.0228298000383678
 *   math.sqrt((8760 + 2.5**2/2)/720)                               # 3.488697026748589
 *   math.sqrt((1 + 0.2**2/2)/50)                                   # 0.14282856857085702
 */
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { sharpeRatio, sharpeRatioStandardError } from "../../src/metrics/index.js";

describe("sharpeRatioStandardError (Lo 2002)", () => {
  it("matches the per-period formula annualised by sqrt(periodsPerYear)", () => {
    expect(sharpeRatioStandardError(1, { observations: 40, periodsPerYear: 365 })).toBeCloseTo(3.0228298000383678, 13);
    expect(sharpeRatioStandardError(2.5, { observations: 720, periodsPerYear: 8760 })).toBeCloseTo(3.488697026748589, 13);
    // A per-period ratio: periodsPerYear 1.
    expect(sharpeRatioStandardError(0.2, { observations: 50, periodsPerYear: 1 })).toBeCloseTo(0.14282856857085702, 15);
  });

  it("is symmetric in the sign of the ratio and shrinks as 1/sqrt(n)", () => {
    const o = { observations: 100, periodsPerYear: 365 };
    expect(sharpeRatioStandardError(-1.5, o)).toBe(sharpeRatioStandardError(1.5, o));
    const quarter = sharpeRatioStandardError(1.5, { observations: 400, periodsPerYear: 365 });
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

  it("NaN for NaN or fewer than two observations; Infinity for an infinite ratio", () => {
    expect(sharpeRatioStandardError(Number.NaN, { observations: 40, periodsPerYear: 365 })).toBeNaN();
    expect(sharpeRatioStandardError(1, { observations: 1, periodsPerYear: 365 })).toBeNaN();
    expect(sharpeRatioStandardError(1, { observations: 0, periodsPerYear: 365 })).toBeNaN();
    expect(sharpeRatioStandardError(Number.POSITIVE_INFINITY, { observations: 10, periodsPerYear: 365 })).toBe(Number.POSITIVE_INFINITY);
    // Zero Sharpe: sqrt(P / n) = sqrt(365 / 365) = 1.
    expect(sharpeRatioStandardError(0, { observations: 365, periodsPerYear: 365 })).toBe(1);
  });

  it("rejects a bad observation count or periodsPerYear, naming the option", () => {
    expect(() => sharpeRatioStandardError(1, { observations: 2.5, periodsPerYear: 365 })).toThrow(InvalidArgumentError);
    expect(() => sharpeRatioStandardError(1, { observations: -1, periodsPerYear: 365 })).toThrow("sharpeRatioStandardError: observations must be");
    expect(() => sharpeRatioStandardError(1, { observations: 10, periodsPerYear: 0 })).toThrow("sharpeRatioStandardError: periodsPerYear must be");
    expect(() => sharpeRatioStandardError(1, { observations: 10, periodsPerYear: Number.NaN })).toThrow(InvalidArgumentError);
  });
});
