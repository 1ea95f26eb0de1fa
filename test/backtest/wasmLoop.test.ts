/**
 * The WebAssembly backend of the sweep's generated pass (kernel/wasmLoop.ts): the same source
 * translated, so every variant's final kernel state (and metrics) must be the JavaScript loop's,
 * bit for bit, on hand-made edge cases (NaN closes, missing scores, ruin, funding, zero and one
 * bar, a run ending in a trade) and on random plans (fast-check). Both backends are reached
 * through runKernel's VARIANT_BACKEND switch; the wasm one must actually run (WASM_STATS).
 * The reference is the JavaScript pass, which test/research/sweepComposite.test.ts holds equal
 * to plain backtests.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { VARIANT_BACKEND } from "../../src/backtest/kernel/runKernel.js";
import { translateLoop, Untranslatable, WASM_STATS } from "../../src/backtest/kernel/wasmLoop.js";
import { evaluateVariants } from "../../src/research/evaluateVariants.js";
import { buildPlan } from "../../src/research/sweepComposite.js";
import { SWEEP_METRICS } from "../../src/research/sweepMetrics.js";
import { variantsPass } from "../../src/research/variantPass.js";
import type { KernelState } from "../../src/backtest/kernel/index.js";
import type { SweepPlan } from "../../src/research/SweepPlan.js";

afterEach(() => {
  VARIANT_BACKEND.wasm = false;
});

const NAMES = ["a", "b", "c"] as const;

interface Case {
  close: number[];
  scores: number[][];
  funding?: number[];
  weights?: Record<string, number>[];
  thresholds?: number[];
  missing?: "renormalise" | "zero" | "nan";
  neutral?: "flat" | "hold";
}

function planOf(c: Case): SweepPlan {
  const n = c.close.length;
  const input: Record<string, Float64Array> = { close: Float64Array.from(c.close) };
  NAMES.forEach((name, j) => (input[name] = Float64Array.from(c.scores[j] ?? new Array<number>(n).fill(0))));
  const options = {
    weights: c.weights ?? [{ a: 0.5, b: 0.3, c: 0.2 }, { c: 0.6, a: 0.4 }],
    thresholds: c.thresholds ?? [0.05, 0.2],
    from: "scores" as const,
    feeBps: 5,
    slippageBps: 2,
    periodsPerYear: 525_600,
    ...(c.funding !== undefined ? { barFunding: Float64Array.from(c.funding) } : {}),
    ...(c.missing !== undefined ? { missing: c.missing } : {}),
    ...(c.neutral !== undefined ? { neutral: c.neutral } : {}),
    workers: 0,
  };
  return buildPlan(input as never, options as never, "wasmLoop.test").plan;
}

/** Every number of a kernel state a pass moves. */
function stateOf(st: KernelState): number[] {
  return [...st.value, ...st.sums, ...st.units, ...st.last, ...st.held, st.trades, st.ruinIndex, st.next];
}

function passes(plan: SweepPlan, wasm: boolean): { states: number[][]; metrics: Float64Array } {
  VARIANT_BACKEND.wasm = wasm;
  const count = plan.vectors * plan.thresholds.length;
  const states: number[][] = [];
  for (let lo = 0; lo < count; lo += 4) for (const st of variantsPass(plan, lo, Math.min(count, lo + 4))) states.push(stateOf(st));
  const metrics = new Float64Array(SWEEP_METRICS.length * count);
  evaluateVariants(plan, 0, count, metrics, 0, count);
  VARIANT_BACKEND.wasm = false;
  return { states, metrics };
}

function expectSame(c: Case): number[][] {
  const plan = planOf(c);
  const js = passes(plan, false);
  const before = WASM_STATS.runs;
  const wasm = passes(plan, true);
  if (plan.n > 0) expect(WASM_STATS.runs, "the wasm loop ran").toBeGreaterThan(before);
  expect(wasm.states.length).toBe(js.states.length);
  js.states.forEach((s, v) => s.forEach((x, k) => expect(Object.is(wasm.states[v]?.[k], x), `variant ${v} state[${k}]: js ${x}, wasm ${wasm.states[v]?.[k]}`).toBe(true)));
  js.metrics.forEach((x, k) => expect(Object.is(wasm.metrics[k], x), `metric ${k}`).toBe(true));
  return js.states;
}

const wave = (n: number, f: (i: number) => number): number[] => Array.from({ length: n }, (_, i) => f(i));

