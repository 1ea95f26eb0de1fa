/**
 * realizedVol, atr, atrPercent and the volatility regimes.
 *
 * References computed once with numpy 1.24 / pandas 1.5.3 (Debian, /usr/bin/python3) on
 *   i = np.arange(30); p = 100*np.exp(0.01*np.sin(0.7*i) + 0.002*i + 0.005*np.cos(1.3*i))
 * realized vol:  np.log(pd.Series(p)).diff().rolling(5).std()*np.sqrt(525600)*100        (rv5)
 *                np.log(pd.Series(p)).diff().rolling(10).std()*np.sqrt(365)*100          (rv10)
 * ATR (Wilder), an ewm formulation independent of ours:
 *   h = p*1.01 + 0.3*abs(sin(1.1 i)); l = p*0.99 - 0.2*abs(cos(0.8 i)); c = p*(1 + 0.006*sin(2.1 i))
 *   tr = concat([h-l, |h-c.shift()|, |l-c.shift()|]).max(axis=1)    (bar 0: h-l)
 *   s = NaN series; s[13] = tr[:14].mean(); s[14:] = tr[14:]; atr = s.ewm(alpha=1/14, adjust=False).mean()
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/index.js";
import {
  DEFAULT_VOL_CUTOFFS,
  MINUTES_PER_YEAR,
  VOL_WINDOWS,
  applyRegimeFloor,
  atr,
  atrPercent,
  classifyVolRegime,
  classifyVolRegimes,
  classifyVolRegimesByPercentile,
  realizedVol,
} from "../../src/signals/index.js";
import { mulberry32 } from "./helpers.js";

const I = Array.from({ length: 30 }, (_, i) => i);
const P = I.map((i) => 100 * Math.exp(0.01 * Math.sin(0.7 * i) + 0.002 * i + 0.005 * Math.cos(1.3 * i)));
const H = I.map((i) => P[i]! * 1.01 + 0.3 * Math.abs(Math.sin(1.1 * i)));
const L = I.map((i) => P[i]! * 0.99 - 0.2 * Math.abs(Math.cos(0.8 * i)));
const C = I.map((i) => P[i]! * (1 + 0.006 * Math.sin(2.1 * i)));

const RV5 = [196.612519931666, 299.1810749734579, 308.10100893085655, 433.1249068322806, 666.3974603424102, 688.4791552598705, 544.9409662397935]; // rows 5..11
const RV10 = [12.863272428751612, 12.862981872273703, 13.252649082921058, 13.3094791351959]; // rows 10..13
const RV10_LAST = 12.017615399395948; // row 29
const ATR = [2.412158175967151, 2.3962168702054285, 2.3988663883802848]; // rows 13..15
const ATR_LAST = 2.457222408548021;
const ATR_PCT_LAST = 2.2972962887783965;

const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

describe("realizedVol", () => {
  it("matches pandas rolling std of log returns, annualised, in percent (one-minute bars, 365-day year)", () => {
    const v = realizedVol(P, { window: 5, periodsPerYear: MINUTES_PER_YEAR });
    expect(v.length).toBe(30);
    for (let t = 0; t < 5; t++) expect(v[t]).toBeNaN();
    RV5.forEach((x, k) => expect(rel(v[5 + k]!, x)).toBeLessThan(1e-10));
    expect(MINUTES_PER_YEAR).toBe(365 * 1440);
  });

  it("periodsPerYear option (365 for daily bars)", () => {
    const v = realizedVol(P, { window: 10, periodsPerYear: 365 });
    for (let t = 0; t < 10; t++) expect(v[t]).toBeNaN();
    RV10.forEach((x, k) => expect(rel(v[10 + k]!, x)).toBeLessThan(1e-10));
    expect(rel(v[29]!, RV10_LAST)).toBeLessThan(1e-10);
  });

  it("a numeric window needs periodsPerYear or time (the library's one annualisation rule); time infers it", () => {
    expect(() => realizedVol(P, { window: 5 } as never)).toThrow(
      "realizedVol: annualising needs the bar length: pass periodsPerYear (365 for daily bars, 8760 hourly, 525600 one-minute) or time (bar times, epoch ms, to infer it)",
    );
    expect(() => realizedVol(P, { window: 5 } as never)).toThrow(InvalidArgumentError);
    // Daily stamps: 365 bars a year, the same numbers as periodsPerYear: 365.
    const daily = P.map((_, i) => Date.UTC(2024, 0, 1) + i * 86_400_000);
    expect(realizedVol(P, { window: 10, time: daily })).toEqual(realizedVol(P, { window: 10, periodsPerYear: 365 }));
    const minutes = P.map((_, i) => i * 60_000);
    expect(realizedVol(P, { window: 5, time: minutes })).toEqual(realizedVol(P, { window: 5, periodsPerYear: MINUTES_PER_YEAR }));
  });

  it("named windows are the service's 5m / 1h / 4h / 24h of one-minute returns", () => {
    expect(VOL_WINDOWS).toEqual({ "5m": 5, "1h": 60, "4h": 240, "24h": 1440 });
    expect(realizedVol(P, { window: "5m" })).toEqual(realizedVol(P, { window: 5, periodsPerYear: MINUTES_PER_YEAR }));
    const v = realizedVol(P, { window: "1h" });
    expect(v.every(Number.isNaN)).toBe(true); // 30 bars < 60 returns: all warm-up
    expect(() => realizedVol(P, { window: "2h" as never })).toThrow('realizedVol: window must be an integer >= 2 or one of 5m, 1h, 4h, 24h, got "2h"');
  });

  it("the doc example: returns ±ln(1.01) alternate, window 2, ppy 1 -> 100 * sqrt(2) * ln(1.01) * ... ", () => {
    const v = realizedVol([100, 101, 100, 101], { window: 2, periodsPerYear: 1 });
    // returns r = [ln 1.01, -ln 1.01]: sample std = |r1 - r2| / sqrt(2) = sqrt(2) * ln(1.01)
    expect(v[3]).toBeCloseTo(100 * Math.SQRT2 * Math.log(1.01), 12);
  });

  it("stays accurate over a long series (periodic re-summation): agrees with a direct two-pass std", () => {
    const rnd = mulberry32(1);
    const n = 20_000;
    const p = new Float64Array(n);
    p[0] = 30_000;
    for (let i = 1; i < n; i++) p[i] = p[i - 1]! * Math.exp((rnd() - 0.5) * 0.002 + 0.0001);
    const w = 240;
    const v = realizedVol(p, { window: w, periodsPerYear: MINUTES_PER_YEAR });
    for (const t of [w, 4095, 4096, 4097, 12_345, n - 1]) {
      const r = Array.from({ length: w }, (_, k) => Math.log(p[t - w + 1 + k]! / p[t - w + k]!));
      const mean = r.reduce((a, b) => a + b, 0) / w;
      const sd = Math.sqrt(r.reduce((a, b) => a + (b - mean) ** 2, 0) / (w - 1));
      expect(rel(v[t]!, sd * Math.sqrt(MINUTES_PER_YEAR) * 100)).toBeLessThan(1e-8);
    }
  });

  it("missing data: a NaN, zero, negative or infinite price blanks the windows that contain its returns, then recovers", () => {
    for (const bad of [Number.NaN, 0, -5, Number.POSITIVE_INFINITY]) {
      const p = P.slice();
      p[10] = bad;
      const v = realizedVol(p, { window: 5, periodsPerYear: MINUTES_PER_YEAR });
      const clean = realizedVol(P, { window: 5, periodsPerYear: MINUTES_PER_YEAR });
      for (let t = 10; t <= 15; t++) expect(v[t]).toBeNaN(); // returns 10 and 11 touch the bad price
      expect(rel(v[16]!, clean[16]!)).toBeLessThan(1e-9);
      expect(v[9]).toBe(clean[9]);
    }
  });

  it("empty, one point, a constant series (0 %), no mutation, bad arguments", () => {
    expect(realizedVol([], { window: 5, periodsPerYear: MINUTES_PER_YEAR }).length).toBe(0);
    expect(Array.from(realizedVol([100], { window: 2, periodsPerYear: MINUTES_PER_YEAR }))).toEqual([Number.NaN]);
    const flat = realizedVol(new Array(10).fill(50), { window: 3, periodsPerYear: MINUTES_PER_YEAR });
    expect(Array.from(flat.subarray(3))).toEqual(new Array(7).fill(0));
    const input = Float64Array.from(P);
    realizedVol(input, { window: 5, periodsPerYear: MINUTES_PER_YEAR });
    expect(Array.from(input)).toEqual(P);
    expect(() => realizedVol(P, { window: 1, periodsPerYear: MINUTES_PER_YEAR })).toThrow("realizedVol: window must be an integer >= 2, got 1");
    expect(() => realizedVol(P, { window: 2.5, periodsPerYear: MINUTES_PER_YEAR })).toThrow(InvalidArgumentError);
    expect(() => realizedVol(P, { window: 5, periodsPerYear: 0 })).toThrow("realizedVol: periodsPerYear must be a positive finite number (365 for daily bars, 8760 hourly), got 0");
    expect(() => realizedVol(P, { window: 5, periodsPerYear: Number.POSITIVE_INFINITY })).toThrow(InvalidArgumentError);
    // window boundary: 2 is the smallest, and window = length - 1 gives exactly one value
    expect(realizedVol(P, { window: 2, periodsPerYear: MINUTES_PER_YEAR }).filter((x) => !Number.isNaN(x)).length).toBe(28);
    expect(realizedVol(P, { window: 29, periodsPerYear: MINUTES_PER_YEAR }).filter((x) => !Number.isNaN(x)).length).toBe(1);
  });
});

describe("on real data: Coinbase BTC-USD 4-hour candles (fixtures/real, 20 695 bars, 2016-2025)", () => {
  /*
   * References: pandas 1.5.3 on the same file (d = json.load(gzip.open("fixtures/real/coinbase-btc-4h.json.gz"));
   * c, h, l = pd.Series(d["columns"][k]) for close, high, low):
   *   rv  = np.log(c).diff().rolling(42).std() * np.sqrt(2190) * 100      (7-day window, 6 bars a day * 365)
   *   atr = Wilder via ewm(alpha=1/14, adjust=False) seeded with tr[:14].mean(), as above.
   * Bars are consecutive rows: realizedVol does not know about the file's few time gaps (neither does pandas).
   */
  const file = JSON.parse(gunzipSync(readFileSync(join(import.meta.dirname, "../../fixtures/real/coinbase-btc-4h.json.gz"))).toString()) as {
    columns: Record<string, number[]>;
  };
  const { close, high, low } = file.columns as { close: number[]; high: number[]; low: number[] };
  const RV = { 42: 20.770772193967648, 1000: 35.56704691800178, 10000: 48.590406165818386, 20000: 23.367601637044576, 20694: 48.073972938060756 };
  const ATR_REAL = { 13: 3.9214285714285615, 1000: 8.556739528589542, 10000: 344.8767373490585, 20000: 906.0377829717332, 20694: 1133.8387966139558 };

  it("realizedVol (window 42, periodsPerYear 2190) matches pandas to 1e-9 relative", () => {
    const v = realizedVol(close, { window: 42, periodsPerYear: 2190 });
    expect(v.length).toBe(20_695);
    expect(v[41]).toBeNaN();
    for (const [t, x] of Object.entries(RV)) expect(rel(v[Number(t)]!, x)).toBeLessThan(1e-9);
  });

  it("atr (period 14) matches pandas to 1e-9 relative", () => {
    const a = atr(high, low, close);
    expect(a[12]).toBeNaN();
    for (const [t, x] of Object.entries(ATR_REAL)) expect(rel(a[Number(t)]!, x)).toBeLessThan(1e-9);
  });
});

