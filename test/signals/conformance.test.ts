/**
 * checkConformance and inferWeights on synthetic recordings with known weights
 * (the replay-server recording is covered in replayServer.test.ts).
 */
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/index.js";
import {
  COMPONENT_NAMES,
  DEFAULT_WEIGHTS,
  checkConformance,
  inferWeights,
  inferWeightsRolling,
  replayComposite,
  type Weights,
} from "../../src/signals/index.js";
import { mulberry32 } from "./helpers.js";

/** A recording in the analytics dataset=composite layout, made with `weights` (optionally changing at row `switchAt`). */
function recording(n: number, seed: number, weights: Weights, later?: { weights: Weights; at: number }) {
  const rnd = mulberry32(seed);
  const values: Record<string, Float64Array> = {
    imbalance: Float64Array.from({ length: n }, () => rnd()),
    funding: Float64Array.from({ length: n }, () => (rnd() - 0.5) * 2.4e-4),
    basis_spread: Float64Array.from({ length: n }, () => (rnd() - 0.5) * 120),
    momentum_5m: Float64Array.from({ length: n }, () => (rnd() - 0.5) * 5),
    gas: Float64Array.from({ length: n }, () => rnd() * 6),
  };
  const a = replayComposite(values, { weights });
  const b = later === undefined ? a : replayComposite(values, { weights: later.weights });
  const composite = Float64Array.from(a.composite, (c, i) => (later !== undefined && i >= later.at ? (b.composite[i] as number) : c));
  const label = Array.from(composite, (c) => (c >= 0.1 ? "buy" : c <= -0.1 ? "sell" : "neutral"));
  const rec: Record<string, ArrayLike<number> | string[]> = {
    time: Float64Array.from({ length: n }, (_, i) => 1.75e12 + i * 60_000),
    composite_score: composite,
    regime: label,
  };
  for (const c of COMPONENT_NAMES) {
    rec[`${c}_value`] = values[c]!;
    rec[`${c}_score`] = a.scores[c]!;
  }
  return rec;
}

const OTHER: Weights = { imbalance: 0.4, funding: 0.1, basis_spread: 0.3, momentum_5m: 0.2, gas: 0 };

/** KKT certificate of min ||Xw - y||² on the simplex: g = Xᵀ(Xw - y); g_j = λ where w_j > 0, g_j >= λ where w_j = 0. */
function kktHolds(rec: Record<string, ArrayLike<number> | string[]>, w: Readonly<Record<string, number>>): boolean {
  const y = rec["composite_score"] as Float64Array;
  const g = COMPONENT_NAMES.map(() => 0);
  for (let i = 0; i < y.length; i++) {
    let r = -y[i]!;
    COMPONENT_NAMES.forEach((c) => (r += w[c]! * (rec[`${c}_score`] as Float64Array)[i]!));
    COMPONENT_NAMES.forEach((c, j) => (g[j]! += r * (rec[`${c}_score`] as Float64Array)[i]!));
  }
  const active = COMPONENT_NAMES.map((c, j) => [w[c]!, g[j]!] as const);
  const lambda = active.filter(([wj]) => wj > 1e-9).map(([, gj]) => gj);
  const l = lambda[0]!;
  const scale = Math.max(1, ...g.map(Math.abs));
  return lambda.every((gj) => Math.abs(gj - l) < 1e-7 * scale) && active.every(([wj, gj]) => wj > 1e-9 || gj >= l - 1e-7 * scale);
}

