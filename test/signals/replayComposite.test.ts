/**
 * replayComposite: the typed-array replay agrees with the row-by-row functions
 * (scoreComponents + compositeScore + classifySignal + signalConfidence, a
 * separate code path over records), docs/DESIGN.md's worked example, every option
 * and input form, and the missing-data rules.
 */
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/index.js";
import {
  COMPONENT_NAMES,
  DEFAULT_WEIGHTS,
  classifySignal,
  compositeScore,
  replayComposite,
  scoreComponents,
  signalConfidence,
} from "../../src/signals/index.js";
import { mulberry32 } from "./helpers.js";

/** docs/DESIGN.md's worked example: values whose default scores are .261, -.048, -1, .178, .3. */
const WORKED = { imbalance: [0.6305], funding: [0.0000048], basis_spread: [50], momentum_5m: [0.356], gas: [0.8] };

function randomValues(n: number, seed: number, nanShare = 0): Record<string, Float64Array> {
  const rnd = mulberry32(seed);
  const gen: Record<string, () => number> = {
    imbalance: () => rnd(),
    funding: () => (rnd() - 0.5) * 3e-4,
    basis_spread: () => (rnd() - 0.5) * 150,
    momentum_5m: () => (rnd() - 0.5) * 6,
    gas: () => rnd() * 8,
  };
  const out: Record<string, Float64Array> = {};
  for (const c of COMPONENT_NAMES) out[c] = Float64Array.from({ length: n }, () => (rnd() < nanShare ? Number.NaN : gen[c]!()));
  return out;
}

const LABEL = { buy: 1, sell: -1, neutral: 0 } as const;

