/**
 * Return metrics against empyrical's published test values
 * (quantopian/empyrical, empyrical/tests/test_stats.py, fixtures
 * simple_benchmark, positive_returns, negative_returns, mixed_returns,
 * flat_line_1, weekly_returns, monthly_returns, one_return, empty_returns;
 * empyrical checks them to 8 decimals, DECIMAL_PLACES = 8) and against
 * values computed once with numpy 1.24 (Debian /usr/bin/python3), pasted
 * with the expression used.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/InvalidArgumentError.js";
import { mulberry32 } from "../support/mulberry32.js";
import {
  kurtosis,
  skewness,
  rollingSharpe,
  alphaBeta,
  informationRatio,
  annualReturn,
  annualVolatility,
  calmarRatio,
  conditionalValueAtRisk,
  cumReturns,
  cumReturnsFinal,
  downsideRisk,
  drawdownDetails,
  maxDrawdown,
  omegaRatio,
  sharpeRatio,
  sortinoRatio,
  stabilityOfTimeseries,
  tailRatio,
  valueAtRisk,
} from "../../src/metrics/index.js";

const pct = (xs: number[]) => xs.map((x) => x / 100);
// empyrical test fixtures (daily unless said otherwise)
const simpleBenchmark = pct([0, 1, 0, 1, 0, 1, 0, 1, 0]);
const positiveReturns = pct([1, 2, 1, 1, 1, 1, 1, 1, 1]);
const negativeReturns = pct([0, -6, -7, -1, -9, -2, -6, -8, -5]);
const mixedReturns = pct([Number.NaN, 1, 10, -4, 2, 3, 2, 1, -10]);
const flatLine1 = pct([1, 1, 1, 1, 1, 1, 1, 1, 1]);
const flatLine1Long = new Array<number>(1000).fill(0.01); // empyrical flat_line_1_tz
const weeklyReturns = pct([0, 1, 10, -4, 2, 3, 2, 1, -10]);
const oneReturn = [0.01];
const empty: number[] = [];
const DAILY = { periodsPerYear: 252 };
/** The numpy cross-checks on R annualise over a 365-day year (crypto trades every day). */
const YEAR365 = { periodsPerYear: 365 };
const WEEKLY = { periodsPerYear: 52 };
const MONTHLY = { periodsPerYear: 12 };

/** empyrical's assert_almost_equal(actual, desired, 8): |a - d| < 1.5e-8. NaN equals NaN, inf equals inf. */
function close8(actual: number, expected: number, decimals = 8): void {
  if (Number.isNaN(expected)) return void expect(actual).toBeNaN();
  if (!Number.isFinite(expected)) return void expect(actual).toBe(expected);
  expect(Math.abs(actual - expected)).toBeLessThan(1.5 * 10 ** -decimals);
}

// A 20-bar series with a NaN, used for the numpy cross-checks below.
const R = [0.012, -0.004, 0.027, -0.019, 0.003, Number.NaN, 0.008, -0.031, 0.015, 0.006, -0.002, 0.021, -0.011, 0.004, 0.0, -0.007, 0.018, -0.025, 0.01, 0.005];

describe("cumReturns / cumReturnsFinal (empyrical test_cum_returns, test_cum_returns_final, 4 decimals)", () => {
  it("matches the published cumulative returns", () => {
    const cases: [number[], number, number[]][] = [
      [mixedReturns, 0, [0.0, 0.01, 0.111, 0.066559, 0.08789, 0.12052, 0.14293, 0.15436, 0.03893]],
      [mixedReturns, 100, [100.0, 101.0, 111.1, 106.65599, 108.78912, 112.05279, 114.29384, 115.43678, 103.8931]],
      [negativeReturns, 0, [0.0, -0.06, -0.1258, -0.13454, -0.21243, -0.22818, -0.27449, -0.33253, -0.3659]],
    ];
    for (const [r, start, expected] of cases) {
      const got = cumReturns(r, { startingValue: start });
      expect(got).toHaveLength(r.length);
      expected.forEach((e, i) => close8(got[i] as number, e, 4));
    }
    expect(cumReturns(empty)).toHaveLength(0);
  });
  it("options come as an object: the 0.1 positional calls are refused, naming the new form", () => {
    const legacy = (f: unknown, ...args: unknown[]) => () => (f as (...a: unknown[]) => unknown)(...args);
    expect(legacy(cumReturns, mixedReturns, 100)).toThrow(
      "cumReturns: options must be an object, e.g. cumReturns(returns, { startingValue: 100 }) (options are no longer positional), got 100",
    );
    expect(legacy(cumReturnsFinal, mixedReturns, 100)).toThrow("cumReturnsFinal: options must be an object, e.g. cumReturnsFinal(returns, { startingValue: 100 })");
    expect(legacy(valueAtRisk, R, 0.1)).toThrow("valueAtRisk: options must be an object, e.g. valueAtRisk(returns, { cutoff: 0.05 })");
    expect(legacy(conditionalValueAtRisk, R, 0.1)).toThrow(InvalidArgumentError);
  });
  it("final value", () => {
    expect(cumReturnsFinal(empty)).toBeNaN();
    close8(cumReturnsFinal(oneReturn), 0.01, 4);
    close8(cumReturnsFinal(mixedReturns), 0.03893, 4);
    close8(cumReturnsFinal(mixedReturns, { startingValue: 100 }), 103.8931, 4);
    close8(cumReturnsFinal(negativeReturns), -0.3659, 4);
    // numpy: np.cumprod(1 + np.nan_to_num(r))[-1] - 1
    close8(cumReturnsFinal(R), 0.028262345830889934, 12);
  });
});