describe("checkConformance (synthetic recordings)", () => {
  it("a recording made with the default model conforms exactly", () => {
    const rec = recording(3000, 1, DEFAULT_WEIGHTS);
    const r = checkConformance(rec);
    expect(r.summary.conforms).toBe(true);
    expect(r.summary.rows).toBe(3000);
    expect(r.summary.composite.maxAbsDiff).toBe(0);
    expect(r.summary.composite.withinTolerance).toBe(1);
    expect(r.summary.labelAgreement).toBe(1);
    expect(r.compositeDiff.every((d) => d === 0)).toBe(true);
    expect(r.summary.confidence).toBeUndefined(); // no published confidence column
    const withConfidence = checkConformance({ ...rec, confidence: new Float64Array(3000).fill(0.5) });
    expect(withConfidence.summary.confidence!.maxAbsDiff).toBeGreaterThan(0);
    expect(withConfidence.summary.conforms).toBe(true); // informational only
  });

  it("a recording made with other weights: scores match, the composite and labels do not; the right weights conform", () => {
    const rec = recording(3000, 2, OTHER);
    const r = checkConformance(rec);
    expect(r.summary.conforms).toBe(false);
    for (const c of COMPONENT_NAMES) expect(r.summary.scores[c]!.maxAbsDiff).toBe(0);
    expect(r.summary.composite.maxAbsDiff).toBeGreaterThan(0.05);
    expect(r.summary.composite.worstRow).toBeGreaterThanOrEqual(0);
    expect(Math.abs(r.compositeDiff[r.summary.composite.worstRow]!)).toBe(r.summary.composite.maxAbsDiff);
    expect(r.summary.labelMismatches).toBeGreaterThan(0);
    expect(r.summary.labelAgreement).toBeLessThan(1);
    expect(checkConformance(rec, { weights: OTHER }).summary.conforms).toBe(true);
  });

  it("a scorer difference shows on that component's score only", () => {
    const rec = recording(500, 3, DEFAULT_WEIGHTS);
    const r = checkConformance(rec, { scorers: { momentum_5m: (v) => Math.max(-1, Math.min(1, v / 3)) } });
    expect(r.summary.scores["momentum_5m"]!.maxAbsDiff).toBeGreaterThan(0.01);
    expect(r.summary.scores["imbalance"]!.maxAbsDiff).toBe(0);
    expect(r.summary.conforms).toBe(false);
  });

  it("tolerance boundary: a published composite rounded to 4 decimals conforms at 5e-5, not at 1e-9", () => {
    const rec = recording(400, 4, DEFAULT_WEIGHTS);
    rec["composite_score"] = Float64Array.from(rec["composite_score"] as Float64Array, (c) => Math.round(c * 1e4) / 1e4);
    rec["regime"] = undefined as never; // rounding may flip a label at the band edge; labels not compared
    expect(checkConformance(rec, { tolerance: 5.000001e-5 }).summary.conforms).toBe(true);
    const strict = checkConformance(rec);
    expect(strict.summary.conforms).toBe(false);
    expect(strict.summary.composite.maxAbsDiff).toBeLessThanOrEqual(5e-5 + 1e-15);
    expect(strict.summary.labelAgreement).toBeNaN();
    expect(() => checkConformance(rec, { tolerance: -1 })).toThrow("checkConformance: tolerance must be a finite number >= 0, got -1");
  });

  it("a NaN on one side only counts as a missing mismatch", () => {
    const rec = recording(10, 5, DEFAULT_WEIGHTS);
    const c = Float64Array.from(rec["composite_score"] as Float64Array);
    c[3] = Number.NaN;
    const r = checkConformance({ ...rec, composite_score: c });
    expect(r.summary.composite.missingMismatch).toBe(1);
    expect(r.summary.composite.compared).toBe(9);
    expect(r.compositeDiff[3]).toBeNaN();
    expect(r.summary.conforms).toBe(false);
  });

  it("empty recording: nothing compared, does not conform; missing columns are named", () => {
    const empty = Object.fromEntries(Object.keys(recording(1, 6, DEFAULT_WEIGHTS)).map((k) => [k, []]));
    const r = checkConformance(empty);
    expect(r.summary.rows).toBe(0);
    expect(r.summary.composite.compared).toBe(0);
    expect(r.summary.composite.maxAbsDiff).toBeNaN();
    expect(r.summary.conforms).toBe(false);
    const rec = recording(5, 6, DEFAULT_WEIGHTS);
    const { composite_score: _c, ...noComposite } = rec;
    expect(() => checkConformance(noComposite)).toThrow(/recording needs the published composite as a composite_score \(or composite\) column/);
    const { gas_value: _g, ...noGas } = rec;
    expect(() => checkConformance(noGas)).toThrow("checkConformance: recording has no gas_value (or gas) column for weighted component gas");
  });

  it("accepts src/load's layout: bare component names for values, a Panel with time", () => {
    const rec = recording(200, 14, DEFAULT_WEIGHTS);
    const columns: Record<string, Float64Array> = { composite_score: rec["composite_score"] as Float64Array };
    for (const c of COMPONENT_NAMES) {
      columns[c] = rec[`${c}_value`] as Float64Array;
      columns[`${c}_score`] = rec[`${c}_score`] as Float64Array;
    }
    const r = checkConformance({ time: rec["time"] as Float64Array, columns });
    expect(r.summary.conforms).toBe(true);
    expect(r.summary.labelAgreement).toBeNaN(); // no published label in this layout
    const { imbalance_score: _s, ...noScore } = columns;
    expect(inferWeights({ time: rec["time"] as Float64Array, columns: noScore }).weights["imbalance"]).toBeCloseTo(0.3, 12);
  });

  it("does not mutate the recording; toDataFrame has the per-row diffs", () => {
    const rec = recording(30, 7, OTHER);
    const before = JSON.stringify(Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, Array.from(v as ArrayLike<unknown>)])));
    const r = checkConformance(rec);
    expect(JSON.stringify(Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, Array.from(v as ArrayLike<unknown>)])))).toBe(before);
    const df = r.toDataFrame();
    expect(df.columns).toEqual(["time", "composite", "published", "diff", ...COMPONENT_NAMES.map((c) => `${c}_diff`), "label", "published_label"]);
    expect(df.shape[0]).toBe(30);
  });
});