describe("replayComposite", () => {
  it("reproduces docs/DESIGN.md's worked example: -0.0771, neutral", () => {
    const r = replayComposite(WORKED);
    // hand: .3*.261 + .25*-.048 + .2*-1 + .15*.178 + .1*.3 = .0783 - .012 - .2 + .0267 + .03 = -0.0770
    expect(r.composite[0]).toBeCloseTo(-0.077, 14);
    expect(Math.abs(r.composite[0]! - -0.0771)).toBeLessThan(0.0005);
    expect(r.label[0]).toBe(0);
    expect(r.scores["imbalance"]![0]).toBeCloseTo(0.261, 14);
    expect(r.scores["basis_spread"]![0]).toBe(-1);
    expect(r.scores["gas"]![0]).toBe(0.3);
  });

  for (const missing of ["renormalise", "zero", "nan"] as const) {
    it(`equals the row-by-row functions on 2000 random rows with 10% NaN (missing: ${missing})`, () => {
      const v = randomValues(2000, 11, 0.1);
      const r = replayComposite(v, { missing });
      const bad: string[] = [];
      const same = (a: number, b: number) => a === b || (Number.isNaN(a) && Number.isNaN(b));
      for (let i = 0; i < 2000; i++) {
        const row = Object.fromEntries(COMPONENT_NAMES.map((c) => [c, v[c]![i]!]));
        const scores = scoreComponents(row);
        const c = compositeScore(scores, DEFAULT_WEIGHTS, missing); // same arithmetic: bit for bit
        if (!same(r.composite[i]!, c)) bad.push(`composite ${i}: ${r.composite[i]} vs ${c}`);
        if (r.label[i] !== LABEL[classifySignal(c)]) bad.push(`label ${i}`);
        const conf = signalConfidence(scores, DEFAULT_WEIGHTS, c);
        if (!(same(r.confidence[i]!, conf) || Math.abs(r.confidence[i]! - conf) < 1e-14)) bad.push(`confidence ${i}: ${r.confidence[i]} vs ${conf}`);
        for (const name of COMPONENT_NAMES) if (!same(r.scores[name]![i]!, scores[name]!)) bad.push(`${name} ${i}`);
      }
      expect(bad).toEqual([]);
      expect(new Set(r.label).size).toBe(3);
      expect(r.composite.some(Number.isNaN)).toBe(missing === "nan");
    });
  }

  it("empty input gives empty arrays; one row gives one row", () => {
    const empty = replayComposite(Object.fromEntries(COMPONENT_NAMES.map((c) => [c, []])));
    expect(empty.length).toBe(0);
    expect(empty.composite.length).toBe(0);
    expect(empty.label.length).toBe(0);
    expect(empty.time).toBeUndefined();
    const one = replayComposite(WORKED);
    expect([one.length, one.composite.length, one.confidence.length]).toEqual([1, 1, 1]);
  });

  it("a row with every component NaN is NaN, neutral, confidence NaN (all policies)", () => {
    const nan = Object.fromEntries(COMPONENT_NAMES.map((c) => [c, [Number.NaN]]));
    for (const missing of ["renormalise", "zero", "nan"] as const) {
      const r = replayComposite(nan, { missing });
      expect(r.composite[0]).toBeNaN();
      expect(r.label[0]).toBe(0);
      expect(r.confidence[0]).toBeNaN();
    }
  });

  it("a constant input gives a constant output", () => {
    const n = 50;
    const v = Object.fromEntries(COMPONENT_NAMES.map((c, k) => [c, new Float64Array(n).fill(WORKED[c][0]! * (k === 0 ? 1.1 : 1))]));
    const r = replayComposite(v);
    expect(new Set(r.composite).size).toBe(1);
    expect(new Set(r.label).size).toBe(1);
    expect(new Set(r.confidence).size).toBe(1);
  });

  it("does not mutate its input and shares no array with it", () => {
    const v = randomValues(100, 3, 0.1);
    const copy = Object.fromEntries(Object.entries(v).map(([k, a]) => [k, Float64Array.from(a)]));
    const r = replayComposite(v);
    expect(v).toEqual(copy);
    for (const c of COMPONENT_NAMES) expect(r.scores[c]).not.toBe(v[c]);
  });

  it("threshold option boundaries: 0 labels every non-zero composite, 1 labels only ±1", () => {
    const v = randomValues(500, 5);
    const zero = replayComposite(v, { threshold: 0 });
    for (let i = 0; i < 500; i++) expect(zero.label[i]).toBe(Math.sign(zero.composite[i]!));
    const one = replayComposite(v, { threshold: 1 });
    expect(one.label.every((l) => l === 0)).toBe(true);
    const atThreshold = replayComposite({ a: [0.25, -0.25, 0.2499] }, { weights: { a: 1 }, scorers: { a: (x) => x }, threshold: 0.25 });
    expect(Array.from(atThreshold.label)).toEqual([1, -1, 0]);
    expect(() => replayComposite(v, { threshold: -0.01 })).toThrow("replayComposite: threshold must be a number in [0, 1], got -0.01");
    expect(() => replayComposite(v, { threshold: 1.01 })).toThrow(InvalidArgumentError);
  });

  it("strong option: strength ±2 at or beyond it, equals label without it", () => {
    const s = replayComposite({ a: [0.35, 0.3, 0.2, -0.3, 0.05] }, { weights: { a: 1 }, scorers: { a: (x) => x }, strong: 0.3 });
    expect(Array.from(s.strength)).toEqual([2, 2, 1, -2, 0]);
    expect(Array.from(s.label)).toEqual([1, 1, 1, -1, 0]);
    const plain = replayComposite(randomValues(300, 8));
    expect(Array.from(plain.strength)).toEqual(Array.from(plain.label));
    expect(() => replayComposite(WORKED, { strong: 0.05 })).toThrow("replayComposite: strong must be a number in [threshold, 1], got 0.05");
  });

  it("weights option: validated; allowAnySum rescales a renormalised row to the total weight", () => {
    expect(() => replayComposite(WORKED, { weights: { imbalance: 0.6, funding: 0.6 } })).toThrow(
      "replayComposite: weights must sum to 1, got 1.2 (pass allowAnySum: true to opt out)",
    );
    expect(() => replayComposite(WORKED, { weights: { imbalance: -1, funding: 2 } })).toThrow(InvalidArgumentError);
    const r = replayComposite({ a: [1, 1], b: [1, Number.NaN] }, { weights: { a: 1, b: 1 }, allowAnySum: true, scorers: { a: (x) => x, b: (x) => x } });
    expect(Array.from(r.composite)).toEqual([2, 2]);
    // a weight of 0 is allowed and contributes nothing
    const z = replayComposite(WORKED, { weights: { imbalance: 1, gas: 0 } });
    expect(z.composite[0]).toBeCloseTo(0.261, 14);
  });

  it("extra components: volatility with its default scorer or a replacement; a weighted component without scorer or column is an error", () => {
    const v = { ...WORKED, volatility: [70] };
    const weights = { ...DEFAULT_WEIGHTS, imbalance: 0.2, volatility: 0.1 };
    const r = replayComposite(v, { weights });
    expect(r.components).toEqual([...COMPONENT_NAMES, "volatility"]);
    expect(r.scores["volatility"]![0]).toBe(-0.5); // scoreVolatility(70) = -(70 - 50) / 40
    expect(r.composite[0]).toBeCloseTo(0.2 * 0.261 + 0.25 * -0.048 + 0.2 * -1 + 0.15 * 0.178 + 0.1 * 0.3 + 0.1 * -0.5, 14);
    const own = replayComposite(v, { weights, scorers: { volatility: (x) => Math.max(-1, -x / 100) } });
    expect(own.scores["volatility"]![0]).toBe(-0.7);
    const sentiment = { ...WORKED, sentiment: [0.4] };
    const sw = { ...DEFAULT_WEIGHTS, imbalance: 0.2, sentiment: 0.1 };
    expect(() => replayComposite(sentiment, { weights: sw })).toThrow(
      "replayComposite: component sentiment has a weight but no scorer; pass scorers: { sentiment: (v) => ... }",
    );
    const { gas: _g, ...four } = WORKED;
    expect(() => replayComposite(four)).toThrow(/no column for weighted component gas; columns are imbalance, funding, basis_spread, momentum_5m/);
  });

  it("missing policy option is validated", () => {
    expect(() => replayComposite(WORKED, { missing: "skip" as never })).toThrow(
      "replayComposite: missing must be one of renormalise, zero, nan, got skip",
    );
    expect(() => replayComposite(WORKED, { from: "rows" as never })).toThrow(/from must be "values", "scores" or "feeds"/);
  });

  it("rejects columns of unequal length, an unreadable time and a non-object input", () => {
    expect(() => replayComposite({ ...WORKED, gas: [0.8, 0.9] })).toThrow(
      "replayComposite: every column must have the same length, got 1 in imbalance and 2 in gas",
    );
    expect(() => replayComposite({ ...WORKED, time: ["yesterday"] as never })).toThrow(
      "replayComposite: time must be epoch milliseconds or ISO strings, got yesterday at row 0",
    );
    expect(() => replayComposite(null as never)).toThrow(InvalidArgumentError);
  });

  it("rows are independent: a table of several coins' rows (time repeats) is accepted; feeds need an ascending time", () => {
    const two = Object.fromEntries(COMPONENT_NAMES.map((c) => [c, [WORKED[c][0]!, WORKED[c][0]!]]));
    const r = replayComposite({ ...two, time: ["2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z"] as never, coin: ["BTC", "ETH"] as never });
    expect(r.composite[0]).toBe(r.composite[1]);
    expect(Array.from(r.time!)).toEqual([Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1)]);
    expect(() => replayComposite({ price: [1, 2], time: [2, 1] }, { from: "feeds" })).toThrow(
      /componentsFromFeeds: time must ascend strictly, got 2 then 1 at row 1/,
    );
  });

  it("from: 'scores' takes published scores as they are", () => {
    const r = replayComposite({ imbalance: [0.261], funding: [-0.048], basis_spread: [-1], momentum_5m: [0.178], gas: [0.3] }, { from: "scores" });
    expect(r.composite[0]).toBeCloseTo(-0.077, 14);
    expect(r.values).toEqual({});
  });

  it("reads the analytics composite layout (<name>_value, <name>_score) when bare names are absent", () => {
    const values = randomValues(50, 11, 0.1);
    const bare = replayComposite(values);
    // the layout of /v3/analytics/query?dataset=composite and loadComposite: both columns per component, plus others
    const layout: Record<string, Float64Array | number[]> = { composite_score: new Array<number>(50).fill(0) };
    for (const c of COMPONENT_NAMES) {
      layout[`${c}_value`] = values[c]!;
      layout[`${c}_score`] = bare.scores[c]!;
    }
    const fromValues = replayComposite(layout);
    expect(fromValues.composite).toEqual(bare.composite);
    expect(fromValues.label).toEqual(bare.label);
    const fromScores = replayComposite(layout, { from: "scores" });
    expect(fromScores.composite).toEqual(bare.composite);
    // a bare column wins over the layout's, and an explicit mapping wins over both
    const both = replayComposite({ ...layout, imbalance: new Float64Array(50).fill(1) });
    expect(both.scores.imbalance![0]).toBe(1);
    const mapped = replayComposite({ ...layout, imbalance: new Float64Array(50).fill(1) }, { columns: { imbalance: "imbalance_value" } });
    expect(mapped.scores.imbalance).toEqual(bare.scores.imbalance);
  });

  it("from: 'feeds' derives the components first (componentsFromFeeds)", () => {
    const price = [100, 100.1, 100.2, 100.1, 100.4, 100.5, 100.9];
    const feeds = {
      time: price.map((_, i) => i * 60_000),
      bidDepth: price.map(() => 6),
      askDepth: price.map(() => 4),
      fundingRate: price.map(() => 0.00004),
      perpPrice: price.map((p) => p * 1.0005),
      spotPrice: price,
      baseFeeGwei: price.map(() => 0.5),
    };
    const r = replayComposite(feeds, { from: "feeds" });
    expect(r.time).toEqual(Float64Array.from(feeds.time));
    expect(r.values["imbalance"]![0]).toBe(0.6);
    expect(r.values["basis_spread"]![3]).toBeCloseTo(5, 9);
    expect(r.values["momentum_5m"]![4]).toBeNaN();
    expect(r.values["momentum_5m"]![6]).toBeCloseTo(0.7992007992008, 12); // 100 * (100.9 / 100.1 - 1)
    expect(r.composite[6]).toBeCloseTo(
      0.3 * 0.2 + 0.25 * -0.4 + 0.2 * -0.1 + 0.15 * (100 * (100.9 / 100.1 - 1)) / 2 + 0.1 * 0.3,
      9,
    );
    // rows 0..4 have no momentum: renormalised over four components
    expect(r.composite[0]).toBeCloseTo((0.3 * 0.2 + 0.25 * -0.4 + 0.2 * -0.1 + 0.1 * 0.3) / 0.85, 9);
  });

  it("accepts a Panel ({ time, columns }) and a duck-typed DataFrame, and toDataFrame round-trips", () => {
    const v = randomValues(20, 21);
    const time = Float64Array.from({ length: 20 }, (_, i) => 1.7e12 + i * 60_000);
    const direct = replayComposite({ ...v, time });
    const panel = replayComposite({ time, columns: v });
    expect(panel.composite).toEqual(direct.composite);
    expect(panel.time).toEqual(time);
    const df = direct.toDataFrame();
    expect(df.columns).toEqual([
      "time",
      ...COMPONENT_NAMES.flatMap((c) => [`${c}_value`, `${c}_score`]),
      "composite",
      "label",
      "signal",
      "confidence",
    ]);
    expect(df.shape).toEqual([20, 15]);
    const signal = df.column("signal").values as string[];
    expect(signal).toEqual(Array.from(direct.label, (l) => (l === 1 ? "buy" : l === -1 ? "sell" : "neutral")));
    // A DataFrame of values (duck-typed: columns + column(name).values) replays the same
    const again = replayComposite(df.loc({ columns: ["time", ...COMPONENT_NAMES.map((c) => `${c}_value`)] }).rename(
      Object.fromEntries(COMPONENT_NAMES.map((c) => [`${c}_value`, c])),
    ) as never);
    expect(again.composite).toEqual(direct.composite);
    expect(again.time).toEqual(time);
    // number arrays with null (as JSON gives) read as NaN
    const withNull = replayComposite({ ...WORKED, gas: [null] as unknown as number[] });
    expect(withNull.scores["gas"]![0]).toBeNaN();
    expect(withNull.composite[0]).toBeCloseTo((-0.077 - 0.03) / 0.9, 14);
  });
});