describe("maxDrawdown (empyrical test_max_drawdown)", () => {
  it("matches the published values", () => {
    expect(maxDrawdown(empty)).toBeNaN();
    close8(maxDrawdown(oneReturn), 0);
    close8(maxDrawdown(simpleBenchmark), 0);
    close8(maxDrawdown(mixedReturns), -0.1);
    close8(maxDrawdown(positiveReturns), 0);
    close8(maxDrawdown(negativeReturns), -0.365907303498736);
    close8(maxDrawdown(pct([10, -10, 10])), -0.1);
    // numpy: W = concat([1], cumprod(1 + nan_to_num(r))); min(W / maximum.accumulate(W) - 1)
    close8(maxDrawdown(R), -0.03893170686400016, 12);
  });
  it("drawdownDetails: location and time under water of the numpy-checked series", () => {
    // numpy underwater curve W / maximum.accumulate(W) - 1 of R: returns 3..15 under water,
    // return 16 back at the peak (0), returns 17..19 under water again; trough at return 7.
    const d = drawdownDetails(R);
    expect(d).toEqual({
      maxDrawdown: maxDrawdown(R),
      peakIndex: 2,
      troughIndex: 7,
      recoveryIndex: 16,
      maxDuration: 13,
      maxDrawdownDuration: 13,
    });
  });
  it("drawdownDetails: a drawdown from the start that never recovers", () => {
    const d = drawdownDetails([-0.1, 0.05, -0.2]);
    expect(d.peakIndex).toBe(-1);
    expect(d.troughIndex).toBe(2);
    expect(d.recoveryIndex).toBe(-1);
    expect(d.maxDuration).toBe(3);
    expect(d.maxDrawdownDuration).toBe(3);
    close8(d.maxDrawdown, 0.9 * 1.05 * 0.8 - 1, 14);
  });
  it("drawdownDetails: empty and never under water", () => {
    expect(drawdownDetails(empty).maxDrawdown).toBeNaN();
    expect(drawdownDetails(positiveReturns)).toEqual({ maxDrawdown: 0, peakIndex: -1, troughIndex: -1, recoveryIndex: -1, maxDuration: 0, maxDrawdownDuration: 0 });
  });
});

describe("annualReturn (empyrical test_annual_ret, test_cagr)", () => {
  it("matches the published values", () => {
    expect(annualReturn(empty, DAILY)).toBeNaN();
    close8(annualReturn(mixedReturns, DAILY), 1.9135925373194231);
    close8(annualReturn(weeklyReturns, WEEKLY), 0.24690830513998208);
    close8(annualReturn(weeklyReturns, MONTHLY), 0.052242061386048144); // monthly_returns has the same values
    close8(annualReturn(oneReturn, DAILY), 11.274002099240244);
    close8(annualReturn(flatLine1Long, DAILY), 11.274002099240256);
    close8(annualReturn(pct([3, 3, 3]), { periodsPerYear: 1 }), 0.03);
    // numpy: w[-1] ** (365 / len(r)) - 1, len(r) = 20 including the NaN
    close8(annualReturn(R, YEAR365), 0.6630173086867801, 10);
  });
});

describe("annualVolatility (empyrical test_annual_volatility)", () => {
  it("matches the published values", () => {
    close8(annualVolatility(flatLine1Long, DAILY), 0);
    close8(annualVolatility(mixedReturns, DAILY), 0.9136465399704637);
    close8(annualVolatility(weeklyReturns, WEEKLY), 0.38851569394870583);
    close8(annualVolatility(weeklyReturns, MONTHLY), 0.18663690238892558);
    // numpy: np.nanstd(r, ddof=1) * np.sqrt(365)
    close8(annualVolatility(R, YEAR365), 0.2919246978927375, 12);
  });
  it("NaN below two returns", () => {
    expect(annualVolatility(empty, YEAR365)).toBeNaN();
    expect(annualVolatility(oneReturn, YEAR365)).toBeNaN();
    expect(annualVolatility([Number.NaN, 0.01], YEAR365)).toBeNaN();
  });
});