describe("atr and atrPercent", () => {
  it("matches pandas' ewm(alpha = 1/14) seeded with the mean of the first 14 true ranges", () => {
    const a = atr(H, L, C);
    for (let t = 0; t < 13; t++) expect(a[t]).toBeNaN();
    ATR.forEach((x, k) => expect(rel(a[13 + k]!, x)).toBeLessThan(1e-12));
    expect(rel(a[29]!, ATR_LAST)).toBeLessThan(1e-12);
    expect(rel(atrPercent(H, L, C)[29]!, ATR_PCT_LAST)).toBeLessThan(1e-12);
  });

  it("hand example and period boundaries (1 = the true range itself)", () => {
    expect(atr([10, 11], [9, 10], [9.5, 10.5], { period: 2 })[1]).toBe(1.25); // TR 1, then max(1, 1.5, 0.5)
    expect(atrPercent([10, 11], [9, 10], [9.5, 10.5], { period: 2 })[1]).toBeCloseTo((100 * 1.25) / 10.5, 12);
    expect(Array.from(atr([10, 11, 12], [9, 10, 10], [9.5, 10.5, 11], { period: 1 }))).toEqual([1, 1.5, 2]);
    expect(atr(H, L, C, { period: 30 })[29]).toBeCloseTo(
      I.reduce((s, i) => s + (i === 0 ? H[0]! - L[0]! : Math.max(H[i]! - L[i]!, Math.abs(H[i]! - C[i - 1]!), Math.abs(L[i]! - C[i - 1]!))), 0) / 30,
      12,
    );
    expect(atr(H, L, C, { period: 31 }).every(Number.isNaN)).toBe(true);
  });

  it("missing data: a NaN high/low blanks that bar and restarts the seed; a NaN previous close uses high - low", () => {
    const h = H.slice();
    h[20] = Number.NaN;
    const a = atr(h, L, C, { period: 3 });
    expect(a[19]).toBe(atr(H, L, C, { period: 3 })[19]);
    for (const t of [20, 21, 22]) expect(a[t]).toBeNaN();
    const tr = (i: number) => Math.max(H[i]! - L[i]!, Math.abs(H[i]! - C[i - 1]!), Math.abs(L[i]! - C[i - 1]!));
    expect(a[23]).toBeCloseTo((tr(21) + tr(22) + tr(23)) / 3, 12);
    const c = C.slice();
    c[4] = Number.NaN;
    const b = atr(H, L, c, { period: 1 });
    expect(b[5]).toBe(H[5]! - L[5]!);
    expect(b[4]).toBe(tr(4)); // close[4] itself is not used at bar 4
  });

  it("empty, one bar, constant bars, no mutation, bad arguments", () => {
    expect(atr([], [], []).length).toBe(0);
    expect(Array.from(atr([2], [1], [1.5], { period: 1 }))).toEqual([1]);
    expect(Array.from(atr([2], [1], [1.5]))).toEqual([Number.NaN]);
    const flat = atr(new Array(20).fill(5), new Array(20).fill(5), new Array(20).fill(5));
    expect(Array.from(flat.subarray(13))).toEqual(new Array(7).fill(0));
    const h = Float64Array.from(H);
    atr(h, L, C);
    atrPercent(h, L, C);
    expect(Array.from(h)).toEqual(H);
    expect(() => atr(H, L, C, { period: 0 })).toThrow("atr: period must be a positive integer, got 0");
    expect(() => atr(H, L.slice(1), C)).toThrow("atr: high, low and close must have the same length, got 30, 29, 30");
  });
});