describe("inferWeights", () => {
  it("recovers known weights, including a zero weight, to 1e-12", () => {
    const rec = recording(2000, 8, OTHER);
    const fit = inferWeights(rec);
    for (const c of COMPONENT_NAMES) expect(Math.abs(fit.weights[c]! - OTHER[c]!)).toBeLessThan(1e-12);
    expect(fit.weights["gas"]).toBe(0);
    expect(fit.rows).toBe(2000);
    expect(fit.maxAbsResidual).toBeLessThan(1e-13);
    expect(fit.r2).toBeCloseTo(1, 12);
    expect(fit.start).toBe(1.75e12);
    expect(fit.end).toBe(1.75e12 + 1999 * 60_000);
  });

  it("with noise (composite rounded to 4 decimals): close to the truth, and the KKT conditions certify the optimum", () => {
    const rec = recording(3000, 9, { imbalance: 0.5, funding: 0.5, basis_spread: 0, momentum_5m: 0, gas: 0 });
    rec["composite_score"] = Float64Array.from(rec["composite_score"] as Float64Array, (c) => Math.round(c * 1e4) / 1e4);
    const fit = inferWeights(rec);
    expect(fit.weights["imbalance"]).toBeCloseTo(0.5, 3);
    expect(fit.weights["funding"]).toBeCloseTo(0.5, 3);
    const sum = Object.values(fit.weights).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(1, 14);
    expect(Object.values(fit.weights).every((w) => w >= 0)).toBe(true);
    expect(kktHolds(rec, fit.weights)).toBe(true);
    expect(fit.rmse).toBeLessThan(5e-5);
    expect(fit.rmse).toBeGreaterThan(0);
    // a perturbed weight set fits worse
    expect(kktHolds(rec, { imbalance: 0.49, funding: 0.51, basis_spread: 0, momentum_5m: 0, gas: 0 })).toBe(false);
  });

  it("a weight change midway shows in rolling windows (and the single fit blurs it)", () => {
    const rec = recording(4000, 10, DEFAULT_WEIGHTS, { weights: OTHER, at: 2000 });
    const fits = inferWeightsRolling(rec, { window: 1000 });
    expect(fits.length).toBe(4);
    for (const [k, f] of fits.entries()) {
      const truth = k < 2 ? DEFAULT_WEIGHTS : OTHER;
      for (const c of COMPONENT_NAMES) expect(Math.abs(f.weights[c]! - (truth as Record<string, number>)[c]!)).toBeLessThan(1e-12);
      expect([f.firstRow, f.lastRow]).toEqual([k * 1000, k * 1000 + 999]);
    }
    const whole = inferWeights(rec);
    expect(whole.maxAbsResidual).toBeGreaterThan(0.01);
    // overlapping windows: the one straddling the change has large residuals
    const step = inferWeightsRolling(rec, { window: 1000, step: 500 });
    expect(step.length).toBe(7);
    expect(step[3]!.maxAbsResidual).toBeGreaterThan(0.01);
    expect(step[2]!.maxAbsResidual).toBeLessThan(1e-12);
    // a last partial window is left out
    expect(inferWeightsRolling(rec, { window: 1500 }).length).toBe(2);
  });

  it("rows with a NaN score or composite are left out", () => {
    const rec = recording(200, 11, OTHER);
    const s = Float64Array.from(rec["gas_score"] as Float64Array);
    s[0] = Number.NaN;
    s[1] = Number.NaN;
    const fit = inferWeights({ ...rec, gas_score: s });
    expect(fit.rows).toBe(198);
    expect(Math.abs(fit.weights["basis_spread"]! - 0.3)).toBeLessThan(1e-12);
  });

  it("fits from _value columns (scored with the default scorers) and a subset of components", () => {
    const rec = recording(300, 12, { imbalance: 0.7, funding: 0.3 });
    const valuesOnly = Object.fromEntries(Object.entries(rec).filter(([k]) => !k.endsWith("_score") || k === "composite_score"));
    const fit = inferWeights(valuesOnly, { components: ["imbalance", "funding"] });
    expect(fit.weights["imbalance"]).toBeCloseTo(0.7, 12);
    expect(fit.weights["funding"]).toBeCloseTo(0.3, 12);
  });

  it("empty, one row and a constant composite", () => {
    const empty = Object.fromEntries(Object.keys(recording(1, 13, OTHER)).map((k) => [k, []]));
    const e = inferWeights(empty);
    expect(e.rows).toBe(0);
    expect(Object.values(e.weights).every(Number.isNaN)).toBe(true);
    expect(e.rmse).toBeNaN();
    const one = inferWeights(recording(1, 13, OTHER));
    expect(one.rows).toBe(1);
    expect(one.maxAbsResidual).toBeLessThan(1e-12); // underdetermined: some exact fit
    expect(Object.values(one.weights).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    const flat = { composite_score: [0.2, 0.2, 0.2], a_score: [0.2, 0.2, 0.2] };
    const f = inferWeights(flat, { components: ["a"] });
    expect(f.weights["a"]).toBe(1);
    expect(f.r2).toBeNaN();
  });

  it("rejects missing columns and bad options", () => {
    expect(() => inferWeights({ composite_score: [1] }, { components: ["x"] })).toThrow(
      "inferWeights: recording has no x_score column nor a x_value or x column; pass components to fit fewer",
    );
    expect(() => inferWeights({ a_score: [1] }, { components: ["a"] })).toThrow(/needs the published composite/);
    expect(() => inferWeights({ composite_score: [1] }, { components: [] })).toThrow("inferWeights: components must name 1 to 16 components, got 0");
    expect(() => inferWeightsRolling(recording(10, 1, OTHER), { window: 0 })).toThrow(
      "inferWeightsRolling: window must be a positive integer number of rows, got 0",
    );
    expect(() => inferWeightsRolling(recording(10, 1, OTHER), { window: 5, step: 0.5 })).toThrow(InvalidArgumentError);
  });
});