describe("calmarRatio (empyrical test_calmar)", () => {
  it("matches the published values", () => {
    expect(calmarRatio(empty, DAILY)).toBeNaN();
    expect(calmarRatio(oneReturn, DAILY)).toBeNaN();
    close8(calmarRatio(mixedReturns, DAILY), 19.135925373194233);
    close8(calmarRatio(weeklyReturns, WEEKLY), 2.4690830513998208);
    close8(calmarRatio(weeklyReturns, MONTHLY), 0.52242061386048144);
  });
  it("NaN without a drawdown", () => {
    expect(calmarRatio(positiveReturns, DAILY)).toBeNaN();
  });
});

describe("omegaRatio (empyrical test_omega, annualization 252)", () => {
  it("matches the published values", () => {
    const cases: [number[], number | number[], number, number][] = [
      [empty, 0, 0, Number.NaN],
      [oneReturn, 0, 0, Number.NaN],
      [mixedReturns, 0, 10, 0.83354263497557934],
      [mixedReturns, 0, -10, Number.NaN],
      [mixedReturns, flatLine1, 0, 0.8125],
      [positiveReturns, 0.01, 0, Number.NaN],
      [positiveReturns, 0.011, 0, 1.125],
      [positiveReturns, 0.02, 0, 0],
      [negativeReturns, 0.01, 0, 0],
    ];
    for (const [r, riskFree, requiredReturn, expected] of cases) {
      close8(omegaRatio(r, { periodsPerYear: 252, riskFree, requiredReturn }), expected);
    }
  });
  it("periodsPerYear 1 uses the required return as is", () => {
    // gains above 0.01: 0.01 (from 0.02); losses: 0.02 + 0.01 -> 0.01 / 0.03
    close8(omegaRatio([0.02, -0.01, 0], { periodsPerYear: 1, requiredReturn: 0.01 }), 1 / 3, 14);
  });
  it("numpy cross-check", () => {
    // numpy: th = 1.1 ** (1/365) - 1; e = x - th (x = r without NaN); e[e>0].sum() / -e[e<0].sum()
    close8(omegaRatio(R, { ...YEAR365, requiredReturn: 0.1 }), 1.2476820941171085, 12);
  });
});

describe("sharpeRatio (empyrical test_sharpe_ratio, 252 periods)", () => {
  it("matches the published values", () => {
    const cases: [number[], number | number[], number][] = [
      [empty, 0, Number.NaN],
      [oneReturn, 0, Number.NaN],
      [mixedReturns, mixedReturns, Number.NaN],
      [mixedReturns, 0, 1.7238613961706866],
      [mixedReturns, simpleBenchmark, 0.34111411441060574],
      [positiveReturns, 0, 52.915026221291804],
      [negativeReturns, 0, -24.406808633910085],
      [flatLine1, 0, Number.POSITIVE_INFINITY],
    ];
    for (const [r, riskFree, expected] of cases) close8(sharpeRatio(r, { ...DAILY, riskFree }), expected);
  });
  it("numpy cross-check with a risk-free rate, default 365-day year", () => {
    // numpy: np.nanmean(r - 0.0001) / np.nanstd(r - 0.0001, ddof=1) * np.sqrt(365)
    close8(sharpeRatio(R, { ...YEAR365, riskFree: 0.0001 }), 1.8491610794508035, 12);
    // numpy: np.nanmean(r) / np.nanstd(r, ddof=1) * np.sqrt(365)
    close8(sharpeRatio(R, YEAR365), 1.974193323257085, 12);
  });
  it("a constant series has exactly zero variance (no 1e16 from rounding noise)", () => {
    expect(sharpeRatio(new Array<number>(10).fill(0.1), YEAR365)).toBe(Number.POSITIVE_INFINITY);
    expect(sharpeRatio(new Array<number>(10).fill(-0.3), YEAR365)).toBe(Number.NEGATIVE_INFINITY);
    expect(sharpeRatio(new Array<number>(10).fill(0), YEAR365)).toBeNaN();
  });
});

