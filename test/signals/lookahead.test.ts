/**
 * No lookahead, proven by property (fast-check): for every series function of
 * signals/, the output at bar t is identical (NaN equals NaN) whether the input
 * ends at t or continues with any future data, and every output has the
 * input's length (warm-up is NaN or the documented code, never a shorter array).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  COMPONENT_NAMES,
  atr,
  atrPercent,
  checkConformance,
  classifyVolRegimes,
  classifyVolRegimesByPercentile,
  componentsFromFeeds,
  efficiencyRatio,
  inferWeightsRolling,
  liquidationAlerts,
  marketRegimes,
  realizedVol,
  regimeStatistics,
  regimeStatisticsSeries,
  replayComposite,
  trendLabels,
  MINUTES_PER_YEAR,
} from "../../src/signals/index.js";
import { sameValues } from "./helpers.js";

const RUNS = { numRuns: 150 };

/** A price path: 100 * exp(cumulative log steps), NaN where a step is NaN (the walk goes on). */
const prices = (minLength = 1, maxLength = 150) =>
  fc
    .array(
      fc.oneof(
        { weight: 18, arbitrary: fc.double({ min: -0.06, max: 0.06, noNaN: true }) },
        { weight: 1, arbitrary: fc.constant(0) },
        { weight: 1, arbitrary: fc.constant(Number.NaN) },
      ),
      { minLength, maxLength },
    )
    .map((steps) => {
      let x = 0;
      return steps.map((s) => {
        if (Number.isNaN(s)) return Number.NaN;
        x += s;
        return 100 * Math.exp(x);
      });
    });

/** Any numbers of a component's range, with NaN. */
const values = (lo: number, hi: number, n: number) =>
  fc.array(fc.oneof({ weight: 9, arbitrary: fc.double({ min: lo, max: hi, noNaN: true }) }, { weight: 1, arbitrary: fc.constant(Number.NaN) }), {
    minLength: n,
    maxLength: n,
  });

/** A series and a cut point t in it. */
const withCut = <T extends readonly unknown[]>(arb: fc.Arbitrary<T>) =>
  arb.chain((x) => fc.tuple(fc.constant(x), fc.integer({ min: 0, max: Math.max(0, x.length - 1) })));

/** f(x[0..t])[0..t] equals f(x)[0..t], and f(x) has x's length. */
function causal(full: ArrayLike<number>, prefix: ArrayLike<number>, n: number, t: number): void {
  expect(full.length).toBe(n);
  expect(prefix.length).toBe(t + 1);
  expect(sameValues(Array.from(full).slice(0, t + 1), Array.from(prefix))).toBe(true);
}