describe("the sweep pass in WebAssembly equals the JavaScript pass", () => {
  const n = 300;
  const close = wave(n, (i) => 100 * (1 + 0.05 * Math.sin(i / 7)) + i * 0.01);
  const scores = [wave(n, (i) => Math.sin(i / 5)), wave(n, (i) => Math.cos(i / 11)), wave(n, (i) => Math.sin(i / 3 + 1) * 0.5)];

  it("a plain plan, with funding", () => {
    expectSame({ close, scores, funding: wave(n, (i) => (i % 8 === 0 ? 1e-4 * Math.sign(Math.sin(i)) : 0)) });
  });

  it("NaN closes, the first bar's too", () => {
    const c = close.map((x, i) => (i === 0 || i % 17 === 3 || (i > 100 && i < 110) ? Number.NaN : x));
    expectSame({ close: c, scores, funding: wave(n, () => 2e-5) });
  });

  it("missing scores under each policy (the composite's row fallback)", () => {
    const holes = scores.map((s, j) => s.map((x, i) => ((i + j) % 13 === 0 || (j === 0 && i > 200 && i < 220) ? Number.NaN : x)));
    for (const missing of ["renormalise", "zero", "nan"] as const) expectSame({ close, scores: holes, missing });
    expectSame({ close, scores: holes, neutral: "hold" });
  });

  it("ruin: a short through a price that more than doubles in one bar", () => {
    const c = wave(60, (i) => (i < 20 ? 100 : i < 40 ? 250 : 300));
    const states = expectSame({ close: c, scores: [wave(60, () => -1), wave(60, () => -0.5), wave(60, () => -1)], thresholds: [0.1] });
    // ruinIndex (stateOf's second-to-last but one) is set: the case reaches the ruin rule.
    expect(states.some((s) => (s[s.length - 2] as number) >= 0)).toBe(true);
  });

  it("zero bars, one bar, two bars", () => {
    expectSame({ close: [], scores: [[], [], []] });
    expectSame({ close: [100], scores: [[1], [0.5], [-1]] });
    expectSame({ close: [100, 101], scores: [[1, -1], [0.5, 0.5], [-1, 1]] });
  });

  it("a run ending in a trade (the signal flips on the last bars)", () => {
    const m = 50;
    const s = wave(m, (i) => (i < m - 2 ? 1 : i === m - 2 ? -1 : 1));
    expectSame({ close: wave(m, (i) => 100 + i), scores: [s, s, s], funding: wave(m, () => -3e-5) });
  });

  it("random plans (fast-check)", () => {
    const num = fc.double({ min: -1, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 80 }),
        fc.array(fc.oneof(num, fc.constant(Number.NaN)), { minLength: 3 * 80, maxLength: 3 * 80 }),
        fc.array(fc.oneof(fc.double({ min: 1, max: 200, noNaN: true }), fc.constant(Number.NaN)), { minLength: 80, maxLength: 80 }),
        fc.boolean(),
        fc.constantFrom("renormalise", "zero", "nan"),
        fc.constantFrom("flat", "hold"),
        (m, sc, cl, withFunding, missing, neutral) => {
          expectSame({
            close: cl.slice(0, m),
            scores: [0, 1, 2].map((j) => sc.slice(j * 80, j * 80 + m)),
            ...(withFunding ? { funding: cl.slice(0, m).map((x) => (x === x ? (x - 100) * 1e-5 : Number.NaN)) } : {}),
            missing,
            neutral,
            thresholds: [0, 0.3],
          });
        },
      ),
      { numRuns: 40, seed: 20261125 },
    );
  });
});

describe("translateLoop", () => {
  const wrap = (body: string): string => `"use strict"; return function f(sts, coins, params, lo, hi, out) { const X = params.x; let s = 0; ${body} params.s = s; };`;

  it("falls back (Untranslatable) on a shape it does not compile", () => {
    expect(() => translateLoop(wrap("for (let i = lo; i < hi; i++) { for (;;) break; }"))).toThrow(Untranslatable);
    expect(() => translateLoop(wrap("for (let i = lo; i < hi; i += 2) { s += X[i]; }"))).toThrow(Untranslatable);
    expect(() => translateLoop(wrap("for (let i = lo; i < hi; i++) { s = s === true ? 1 : 0; }"))).toThrow(Untranslatable);
  });

  it("JavaScript's truthiness, -0, NaN and Math.round where a number is a condition", async () => {
    const { compileWasmLoop } = await import("../../src/backtest/kernel/wasmLoop.js");
    const src = wrap(`for (let i = lo; i < hi; i++) {
      const x = X[i];
      const t = x ? 1 : 2;          // NaN, 0 and -0 are false
      const u = (x || 5) + (x && 7); // || and && give an operand, not a boolean
      const r = Math.round(x);
      s += t * 1000 + (u === u ? u : 500) + (r === r ? r * 1e-3 : 0.25) + (1 / Math.max(x, -0) === -Infinity ? 1e6 : 0) + (x !== x ? 1e7 : 0);
    }`);
    const xs = Float64Array.from([0, -0, Number.NaN, 0.5, -0.5, 2.5, -2.5, 0.49999999999999994, 1, -1]);
    const js = new Function("rules", src)(undefined) as (a: unknown, b: unknown, p: { x: Float64Array; s?: number }, lo: number, hi: number) => void;
    const wasm = compileWasmLoop<typeof js>(src, undefined);
    expect(wasm).toBeDefined();
    for (let i = 0; i < xs.length; i++) {
      const a: { x: Float64Array; s?: number } = { x: xs };
      const b: { x: Float64Array; s?: number } = { x: xs };
      js(undefined, undefined, a, i, i + 1);
      const runs = WASM_STATS.runs;
      wasm?.(undefined, undefined, b, i, i + 1);
      expect(WASM_STATS.runs).toBe(runs + 1);
      expect(Object.is(b.s, a.s), `x = ${xs[i]}: js ${a.s}, wasm ${b.s}`).toBe(true);
    }
  });
});