describe("downsideRisk (empyrical test_downside_risk)", () => {
  it("matches the published values", () => {
    const cases: [number[], number | number[], { periodsPerYear: number }, number][] = [
      [empty, 0, DAILY, Number.NaN],
      [oneReturn, 0, DAILY, 0],
      [mixedReturns, mixedReturns, DAILY, 0],
      [mixedReturns, 0, DAILY, 0.60448325038829653],
      [mixedReturns, 0.1, DAILY, 1.7161730681956295],
      [weeklyReturns, 0, WEEKLY, 0.25888650451930134],
      [weeklyReturns, 0.1, WEEKLY, 0.7733045971672482],
      [weeklyReturns, 0, MONTHLY, 0.1243650540411842],
      [weeklyReturns, 0.1, MONTHLY, 0.37148351242013422],
    ];
    for (const [r, requiredReturn, o, expected] of cases) close8(downsideRisk(r, { ...o, requiredReturn }), expected);
  });
  it("numpy cross-check", () => {
    // numpy: d = np.minimum(r - 0.001, 0); np.sqrt(np.nanmean(d**2)) * np.sqrt(365)
    close8(downsideRisk(R, { ...YEAR365, requiredReturn: 0.001 }), 0.21215622347198476, 12);
  });
});

describe("sortinoRatio (empyrical test_sortino, current version with period-aware downside risk)", () => {
  it("matches the published values", () => {
    const cases: [number[], number | number[], { periodsPerYear: number }, number][] = [
      [empty, 0, DAILY, Number.NaN],
      [oneReturn, 0, DAILY, Number.NaN],
      [mixedReturns, mixedReturns, DAILY, Number.NaN],
      [mixedReturns, 0, DAILY, 2.605531251673693],
      [mixedReturns, flatLine1, DAILY, -1.3934779588919977],
      [positiveReturns, 0, DAILY, Number.POSITIVE_INFINITY],
      [negativeReturns, 0, DAILY, -13.532743075043401],
      [simpleBenchmark, 0, DAILY, Number.POSITIVE_INFINITY],
      [weeklyReturns, 0, WEEKLY, 1.1158901056866439],
      [weeklyReturns, 0, MONTHLY, 0.53605626741889756],
    ];
    for (const [r, requiredReturn, o, expected] of cases) close8(sortinoRatio(r, { ...o, requiredReturn }), expected);
  });
  it("numpy cross-check", () => {
    // numpy: np.nanmean(r - 0.001) / np.sqrt(np.nanmean(np.minimum(r - 0.001, 0)**2)) * np.sqrt(365)
    close8(sortinoRatio(R, { ...YEAR365, requiredReturn: 0.001 }), 0.9960386078496932, 12);
  });
});

describe("valueAtRisk / conditionalValueAtRisk (empyrical test_value_at_risk, test_conditional_value_at_risk)", () => {
  it("VaR matches the published values", () => {
    close8(valueAtRisk([1, 2], { cutoff: 0 }), 1);
    close8(valueAtRisk([1, 2], { cutoff: 0.3 }), 1.3);
    close8(valueAtRisk([1, 2], { cutoff: 1 }), 2);
    close8(valueAtRisk([1, 81, 82, 83, 84, 85], { cutoff: 0.1 }), 41);
    close8(valueAtRisk([1, 81, 82, 83, 84, 85], { cutoff: 0.2 }), 81);
    close8(valueAtRisk([1, 81, 82, 83, 84, 85], { cutoff: 0.3 }), 81.5);
  });
  it("CVaR of one value is that value at any cutoff", () => {
    expect(conditionalValueAtRisk([-0.013], { cutoff: 0 })).toBe(-0.013);
    expect(conditionalValueAtRisk([-0.013], { cutoff: 1 })).toBe(-0.013);
  });
  it("numpy cross-check (NaN dropped first)", () => {
    // numpy: np.percentile(x, 5), np.percentile(x, 10); k = int((len(x)-1)*0.1); np.mean(np.sort(x)[:k+1])
    close8(valueAtRisk(R), -0.0256, 12);
    close8(valueAtRisk(R, { cutoff: 0.1 }), -0.0202, 12);
    close8(conditionalValueAtRisk(R, { cutoff: 0.1 }), -0.028, 12);
    // CVaR equals the mean of the returns at or below VaR (empyrical's test formulation)
    const v = valueAtRisk(R, { cutoff: 0.1 });
    const tail = R.filter((x) => x <= v);
    close8(conditionalValueAtRisk(R, { cutoff: 0.1 }), tail.reduce((a, b) => a + b, 0) / tail.length, 14);
  });
  it("empty (or all NaN) gives NaN; a bad cutoff throws", () => {
    expect(valueAtRisk(empty)).toBeNaN();
    expect(conditionalValueAtRisk([Number.NaN])).toBeNaN();
    expect(() => valueAtRisk(R, { cutoff: 1.5 })).toThrow(InvalidArgumentError);
    expect(() => valueAtRisk(R, { cutoff: 1.5 })).toThrow("valueAtRisk: cutoff must be a probability in [0, 1] (0.05 for the 5 % tail), got 1.5");
    expect(() => conditionalValueAtRisk(R, { cutoff: -0.1 })).toThrow("conditionalValueAtRisk: cutoff must be a probability in [0, 1]");
  });
});

