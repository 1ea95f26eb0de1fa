/**
 * replayComposite's kernel (src/signals/fuseComposite.ts), as columns and
 * streamed (signalInto) across its internal blocks of 1024 rows: default scorers
 * inlined, custom scorers called, already-scored columns, one to seven components
 * (groups of five slots), missing scores recomputed row by row, confidence and
 * strength built on first access. Reference: the row-by-row functions
 * (scoreComponents + compositeScore + classifySignal + signalConfidence), which
 * share no code with the kernel; equality is bit for bit.
 */
import { describe, expect, it } from "vitest";
import {
  classifySignal,
  classifySignalStrength,
  compositeScore,
  replayComposite,
  scoreComponents,
  signalConfidence,
  type Weights,
} from "../../src/signals/index.js";
import { mulberry32, sameValues } from "./helpers.js";

const LABEL = { buy: 1, sell: -1, neutral: 0 } as const;
const same = (a: number, b: number) => a === b || (Number.isNaN(a) && Number.isNaN(b));

/** Weights in a non-default order, with a custom-scored component in the middle. */
const WEIGHTS: Weights = { gas: 0.1, custom: 0.2, momentum_5m: 0.15, imbalance: 0.3, funding: 0.25 };
const custom = (v: number) => Math.tanh(v);

/** n rows; NaN cells clustered in a few row ranges that straddle block edges (1024, 2048, 3072). */
function table(n: number, seed: number): Record<string, Float64Array> {
  const rnd = mulberry32(seed);
  const col = (f: () => number) => Float64Array.from({ length: n }, f);
  const t: Record<string, Float64Array> = {
    gas: col(() => rnd() * 20),
    custom: col(() => (rnd() - 0.5) * 4),
    momentum_5m: col(() => (rnd() - 0.5) * 6),
    imbalance: col(() => rnd() * 1.2 - 0.1),
    funding: col(() => (rnd() - 0.5) * 3e-4),
  };
  const names = Object.keys(t);
  for (const [lo, hi] of [[1020, 1030], [2040, 2050], [3070, 3075], [n - 3, n]] as const) {
    for (let i = lo; i < hi; i++) {
      // every row in the range loses a component; some lose all of them
      const all = i % 4 === 0;
      for (const [j, name] of names.entries()) if (all || j === i % names.length) t[name]![i] = Number.NaN;
    }
  }
  return t;
}

function rowByRow(t: Record<string, Float64Array>, i: number, missing: "renormalise" | "zero" | "nan", weights: Weights) {
  const row = Object.fromEntries(Object.keys(weights).map((c) => [c, t[c]![i]!]));
  const scores = scoreComponents(row, { scorers: { custom } });
  const c = compositeScore(scores, { weights, missing });
  return { scores, c, label: LABEL[classifySignal(c)], conf: signalConfidence(scores, weights, c) };
}

