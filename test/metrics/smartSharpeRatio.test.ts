/**
 * smartSharpeRatio against quantstats' smart_sharpe formula computed in numpy (Debian /usr/bin/python3, numpy 1.24),
 * written out from quantstats stats.py `sharpe(smart=True)` / `autocorr_penalty`:
 *
 *   def smart(r, ppy, rf=0.0):
 *       e = np.asarray(r) - rf; n = len(e)
 *       c = abs(np.corrcoef(e[:-1], e[1:])[0, 1]); k = np.arange(1, n)
 *       pen = np.sqrt(1 + 2 * np.sum((n - k) / n * c ** k))
 *       return e.mean() / (e.std(ddof=1) * pen) * np.sqrt(ppy)
 *
 * on an AR(1) series (coefficient 0.6) built by the same sin-hash recurrence in both languages (see ar1 below).
 */
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/InvalidArgumentError.js";
import { sharpeRatio, smartSharpeRatio } from "../../src/metrics/index.js";

function ar1(n: number): Float64Array {
  const e = new Float64Array(n);
  let x = 0;
  for (let i = 0; i < n; i++) {
    let z = Math.sin(i * 12.9898) * 43758.5453;
    z = z - Math.floor(z) - 0.5;
    x = 0.6 * x + 0.01 * z;
    e[i] = x + 0.0004;
  }
  return e;
}

function close(actual: number, expected: number, rel = 1e-9): void {
  if (!(Math.abs(actual - expected) <= rel * Math.abs(expected))) expect.fail(`expected ${actual} to be within ${rel} (relative) of ${expected}`);
}

describe("smartSharpeRatio (quantstats smart_sharpe: Sharpe / Lo's autocorrelation penalty)", () => {
  const e = ar1(500);
  it("matches the numpy formula on an autocorrelated series, with and without a risk-free rate", () => {
    close(smartSharpeRatio(e, { periodsPerYear: 365 }), 2.6114301061080125); // Sharpe 5.2091, penalty 1.99473
    close(smartSharpeRatio(e, { periodsPerYear: 8760, riskFree: 0.0001 }), 11.46051393702169);
    close(smartSharpeRatio(Float64Array.from(e, (v) => -v), { periodsPerYear: 365 }), -2.6114301061080125);
    close(sharpeRatio(e, { periodsPerYear: 365 }) / smartSharpeRatio(e, { periodsPerYear: 365 }), 1.9947287305174803);
  });
  it("gives the doc's small example: 34.92 / 1.4361", () => {
    close(smartSharpeRatio([0.01, 0.02, 0.03, 0.01], { periodsPerYear: 365 }), 24.31542040396356);
  });
  it("drops NaN returns first (quantstats would fill them with 0), and does not mutate its input", () => {
    const withNaN = Float64Array.from([Number.NaN, ...e.subarray(0, 250), Number.NaN, ...e.subarray(250)]);
    const copy = Float64Array.from(withNaN);
    close(smartSharpeRatio(withNaN, { periodsPerYear: 365 }), 2.6114301061080125);
    expect(Array.from(withNaN)).toEqual(Array.from(copy));
  });
  it("is NaN on empty input, one or two points, and a constant series (the lag-1 correlation is undefined)", () => {
    expect(smartSharpeRatio([], { periodsPerYear: 365 })).toBeNaN();
    expect(smartSharpeRatio([0.01], { periodsPerYear: 365 })).toBeNaN();
    expect(smartSharpeRatio([0.01, 0.02], { periodsPerYear: 365 })).toBeNaN();
    expect(smartSharpeRatio([0.01, 0.01, 0.01, 0.01], { periodsPerYear: 365 })).toBeNaN();
    expect(smartSharpeRatio([0, 0, 0, 0], { periodsPerYear: 365 })).toBeNaN();
  });
  it("throws typed errors naming smartSharpeRatio", () => {
    expect(() => smartSharpeRatio(e, {} as never)).toThrow(InvalidArgumentError);
    expect(() => smartSharpeRatio(e, {} as never)).toThrow(/smartSharpeRatio/);
    expect(() => smartSharpeRatio(e, { periodsPerYear: 365, riskFree: [0.1] })).toThrow(/smartSharpeRatio: riskFree/);
  });
});