describe("tailRatio and stabilityOfTimeseries (empyrical test_tail_ratio, test_stability_of_timeseries)", () => {
  it("tail ratio matches the published values", () => {
    expect(tailRatio(empty)).toBeNaN();
    close8(tailRatio(oneReturn), 1);
    close8(tailRatio(mixedReturns), 0.9473684210526313, 1); // empyrical checks this one to 1 decimal only
    // numpy: x = mixed_returns without its NaN; abs(np.percentile(x, 95)) / abs(np.percentile(x, 5))
    close8(tailRatio(mixedReturns), 0.9556962025316452, 12);
    // numpy: abs(np.percentile(x, 95)) / abs(np.percentile(x, 5))
    close8(tailRatio(R), 0.8437499999999994, 12);
  });
  it("stability matches the published values", () => {
    expect(stabilityOfTimeseries(empty)).toBeNaN();
    expect(stabilityOfTimeseries(oneReturn)).toBeNaN();
    close8(stabilityOfTimeseries(mixedReturns), 0.1529973665111273);
    close8(stabilityOfTimeseries(flatLine1Long), 1);
    // numpy: c = np.cumsum(np.log1p(x)); np.corrcoef(np.arange(len(c)), c)[0, 1] ** 2
    close8(stabilityOfTimeseries(R), 0.14083373035907326, 12);
  });
});

describe("alphaBeta and informationRatio (empyrical test_alpha_beta, test_alpha, test_beta, test_information_ratio)", () => {
  // F: a benchmark for R with its own NaN at another bar
  const F = [0.01, -0.002, 0.02, -0.01, 0.001, 0.003, Number.NaN, -0.02, 0.012, 0.002, 0.001, 0.015, -0.008, 0.0, 0.002, -0.004, 0.011, -0.02, 0.004, 0.003];
  it("information ratio matches the published values (per period, not annualised)", () => {
    expect(informationRatio(empty, 0)).toBeNaN();
    expect(informationRatio(oneReturn, 0)).toBeNaN();
    close8(informationRatio(mixedReturns, 0), 0.10859306069076737);
    close8(informationRatio(mixedReturns, flatLine1), -0.06515583641446039);
    expect(informationRatio(mixedReturns, mixedReturns)).toBeNaN(); // zero tracking error
  });
  it("alpha / beta match the published identities", () => {
    expect(alphaBeta(empty, empty, DAILY)).toEqual({ alpha: Number.NaN, beta: Number.NaN });
    expect(alphaBeta(oneReturn, oneReturn, DAILY)).toEqual({ alpha: Number.NaN, beta: Number.NaN });
    expect(alphaBeta(mixedReturns, flatLine1, DAILY)).toEqual({ alpha: Number.NaN, beta: Number.NaN }); // constant factor
    const same = alphaBeta(mixedReturns, mixedReturns, DAILY);
    close8(same.alpha, 0);
    close8(same.beta, 1);
    const inverse = alphaBeta(mixedReturns, mixedReturns.map((x) => -x), DAILY);
    close8(inverse.alpha, 0);
    close8(inverse.beta, -1);
  });
  it("numpy cross-check over complete pairs", () => {
    // numpy: m = ~isnan(r) & ~isnan(f); beta = np.polyfit(f[m], r[m], 1)[0]
    //        alpha = (1 + np.mean(r[m] - rf - beta * (f[m] - rf))) ** 365 - 1, rf = 0.0001
    const ab = alphaBeta(R, F, { ...YEAR365, riskFree: 0.0001 });
    close8(ab.beta, 1.4221280628885231, 12);
    close8(ab.alpha, -0.028312949354918016, 12);
  });
  it("bad arguments throw", () => {
    expect(() => alphaBeta(R, [0.01], YEAR365)).toThrow("alphaBeta: returns and factorReturns must cover the same bars, got 20 and 1 values");
    expect(() => alphaBeta(R, R, { ...YEAR365, riskFree: Number.NaN })).toThrow("alphaBeta: riskFree must be a number (per-period return), got NaN");
    expect(() => informationRatio(R, [0.1])).toThrow("informationRatio: benchmark must have one value per return (20), got 1");
  });
});