describe("replayComposite over several blocks", () => {
  const n = 4100; // four full blocks and a partial one
  const t = table(n, 21);
  for (const missing of ["renormalise", "zero", "nan"] as const) {
    it(`mixed default and custom scorers, NaN rows at block edges, equal the row-by-row functions (missing: ${missing})`, () => {
      const r = replayComposite(t, { weights: WEIGHTS, scorers: { custom }, missing });
      const bad: string[] = [];
      for (let i = 0; i < n; i++) {
        const ref = rowByRow(t, i, missing, WEIGHTS);
        if (!same(r.composite[i]!, ref.c)) bad.push(`composite ${i}: ${r.composite[i]} vs ${ref.c}`);
        if (r.label[i] !== ref.label) bad.push(`label ${i}`);
        if (!same(r.confidence[i]!, ref.conf)) bad.push(`confidence ${i}: ${r.confidence[i]} vs ${ref.conf}`);
        for (const name of Object.keys(WEIGHTS)) if (!same(r.scores[name]![i]!, ref.scores[name]!)) bad.push(`${name} ${i}`);
      }
      expect(bad).toEqual([]);
      // the NaN ranges were really exercised: rows with no component are NaN under every policy
      expect(r.composite[1020]).toBeNaN();
      expect(Number.isNaN(r.composite[1021]!)).toBe(missing === "nan");
    });
  }

  for (const missing of ["renormalise", "zero", "nan"] as const) {
    it(`the label column read first (streamed, no score or composite column built) equals the row-by-row labels (missing: ${missing})`, () => {
      const r = replayComposite(t, { weights: WEIGHTS, scorers: { custom }, missing });
      const label = r.label; // before any other column
      expect(r.label).toBe(label); // cached
      const bad: string[] = [];
      for (let i = 0; i < n; i++) if (label[i] !== rowByRow(t, i, missing, WEIGHTS).label) bad.push(`label ${i}`);
      expect(bad).toEqual([]);
      expect(label[1020]).toBe(0); // a row with no component: neutral
      expect(new Set(label).size).toBe(3);
    });
  }

  it("from: 'scores' replays score columns as given, infinities included, and shares them", () => {
    const rnd = mulberry32(5);
    const a = Float64Array.from({ length: n }, () => rnd() * 2 - 1);
    const b = Float64Array.from({ length: n }, () => rnd() * 2 - 1);
    a[1500] = Number.POSITIVE_INFINITY;
    b[1500] = Number.NEGATIVE_INFINITY; // inf - inf: NaN with every score present
    b[2500] = Number.NaN;
    const w = { a: 0.5, b: 0.5 };
    for (const missing of ["renormalise", "zero", "nan"] as const) {
      const r = replayComposite({ a, b }, { weights: w, from: "scores", missing });
      expect(r.scores["a"]).toBe(a);
      for (let i = 0; i < n; i++) {
        const c = compositeScore({ a: a[i]!, b: b[i]! }, { weights: w, missing });
        expect(same(r.composite[i]!, c), `row ${i}`).toBe(true);
      }
      expect(r.composite[1500]).toBeNaN();
      expect(r.composite[2500]).toBe(missing === "nan" ? Number.NaN : missing === "zero" ? 0.5 * a[2500]! : a[2500]);
    }
  });

  it("confidence and strength are built once, on first access, with the eager numbers", () => {
    const r = replayComposite(t, { weights: WEIGHTS, scorers: { custom }, strong: 0.3 });
    const conf = r.confidence;
    expect(r.confidence).toBe(conf); // cached, not rebuilt
    const strength = r.strength;
    expect(r.strength).toBe(strength);
    for (let i = 0; i < n; i++) expect(strength[i], `row ${i}`).toBe(classifySignalStrength(r.composite[i]!, { strong: 0.3 }));
    const df = { ...r }; // spreading reads the getters: same arrays
    expect(df.confidence).toBe(conf);
    expect(sameValues(conf, Float64Array.from({ length: n }, (_, i) => rowByRow(t, i, "renormalise", WEIGHTS).conf))).toBe(true);
  });

  it("does not mutate its input", () => {
    const copy = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Float64Array.from(v)]));
    replayComposite(t, { weights: WEIGHTS, scorers: { custom } }).confidence;
    expect(t).toEqual(copy);
  });
});