describe("no lookahead: output at t does not change with data after t", () => {
  it("realizedVol (several windows and periodsPerYear)", () => {
    fc.assert(
      fc.property(withCut(prices()), fc.integer({ min: 2, max: 30 }), ([p, t], window) => {
        causal(realizedVol(p, { window, periodsPerYear: MINUTES_PER_YEAR }), realizedVol(p.slice(0, t + 1), { window, periodsPerYear: MINUTES_PER_YEAR }), p.length, t);
        causal(realizedVol(p, { window, periodsPerYear: 365 }), realizedVol(p.slice(0, t + 1), { window, periodsPerYear: 365 }), p.length, t);
      }),
      RUNS,
    );
  });

  it("realizedVol and efficiencyRatio across the 4096-bar re-summation", () => {
    fc.assert(
      fc.property(withCut(prices(4000, 9000)), ([p, t]) => {
        causal(realizedVol(p, { window: 60, periodsPerYear: MINUTES_PER_YEAR }), realizedVol(p.slice(0, t + 1), { window: 60, periodsPerYear: MINUTES_PER_YEAR }), p.length, t);
        causal(efficiencyRatio(p, { window: 60 }), efficiencyRatio(p.slice(0, t + 1), { window: 60 }), p.length, t);
      }),
      { numRuns: 15 },
    );
  });

  it("atr and atrPercent", () => {
    fc.assert(
      fc.property(withCut(prices()), fc.integer({ min: 1, max: 20 }), fc.integer(), ([c, t], period, seed) => {
        const h = c.map((x, i) => x * (1 + 0.01 * Math.abs(Math.sin(seed + i))));
        const l = c.map((x, i) => x * (1 - 0.01 * Math.abs(Math.cos(seed + i))));
        const cut = (a: number[]) => a.slice(0, t + 1);
        causal(atr(h, l, c, { period }), atr(cut(h), cut(l), cut(c), { period }), c.length, t);
        causal(atrPercent(h, l, c, { period }), atrPercent(cut(h), cut(l), cut(c), { period }), c.length, t);
      }),
      RUNS,
    );
  });

  it("classifyVolRegimes and classifyVolRegimesByPercentile (ranks use all data, outputs only the past)", () => {
    const vols = fc.array(fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 0, max: 30 }).map((x) => x * 5) }, { weight: 1, arbitrary: fc.constant(Number.NaN) }), {
      minLength: 1,
      maxLength: 200,
    });
    fc.assert(
      fc.property(withCut(vols), fc.integer({ min: 2, max: 50 }), ([v, t], lookback) => {
        const minHistory = Math.min(lookback, 5);
        causal(classifyVolRegimes(v), classifyVolRegimes(v.slice(0, t + 1)), v.length, t);
        causal(
          classifyVolRegimesByPercentile(v, { lookback, minHistory }),
          classifyVolRegimesByPercentile(v.slice(0, t + 1), { lookback, minHistory }),
          v.length,
          t,
        );
      }),
      RUNS,
    );
  });

  it("efficiencyRatio and trendLabels", () => {
    fc.assert(
      fc.property(withCut(prices()), fc.integer({ min: 1, max: 40 }), fc.double({ min: 0, max: 1, noNaN: true }), ([p, t], window, threshold) => {
        causal(efficiencyRatio(p, { window }), efficiencyRatio(p.slice(0, t + 1), { window }), p.length, t);
        causal(trendLabels(p, { window, threshold }), trendLabels(p.slice(0, t + 1), { window, threshold }), p.length, t);
      }),
      RUNS,
    );
  });

  it("liquidationAlerts", () => {
    fc.assert(
      fc.property(withCut(prices()), ([p, t]) => {
        causal(liquidationAlerts(p), liquidationAlerts(p.slice(0, t + 1)), p.length, t);
      }),
      RUNS,
    );
  });

  it("regimeStatisticsSeries, and regimeStatistics as of t equals the series at t", () => {
    const labels = fc.array(fc.integer({ min: -1, max: 2 }), { minLength: 1, maxLength: 200 });
    fc.assert(
      fc.property(withCut(labels), ([l, t]) => {
        const full = regimeStatisticsSeries(l, { states: 3 });
        const prefix = regimeStatisticsSeries(l.slice(0, t + 1), { states: 3 });
        causal(full.current, prefix.current, l.length, t);
        causal(full.duration, prefix.duration, l.length, t);
        causal(full.persistence, prefix.persistence, l.length, t);
        const asOf = regimeStatistics(l.slice(0, t + 1), { states: 3 });
        expect([asOf.current, asOf.duration]).toEqual([full.current[t], full.duration[t]]);
        expect(sameValues([asOf.persistence], [full.persistence[t]!])).toBe(true);
      }),
      RUNS,
    );
  });

  const componentTable = fc.integer({ min: 1, max: 120 }).chain((n) =>
    fc.record({
      imbalance: values(0, 1, n),
      funding: values(-3e-4, 3e-4, n),
      basis_spread: values(-100, 100, n),
      momentum_5m: values(-5, 5, n),
      gas: values(0, 20, n),
    }),
  );

  it("replayComposite (every output, every missing policy)", () => {
    fc.assert(
      fc.property(
        withCut(componentTable.map((r) => Object.assign([] as number[], { table: r, length: r.imbalance.length }))),
        fc.constantFrom("renormalise", "zero", "nan" as const),
        ([{ table }, t], missing) => {
          const n = table.imbalance.length;
          const prefix = Object.fromEntries(Object.entries(table).map(([k, v]) => [k, v.slice(0, t + 1)]));
          const a = replayComposite(table, { missing, strong: 0.3 });
          const b = replayComposite(prefix, { missing, strong: 0.3 });
          causal(a.composite, b.composite, n, t);
          causal(a.label, b.label, n, t);
          causal(a.strength, b.strength, n, t);
          causal(a.confidence, b.confidence, n, t);
          for (const c of COMPONENT_NAMES) causal(a.scores[c]!, b.scores[c]!, n, t);
        },
      ),
      RUNS,
    );
  });

  it("componentsFromFeeds and replayComposite from feeds (with and without time)", () => {
    fc.assert(
      fc.property(withCut(prices(1, 120)), fc.boolean(), fc.integer({ min: 1, max: 3 }), ([p, t], withTime, gapMinutes) => {
        const n = p.length;
        const feeds: Record<string, number[]> = {
          spotPrice: p,
          perpPrice: p.map((x, i) => x * (1 + 0.0004 * Math.sin(i))),
          bidDepth: p.map((_, i) => 1 + Math.abs(Math.sin(3 * i))),
          askDepth: p.map((_, i) => 1 + Math.abs(Math.cos(2 * i))),
          fundingRate: p.map((_, i) => 1e-4 * Math.sin(i / 7)),
          baseFeeGwei: p.map((_, i) => 0.5 + Math.abs(Math.sin(i / 5)) * 3),
        };
        if (withTime) {
          let clock = 1.7e12;
          feeds["time"] = p.map((_, i) => (clock += 60_000 * (1 + (i % gapMinutes)) - 7 * (i % 3))); // irregular, ascending
        }
        const prefix = Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, v.slice(0, t + 1)]));
        const a = componentsFromFeeds(feeds);
        const b = componentsFromFeeds(prefix);
        for (const c of COMPONENT_NAMES) causal(a[c]!, b[c]!, n, t);
        causal(replayComposite(feeds, { from: "feeds" }).composite, replayComposite(prefix, { from: "feeds" }).composite, n, t);
      }),
      RUNS,
    );
  });

  it("marketRegimes over aligned coins", () => {
    const coins = fc.integer({ min: 1, max: 80 }).chain((n) =>
      fc.record({ BTC: values(-0.5, 0.5, n), ETH: values(-0.5, 0.5, n), fBTC: values(0, 2e-4, n), fETH: values(0, 2e-4, n), vBTC: fc.array(fc.integer({ min: -1, max: 3 }), { minLength: n, maxLength: n }), vETH: fc.array(fc.integer({ min: -1, max: 3 }), { minLength: n, maxLength: n }) }),
    );
    fc.assert(
      fc.property(withCut(coins.map((r) => Object.assign([] as number[], { r, length: r.BTC.length }))), ([{ r }, t]) => {
        const cut = (a: number[]) => a.slice(0, t + 1);
        const a = marketRegimes({ composite: { BTC: r.BTC, ETH: r.ETH }, funding: { BTC: r.fBTC, ETH: r.fETH }, volRegime: { BTC: r.vBTC, ETH: r.vETH } });
        const b = marketRegimes({
          composite: { BTC: cut(r.BTC), ETH: cut(r.ETH) },
          funding: { BTC: cut(r.fBTC), ETH: cut(r.fETH) },
          volRegime: { BTC: cut(r.vBTC), ETH: cut(r.vETH) },
        });
        causal(a.regime, b.regime, r.BTC.length, t);
        causal(a.confidence, b.confidence, r.BTC.length, t);
        causal(a.breadth, b.breadth, r.BTC.length, t);
      }),
      RUNS,
    );
  });

  it("checkConformance per-row diffs and inferWeightsRolling windows ending by t", () => {
    fc.assert(
      fc.property(withCut(componentTable.map((r) => Object.assign([] as number[], { table: r, length: r.imbalance.length }))), fc.integer({ min: 1, max: 20 }), ([{ table }, t], window) => {
        const n = table.imbalance.length;
        const published = replayComposite(table, { weights: { imbalance: 0.5, funding: 0.1, basis_spread: 0.1, momentum_5m: 0.2, gas: 0.1 } });
        const rec: Record<string, ArrayLike<number>> = { composite_score: published.composite };
        for (const c of COMPONENT_NAMES) {
          rec[`${c}_value`] = table[c as keyof typeof table];
          rec[`${c}_score`] = published.scores[c]!;
        }
        const prefix = Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, Array.from(v).slice(0, t + 1)]));
        causal(checkConformance(rec).compositeDiff, checkConformance(prefix).compositeDiff, n, t);
        const full = inferWeightsRolling(rec, { window }).filter((f) => f.lastRow <= t);
        const part = inferWeightsRolling(prefix, { window });
        expect(JSON.stringify(full)).toBe(JSON.stringify(part));
      }),
      { numRuns: 60 },
    );
  });
});