describe("rollingSharpe (empyrical test_roll_sharpe_ratio, window 6, 252 periods)", () => {
  it("matches the published values, input length kept with NaN warm-up", () => {
    const m = rollingSharpe(mixedReturns, { ...DAILY, window: 6 });
    expect(m).toHaveLength(9);
    expect(Array.from(m.subarray(0, 5))).toEqual([Number.NaN, Number.NaN, Number.NaN, Number.NaN, Number.NaN]);
    [7.57445259, 8.22784105, 8.22784105, -3.1374751].forEach((e, i) => close8(m[5 + i] as number, e, 7));
    const neg = rollingSharpe(negativeReturns, { ...DAILY, window: 6 });
    [-18.09162052, -26.79897486, -26.69138263, -25.72298838].forEach((e, i) => close8(neg[5 + i] as number, e, 7));
  });
  it("numpy cross-check with a risk-free rate", () => {
    // numpy: x = r[t-4:t+1] - 0.0001; np.nanmean(x) / np.nanstd(x, ddof=1) * np.sqrt(365), window 5
    const expected = [4.103830200203191, 1.6441917721303523, 4.697975535473125, -10.232076066743469, -1.2621431726020933, -0.5538686017599876, -0.9586573607621689, 1.5987410239444166, 8.485442371522955, 5.6859545845212205, 3.736484441256803, 1.9994328424605938, 1.188108669249051, -2.5450864010348244, -1.0393254044378155, 0.11403160206731781];
    const got = rollingSharpe(R, { ...YEAR365, window: 5, riskFree: 0.0001 });
    expected.forEach((e, i) => close8(got[4 + i] as number, e, 12));
  });
  it("equals sharpeRatio on every full window of a long series (re-summing keeps it exact)", () => {
    const long = Float64Array.from({ length: 9000 }, (_, i) => Math.sin(i * 0.37) * 0.01 + 0.0002);
    const got = rollingSharpe(long, { ...YEAR365, window: 50 });
    for (const t of [49, 4095, 4096, 8191, 8999]) close8(got[t] as number, sharpeRatio(long.subarray(t - 49, t + 1), YEAR365), 9);
  });
  it("constant windows: exact zero variance (a zero excess return: NaN, as pandas); empty; bad window", () => {
    expect(Array.from(rollingSharpe([0.01, 0.01, 0.01], { ...YEAR365, window: 3 }))).toEqual([Number.NaN, Number.NaN, Number.POSITIVE_INFINITY]);
    // all-zero windows after other values: 0 / 0 (the running sums leave 1e-18 residues; it was +-Infinity)
    const flat = rollingSharpe([0.01, 0.03, -0.02, 0, 0, 0, 0, 0.01, 0.01, 0.01, Number.NaN, 0.01, 0, 0], { ...YEAR365, window: 3 });
    expect(Array.from(flat.subarray(5, 7))).toEqual([Number.NaN, Number.NaN]);
    expect(Array.from(flat.subarray(9, 12))).toEqual([Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY]);
    expect(Array.from(rollingSharpe([0.0001, 0.0001, 0.0001], { ...YEAR365, window: 2, riskFree: 0.0001 }))).toEqual([Number.NaN, Number.NaN, Number.NaN]);
    expect(rollingSharpe(empty, { ...YEAR365, window: 3 })).toHaveLength(0);
    expect(() => rollingSharpe(R, { ...YEAR365, window: 1 })).toThrow("rollingSharpe: window must be an integer >= 2 (returns per window), got 1");
  });
});

describe("rollingSharpe against pandas on a half-flat strategy (spawned /usr/bin/python3)", () => {
  // A strategy flat half of the time: stretches of exact zeros (0 / 0: NaN in pandas and empyrical), a few constant
  // non-zero stretches (x / 0: +-inf), missing returns, and ordinary noise. Reference, pandas 1.5:
  // x = r - rf; (x.rolling(w, min_periods=2).mean() / x.rolling(w, min_periods=2).std() * sqrt(365)), first w - 1 NaN.
  const python = "/usr/bin/python3";
  it.skipIf(!existsSync(python))("matches pandas value for value: the same NaN, the same infinities, finite values to 1e-9", () => {
    const rnd = mulberry32(21);
    const n = 6000;
    const r = new Float64Array(n);
    let state = 0;
    for (let i = 0; i < n; i++) {
      if (rnd() < 0.02) state = Math.floor(rnd() * 3); // 0 trading, 1 flat, 2 a constant carry
      r[i] = state === 0 ? 0.01 * (rnd() - 0.48) : state === 1 ? 0 : 0.0004;
      if (rnd() < 0.01) r[i] = Number.NaN;
    }
    for (const [window, riskFree] of [[20, 0], [7, 0.0004]] as const) {
      const got = rollingSharpe(r, { periodsPerYear: 365, window, riskFree });
      const script = [
        "import sys, json, numpy as np, pandas as pd",
        "d = json.load(sys.stdin); w = d['w']",
        "x = pd.Series([np.nan if v is None else v for v in d['r']]) - d['rf']",
        "s = (x.rolling(w, min_periods=2).mean() / x.rolling(w, min_periods=2).std() * np.sqrt(365)).to_numpy()",
        "s[: w - 1] = np.nan",
        "print(json.dumps([None if np.isnan(v) else ('inf' if v > 0 else '-inf') if np.isinf(v) else float(v) for v in s]))",
      ].join("\n");
      const out = execFileSync(python, ["-c", script], { input: JSON.stringify({ r: Array.from(r, (v) => (Number.isNaN(v) ? null : v)), w: window, rf: riskFree }), encoding: "utf8", maxBuffer: 1 << 24 });
      const want = (JSON.parse(out) as (number | string | null)[]).map((v) => (v === null ? Number.NaN : v === "inf" ? Infinity : v === "-inf" ? -Infinity : v));
      let nan = 0;
      let inf = 0;
      for (let t = 0; t < n; t++) {
        const e = want[t] as number;
        const g = got[t] as number;
        if (Number.isNaN(e) || !Number.isFinite(e)) {
          if (!Object.is(g, e)) expect.fail(`window ${window}, bar ${t}: rollingSharpe ${g}, pandas ${e}`);
          if (Number.isNaN(e)) nan++;
          else inf++;
        } else if (!(Math.abs(g - e) <= 1e-9 * Math.max(1, Math.abs(e)))) {
          expect.fail(`window ${window}, bar ${t}: rollingSharpe ${g}, pandas ${e}`);
        }
      }
      // the series exercises both zero-variance cases
      expect(nan).toBeGreaterThan(500);
      expect(inf).toBeGreaterThan(100);
    }
  });
});

