/**
 * replayComposite({ into }): the caller's label, strength and confidence columns. References:
 * hand-computed rows (the published BTC row of docs/DESIGN.md, composite -0.0771, neutral; rows
 * worked out from the scorers' formulas) and classifySignal / classifySignalStrength /
 * signalConfidence row by row (the row functions, which share no code with the replay's loops).
 */
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { DEFAULT_WEIGHTS, classifySignal, classifySignalStrength, compositeScore, replayComposite, scoreComponents, signalConfidence } from "../../src/signals/index.js";
import { mulberry32 } from "./helpers.js";

const LABEL = { buy: 1, sell: -1, neutral: 0 } as const;

/** n rows of the five service components, some NaN, across the replay's blocks of 1024 rows. */
function table(n: number, seed = 11): Record<"imbalance" | "funding" | "basis_spread" | "momentum_5m" | "gas", Float64Array> {
  const rnd = mulberry32(seed);
  const col = (f: () => number) => Float64Array.from({ length: n }, f);
  const t = {
    imbalance: col(() => rnd() * 1.2 - 0.1),
    funding: col(() => (rnd() - 0.5) * 3e-4),
    basis_spread: col(() => (rnd() - 0.5) * 120),
    momentum_5m: col(() => (rnd() - 0.5) * 6),
    gas: col(() => rnd() * 3),
  };
  for (let i = 3; i < n; i += 977) t.funding[i] = Number.NaN;
  return t;
}

describe("replayComposite({ into }): the caller's columns", () => {
  it("writes the hand-computed labels into the caller's column and returns that column", () => {
    // Row 0: the published row (composite ≈ -0.0771, neutral). Row 1: imbalance 1 (score 1), funding
    // -0.0001 (score 1), basis -50 (1), momentum 2 (1), gas 0.8 (0.3): 0.3+0.25+0.2+0.15+0.03 = 0.93, buy.
    // Row 2: imbalance 0 (-1), funding 0.0001 (-1), basis 50 (-1), momentum -2 (-1), gas 0.8: -0.87, sell.
    const values = { imbalance: [0.6305, 1, 0], funding: [0.0000048, -0.0001, 0.0001], basis_spread: [50, -50, 50], momentum_5m: [0.356, 2, -2], gas: [0.8, 0.8, 0.8] };
    const buf = new Int8Array(3).fill(9);
    const r = replayComposite(values, { into: { label: buf } });
    expect(r.label).toBe(buf);
    expect(Array.from(buf)).toEqual([0, 1, -1]);
    expect(r.composite[1]).toBeCloseTo(0.93, 12);
  });

  it("gives, bit for bit, the row functions' labels, strengths and confidences, whatever the columns held", () => {
    const n = 3000;
    const t = table(n);
    const into = { label: new Int8Array(n).fill(7), strength: new Int8Array(n).fill(-7), confidence: new Float64Array(n).fill(42) };
    const r = replayComposite(t, { threshold: 0.05, strong: 0.25, into });
    expect(r.label).toBe(into.label);
    expect(r.strength).toBe(into.strength);
    expect(r.confidence).toBe(into.confidence);
    for (let i = 0; i < n; i++) {
      const scores = scoreComponents({ imbalance: t.imbalance[i], funding: t.funding[i], basis_spread: t.basis_spread[i], momentum_5m: t.momentum_5m[i], gas: t.gas[i] } as Record<string, number>);
      const c = compositeScore(scores);
      expect(into.label[i]).toBe(LABEL[classifySignal(c, { threshold: 0.05 })]);
      expect(into.strength[i]).toBe(classifySignalStrength(c, { threshold: 0.05, strong: 0.25 }));
      expect(Object.is(into.confidence[i], signalConfidence(scores, DEFAULT_WEIGHTS, c))).toBe(true);
    }
  });

  it("is the caller's: the next replay given the same column overwrites it (copy what is kept)", () => {
    const t = table(2500);
    const buf = new Int8Array(2500);
    const a = replayComposite(t, { threshold: 0.02, into: { label: buf } }).label;
    const kept = a.slice();
    const b = replayComposite(t, { threshold: 0.3, into: { label: buf } }).label;
    expect(b).toBe(a);
    expect(Array.from(b)).toEqual(Array.from(replayComposite(t, { threshold: 0.3 }).label));
    expect(Array.from(kept)).toEqual(Array.from(replayComposite(t, { threshold: 0.02 }).label));
    expect(Array.from(kept)).not.toEqual(Array.from(b));
  });

  it("writes the column only when the field is read, and leaves unread columns and the inputs untouched", () => {
    const t = table(1500);
    const copy = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, v.slice()]));
    const into = { label: new Int8Array(1500).fill(5), strength: new Int8Array(1500).fill(5) };
    const r = replayComposite(t, { into });
    expect(into.label.every((x) => x === 5)).toBe(true);
    void r.label;
    expect(into.label.some((x) => x === 5)).toBe(false);
    expect(into.strength.every((x) => x === 5)).toBe(true);
    for (const [k, v] of Object.entries(t)) expect(v).toEqual(copy[k]);
  });

  it("handles no rows, one row, a constant table and an all-NaN row", () => {
    expect(replayComposite({ imbalance: [], funding: [], basis_spread: [], momentum_5m: [], gas: [] }, { into: { label: new Int8Array(0) } }).label.length).toBe(0);
    const one = new Int8Array(1);
    expect(Array.from(replayComposite({ imbalance: [1], funding: [-0.0001], basis_spread: [-50], momentum_5m: [2], gas: [0.8] }, { into: { label: one } }).label)).toEqual([1]);
    const constant = new Int8Array(4).fill(3);
    const c = replayComposite({ imbalance: [0.5, 0.5, 0.5, 0.5], funding: [0, 0, 0, 0], basis_spread: [0, 0, 0, 0], momentum_5m: [0, 0, 0, 0], gas: [0.8, 0.8, 0.8, 0.8] }, { into: { label: constant } });
    expect(Array.from(c.label)).toEqual([0, 0, 0, 0]); // composite 0.03 < 0.1
    const nan = new Int8Array(1).fill(1);
    expect(Array.from(replayComposite({ imbalance: [Number.NaN], funding: [Number.NaN], basis_spread: [Number.NaN], momentum_5m: [Number.NaN], gas: [Number.NaN] }, { into: { label: nan } }).label)).toEqual([0]);
  });

  it("refuses what it cannot write into, naming the column and the fix", () => {
    const t = table(10);
    const bad = (into: unknown) => () => replayComposite(t, { into } as never);
    expect(bad(null)).toThrow(InvalidArgumentError);
    expect(bad(null)).toThrow(/replayComposite: into must be an object/);
    expect(bad({ label: new Float64Array(10) })).toThrow(/into\.label must be an Int8Array of 10 values \(one per row\), got a Float64Array of 10 values/);
    expect(bad({ label: new Int8Array(9) })).toThrow(/into\.label must be an Int8Array of 10 values/);
    expect(bad({ confidence: new Int8Array(10) })).toThrow(/into\.confidence must be a Float64Array/);
    expect(bad({ composite: new Float64Array(10) })).toThrow(/into\.composite is not a column a replay writes into; use label, strength, confidence/);
    const shared = new Int8Array(t.gas.buffer, 0, 10);
    expect(bad({ label: shared })).toThrow(/into\.label shares memory with an input column/);
    const one = new Int8Array(10);
    expect(bad({ label: one, strength: one })).toThrow(/into\.strength shares memory/);
  });
});