describe("replayComposite streamed (signalInto) over several blocks", () => {
  const n = 4100;
  const t = table(n, 21);
  const rnd = mulberry32(8);
  // the extra components, with NaN rows of their own across the block edge at 2048
  t["volatility"] = Float64Array.from({ length: n }, (_, i) => (i >= 2045 && i < 2052 ? Number.NaN : rnd() * 120));
  t["correlation"] = Float64Array.from({ length: n }, () => rnd() * 2 - 1);
  t["volatility"][1020] = t["correlation"][1020] = Number.NaN; // row 1020 has no component at all

  /** Labels of every row from signalInto, asked for in chunks of `step` rows (chunks straddle the 1024-row blocks). */
  function streamed(r: ReturnType<typeof replayComposite>, step: number): number[] {
    const out: number[] = [];
    const buf = new Float64Array(step);
    for (let lo = 0; lo < n; lo += step) {
      const hi = Math.min(n, lo + step);
      r.signalInto(buf, lo, hi);
      out.push(...buf.subarray(0, hi - lo));
    }
    return out;
  }
  const reference = (weights: Weights, missing: "renormalise" | "zero" | "nan") => Array.from({ length: n }, (_, i) => rowByRow(t, i, missing, weights));

  const models: Record<string, Weights> = {
    "five, custom in the middle": WEIGHTS,
    "one": { custom: 1 },
    "six (a group of five and one)": { volatility: 0.5, gas: 0.1, custom: 0.1, momentum_5m: 0.1, imbalance: 0.1, funding: 0.1 },
    "seven (a group of five and two)": { gas: 0.1, custom: 0.15, momentum_5m: 0.15, imbalance: 0.2, funding: 0.2, volatility: 0.1, correlation: 0.1 },
  };
  for (const [model, weights] of Object.entries(models)) {
    for (const missing of ["renormalise", "zero", "nan"] as const) {
      it(`${model} (missing: ${missing}): streamed labels, then the columns, equal the row-by-row functions`, () => {
        const ref = reference(weights, missing);
        const r = replayComposite(t, { weights, scorers: { custom }, missing });
        const bad: string[] = [];
        const before = streamed(r, 700);
        for (let i = 0; i < n; i++) if (before[i] !== ref[i]!.label) bad.push(`streamed label ${i}: ${before[i]} vs ${ref[i]!.label}`);
        for (let i = 0; i < n; i++) if (!same(r.composite[i]!, ref[i]!.c)) bad.push(`composite ${i}: ${r.composite[i]} vs ${ref[i]!.c}`);
        for (const name of Object.keys(weights)) for (let i = 0; i < n; i++) if (!same(r.scores[name]![i]!, ref[i]!.scores[name]!)) bad.push(`${name} ${i}`);
        // once the columns exist, signalInto reads them: same labels
        const after = streamed(r, 333);
        for (let i = 0; i < n; i++) if (after[i] !== before[i]) bad.push(`label after the columns ${i}`);
        expect(bad).toEqual([]);
        // NaN rows were really met: row 1020 has no component (composite NaN, neutral)
        expect(r.composite[1020]).toBeNaN();
      });
      it(`${model} (missing: ${missing}): the label column read first (one row loop scoring, summing and labelling) equals the row-by-row labels`, () => {
        const ref = reference(weights, missing);
        const label = replayComposite(t, { weights, scorers: { custom }, missing }).label;
        const bad: string[] = [];
        for (let i = 0; i < n; i++) if (label[i] !== ref[i]!.label) bad.push(`label ${i}: ${label[i]} vs ${ref[i]!.label}`);
        expect(bad).toEqual([]);
        expect(new Set(label).size).toBe(3);
      });
    }
  }

  it("from: 'scores', streamed: labels of the composite of the score columns, infinities included", () => {
    const a = Float64Array.from({ length: n }, () => rnd() * 2 - 1);
    const b = Float64Array.from({ length: n }, () => rnd() * 2 - 1);
    a[1500] = Number.POSITIVE_INFINITY;
    b[1500] = Number.NEGATIVE_INFINITY; // inf - inf: NaN with every score present -> neutral
    a[1600] = Number.POSITIVE_INFINITY; // +inf composite -> buy
    b[2500] = Number.NaN;
    const w = { a: 0.5, b: 0.5 };
    for (const missing of ["renormalise", "zero", "nan"] as const) {
      const s = streamed(replayComposite({ a, b }, { weights: w, from: "scores", missing }), 1000);
      const ref = Array.from({ length: n }, (_, i) => LABEL[classifySignal(compositeScore({ a: a[i]!, b: b[i]! }, { weights: w, missing }))]);
      expect(s).toEqual(ref);
      expect([s[1500], s[1600]]).toEqual([0, 1]);
    }
  });

  it("a custom scorer is not called for a NaN value, streamed or as columns", () => {
    const seen: number[] = [];
    const spy = (v: number) => {
      seen.push(v);
      return Math.tanh(v);
    };
    const r = replayComposite(t, { weights: WEIGHTS, scorers: { custom: spy } });
    streamed(r, 512);
    void r.composite;
    expect(seen.some((v) => Number.isNaN(v))).toBe(false);
    expect(seen.length).toBeGreaterThan(n); // called per row (twice per row missing a score when streamed)
  });
});