describe("skewness and kurtosis (scipy.stats defaults: bias=True, Fisher)", () => {
  it("numpy cross-check, NaN skipped", () => {
    // numpy: x = r[~isnan(r)]; d = x - x.mean(); m2, m3, m4 = (d**2).mean(), (d**3).mean(), (d**4).mean()
    //        skew = m3 / m2**1.5; kurt = m4 / m2**2 - 3
    close8(skewness(R), -0.5148500819291661, 12);
    close8(kurtosis(R), -0.288409850184812, 12);
    close8(skewness(mixedReturns), -0.3650572690177865, 12);
    close8(kurtosis(mixedReturns), 0.11953473165699213, 12);
  });
  it("empty and constant: NaN", () => {
    expect(skewness(empty)).toBeNaN();
    expect(kurtosis(flatLine1)).toBeNaN();
    expect(skewness([Number.NaN])).toBeNaN();
  });
});

describe("shared behaviour", () => {
  const scalar = {
    annualReturn: (r: ArrayLike<number>) => annualReturn(r, YEAR365),
    annualVolatility: (r: ArrayLike<number>) => annualVolatility(r, YEAR365),
    sharpeRatio: (r: ArrayLike<number>) => sharpeRatio(r, YEAR365),
    sortinoRatio: (r: ArrayLike<number>) => sortinoRatio(r, YEAR365),
    downsideRisk: (r: ArrayLike<number>) => downsideRisk(r, YEAR365),
    calmarRatio: (r: ArrayLike<number>) => calmarRatio(r, YEAR365),
    omegaRatio: (r: ArrayLike<number>) => omegaRatio(r),
    maxDrawdown: (r: ArrayLike<number>) => maxDrawdown(r),
    valueAtRisk: (r: ArrayLike<number>) => valueAtRisk(r),
    conditionalValueAtRisk: (r: ArrayLike<number>) => conditionalValueAtRisk(r),
    tailRatio: (r: ArrayLike<number>) => tailRatio(r),
    stabilityOfTimeseries: (r: ArrayLike<number>) => stabilityOfTimeseries(r),
    cumReturnsFinal: (r: ArrayLike<number>) => cumReturnsFinal(r),
    skewness: (r: ArrayLike<number>) => skewness(r),
    kurtosis: (r: ArrayLike<number>) => kurtosis(r),
  };
  it("every scalar metric is NaN on empty input", () => {
    for (const [name, f] of Object.entries(scalar)) expect([name, f(empty)]).toEqual([name, Number.NaN]);
  });
  it("number[] and Float64Array give identical results, and inputs are not mutated", () => {
    const arr = R.slice();
    const typed = Float64Array.from(R);
    for (const [name, f] of Object.entries(scalar)) {
      const a = f(arr);
      const b = f(typed);
      expect([name, a]).toEqual([name, b]);
    }
    cumReturns(typed, { startingValue: 100 });
    downsideRisk(typed, { ...YEAR365, requiredReturn: 0.5 });
    expect(arr).toEqual(R);
    expect(Array.from(typed)).toEqual(R);
  });
  it("bad options throw InvalidArgumentError naming the function and the fix", () => {
    expect(() => sharpeRatio(R, { periodsPerYear: 0 })).toThrow(
      "sharpeRatio: periodsPerYear must be a positive finite number (365 for daily bars, 8760 hourly), got 0",
    );
    expect(() => annualReturn(R, { periodsPerYear: Number.NaN })).toThrow(InvalidArgumentError);
    expect(() => annualVolatility(R, { periodsPerYear: -252 })).toThrow("annualVolatility: periodsPerYear");
    expect(() => sharpeRatio(R, { ...YEAR365, riskFree: [0.01, 0.02] })).toThrow(
      "sharpeRatio: riskFree must have one value per return (20), got 2; pass a number for a constant rate",
    );
    expect(() => sortinoRatio(R, { ...YEAR365, requiredReturn: Number.NaN })).toThrow("sortinoRatio: requiredReturn must be a number");
    expect(() => omegaRatio(R, { requiredReturn: Number.NaN })).toThrow("omegaRatio: requiredReturn must be an annual decimal return, got NaN");
    expect(() => maxDrawdown(null as unknown as number[])).toThrow("maxDrawdown: returns must be an array or Float64Array of numbers, got null");
  });
  it("one annualisation rule: no periodsPerYear and no time is a typed error naming both options", () => {
    const none = {} as never;
    const calls: [string, () => unknown][] = [
      ["annualReturn", () => annualReturn(R, none)],
      ["annualVolatility", () => annualVolatility(R, none)],
      ["sharpeRatio", () => sharpeRatio(R, none)],
      ["sortinoRatio", () => sortinoRatio(R, none)],
      ["downsideRisk", () => downsideRisk(R, none)],
      ["calmarRatio", () => calmarRatio(R, none)],
      ["alphaBeta", () => alphaBeta(R, R, none)],
      ["rollingSharpe", () => rollingSharpe(R, { window: 5 } as never)],
      ["omegaRatio", () => omegaRatio(R, { requiredReturn: 0.1 })], // an annual threshold needs the bar length
      ["sharpeRatio", () => sharpeRatio(R, undefined as never)], // from JavaScript, no options at all
    ];
    for (const [name, call] of calls) {
      let error: unknown;
      try {
        call();
      } catch (e) {
        error = e;
      }
      expect(error, name).toBeInstanceOf(InvalidArgumentError);
      expect((error as Error).message, name).toBe(
        `${name}: annualising needs the bar length: pass periodsPerYear (365 for daily bars, 8760 hourly, 525600 one-minute) or time (bar times, epoch ms, to infer it)`,
      );
    }
    // A zero annual threshold is zero per period at any bar length: omegaRatio needs neither.
    expect(omegaRatio(R)).toBe(omegaRatio(R, YEAR365));
  });
  it("time infers periodsPerYear (365-day year); periodsPerYear wins when both are given", () => {
    const hourly = R.map((_, i) => Date.UTC(2024, 0, 1) + i * 3_600_000);
    const fourHour = R.map((_, i) => i * 4 * 3_600_000);
    expect(sharpeRatio(R, { time: hourly })).toBe(sharpeRatio(R, { periodsPerYear: 8760 }));
    expect(annualReturn(R, { time: fourHour })).toBe(annualReturn(R, { periodsPerYear: 2190 }));
    expect(annualVolatility(R, { time: [0, 86_400_000] })).toBe(annualVolatility(R, YEAR365)); // only the spacing is read
    expect(sortinoRatio(R, { time: hourly, periodsPerYear: 365 })).toBe(sortinoRatio(R, YEAR365));
    expect(rollingSharpe(R, { window: 5, time: hourly })).toEqual(rollingSharpe(R, { window: 5, periodsPerYear: 8760 }));
    expect(() => sharpeRatio(R, { time: [5, 4, 3] })).toThrow(
      "sharpeRatio: cannot infer periodsPerYear from time (inferPeriodsPerYear: the median bar spacing must be positive, got -1 ms; sort the times ascending and drop duplicates); pass periodsPerYear",
    );
  });
  it("rollingSharpe's window is an option now: the 0.1 positional call is refused with the new form", () => {
    expect(() => (rollingSharpe as unknown as (r: number[], w: number) => unknown)(R, 5)).toThrow(
      "rollingSharpe: options must be an object like { window: 30, periodsPerYear: 365 } (the window is no longer a positional argument), got 5",
    );
  });
  it("periodsPerYear scales Sharpe by sqrt and leaves max drawdown alone", () => {
    close8(sharpeRatio(R, { periodsPerYear: 365 * 4 }) / sharpeRatio(R, { periodsPerYear: 365 }), 2, 12);
    expect(maxDrawdown(R)).toBe(maxDrawdown(R));
  });
});