describe("volatility regimes", () => {
  it("default cutoffs 25 / 50 / 90 (annualised percent); boundaries belong to the higher regime", () => {
    expect(DEFAULT_VOL_CUTOFFS).toEqual({ low: 25, normal: 50, high: 90 });
    expect(classifyVolRegime(24.999)).toBe("low");
    expect(classifyVolRegime(25)).toBe("normal");
    expect(classifyVolRegime(50)).toBe("high");
    expect(classifyVolRegime(62)).toBe("high");
    expect(classifyVolRegime(90)).toBe("extreme");
    expect(classifyVolRegime(0)).toBe("low");
    expect(classifyVolRegime(Number.NaN)).toBeUndefined();
    expect(Array.from(classifyVolRegimes([10, 30, 60, 120, Number.NaN]))).toEqual([0, 1, 2, 3, -1]);
    expect(classifyVolRegimes([]).length).toBe(0);
  });

  it("custom cutoffs validated", () => {
    expect(classifyVolRegime(15, { cutoffs: { low: 10, normal: 20, high: 30 } })).toBe("normal");
    // Cutoffs are an option now; the 0.1 positional form is refused with the new one.
    expect(() => (classifyVolRegimes as (v: number[], c: unknown) => unknown)([1], 3)).toThrow(
      'classifyVolRegimes: options must be an object, e.g. classifyVolRegimes(vol, { cutoffs, floor: "high" }) (options are no longer positional), got 3',
    );
    expect(classifyVolRegime(20, { cutoffs: { low: 20, normal: 20, high: 30 } })).toBe("high"); // equal cutoffs collapse a regime
    expect(() => classifyVolRegime(1, { cutoffs: { low: 30, normal: 20, high: 40 } })).toThrow(
      'classifyVolRegime: cutoffs must be finite with low <= normal <= high, got {"low":30,"normal":20,"high":40}',
    );
    expect(() => classifyVolRegimes([1], { cutoffs: { low: 1, normal: 2, high: Number.NaN } })).toThrow(InvalidArgumentError);
  });

  it("regime_floor: never calmer than the floor (one reading and a series)", () => {
    expect(Array.from(classifyVolRegimes([10, 30, 60, 120, Number.NaN], { cutoffs: DEFAULT_VOL_CUTOFFS, floor: "high" }))).toEqual([2, 2, 2, 3, -1]);
    expect(Array.from(classifyVolRegimes([10, 30], { cutoffs: DEFAULT_VOL_CUTOFFS, floor: "low" }))).toEqual([0, 1]);
    expect(Array.from(classifyVolRegimes([10, 30], { cutoffs: DEFAULT_VOL_CUTOFFS, floor: "extreme" }))).toEqual([3, 3]);
    expect(() => classifyVolRegimes([1], { cutoffs: DEFAULT_VOL_CUTOFFS, floor: "calm" as never })).toThrow(
      'classifyVolRegimes: floor must be one of low, normal, high, extreme, got "calm"',
    );
    expect(applyRegimeFloor("normal", "high")).toBe("high");
    expect(applyRegimeFloor("low", "high")).toBe("high");
    expect(applyRegimeFloor("high", "high")).toBe("high");
    expect(applyRegimeFloor("extreme", "high")).toBe("extreme");
    expect(applyRegimeFloor("low", "low")).toBe("low");
  });

  /** Direct O(n * lookback) mid-rank, written independently of the Fenwick tree. */
  function bruteForce(vol: number[], lookback: number, minHistory: number, levels = [0.25, 0.75, 0.95]): number[] {
    return vol.map((v, t) => {
      if (Number.isNaN(v)) return -1;
      const past = vol.slice(Math.max(0, t - lookback), t).filter((q) => !Number.isNaN(q));
      if (past.length < minHistory) return -1;
      const mid = (past.filter((q) => q < v).length + 0.5 * past.filter((q) => q === v).length) / past.length;
      return mid < levels[0]! ? 0 : mid < levels[1]! ? 1 : mid < levels[2]! ? 2 : 3;
    });
  }

  it("percentile regimes equal a brute-force mid-rank over the previous lookback readings (ties and NaN included)", () => {
    const rnd = mulberry32(5);
    const vol = Array.from({ length: 3000 }, () => (rnd() < 0.05 ? Number.NaN : Math.round(rnd() * 40) + 20));
    for (const [lookback, minHistory] of [[50, 10], [2, 1], [300, 300], [5000, 100]] as const) {
      expect(Array.from(classifyVolRegimesByPercentile(vol, { lookback, minHistory }))).toEqual(bruteForce(vol, lookback, minHistory));
    }
    const levels = [0.1, 0.5, 0.9] as const;
    expect(Array.from(classifyVolRegimesByPercentile(vol, { lookback: 100, minHistory: 20, levels }))).toEqual(
      bruteForce(vol, 100, 20, [...levels]),
    );
  });

  it("percentile regimes: the doc example, a constant series is normal, warm-up is -1, bad options", () => {
    expect(Array.from(classifyVolRegimesByPercentile([1, 2, 3, 4, 100], { lookback: 4, minHistory: 4 }))).toEqual([-1, -1, -1, -1, 3]);
    expect(Array.from(classifyVolRegimesByPercentile(new Array(6).fill(40), { lookback: 3, minHistory: 2 }))).toEqual([-1, -1, 1, 1, 1, 1]);
    expect(classifyVolRegimesByPercentile([], { lookback: 3 }).length).toBe(0);
    expect(Array.from(classifyVolRegimesByPercentile([5], { lookback: 3 }))).toEqual([-1]);
    expect(Array.from(classifyVolRegimesByPercentile([1, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY], { lookback: 2, minHistory: 1 }))).toEqual([-1, 0, 3]);
    expect(() => classifyVolRegimesByPercentile([1], { lookback: 1 })).toThrow("classifyVolRegimesByPercentile: lookback must be an integer >= 2, got 1");
    expect(() => classifyVolRegimesByPercentile([1], { lookback: 5, minHistory: 6 })).toThrow(
      "classifyVolRegimesByPercentile: minHistory must be an integer in [1, lookback = 5], got 6",
    );
    expect(() => classifyVolRegimesByPercentile([1], { lookback: 5, levels: [0.5, 0.4, 0.9] })).toThrow(
      "classifyVolRegimesByPercentile: levels must be three numbers increasing strictly inside (0, 1), got 0.5, 0.4, 0.9",
    );
  });
});
