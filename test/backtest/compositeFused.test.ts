import { describe, expect, it } from "vitest";
import { backtest, type BacktestOptions } from "../../src/backtest/index.js";
import { inlineExpression } from "../../src/backtest/kernel/inlineExpression.js";
import { cappedTarget, carriedTarget, signalSide, targetPositions, type TargetOptions } from "../../src/backtest/targetPositions.js";
import { labelCode } from "../../src/signals/classifySignal.js";
import { replayComposite } from "../../src/signals/index.js";
import { compositeBars as data, resultNumbers } from "../support/compositeBars.js";
import { mulberry32 } from "../support/mulberry32.js";

/** Every series, the trades and the capped count of a backtest, as plain numbers. */
function everything(o: BacktestOptions): unknown {
  return resultNumbers(backtest(o));
}

describe("backtest with a composite replay as the signal (compiled into the kernel's loop)", () => {
  const n = 3000;
  const d = data(n, 5);
  const base = { close: d.close, open: d.open, funding: d.funding, feeBps: 4, slippageBps: 1, initialCash: 1000 };
  const cases: Record<string, Partial<BacktestOptions>> = {
    default: {},
    "next_open whole on_change": { fill: "next_open", units: "whole", rebalance: "on_change" },
    "hold, long only, levered size capped": { neutral: "hold", shorts: false, size: 2, maxLeverage: 1.5 },
    "fractional on_change": { rebalance: "on_change", size: 0.5 },
    "regime filter (flatWhen), hold, levered size capped": { neutral: "hold", size: 2, maxLeverage: 1.5, flatWhen: Uint8Array.from({ length: n }, (_, i) => (Math.floor(i / 50) % 3 === 1 ? 1 : 0)) },
    "regime filter of booleans, next_open whole on_change": { fill: "next_open", units: "whole", rebalance: "on_change", flatWhen: Array.from({ length: n }, (_, i) => i % 7 < 2) },
    "confidence sizing, hold, size 2 capped at 1.5": { neutral: "hold", size: 2, maxLeverage: 1.5, sizing: { by: "confidence", confidence: Float64Array.from({ length: n }, (_, i) => (i % 31 === 0 ? Number.NaN : (i % 12) / 10)) } },
    "volatility sizing, a regime filter, long only": { shorts: false, sizing: { by: "volatility", target: 40, volatility: Float64Array.from({ length: n }, (_, i) => (i % 43 === 0 ? 0 : 15 + (i % 9) * 10)) }, flatWhen: Uint8Array.from({ length: n }, (_, i) => (i % 11 < 3 ? 1 : 0)) },
  };
  for (const [name, extra] of Object.entries(cases)) {
    it(`${name}: every series, trade and the capped count equal the same labels given as a column`, () => {
      for (const options of [{ threshold: 0.05 }, { threshold: 0, missing: "zero" as const }, { threshold: 0.1, missing: "nan" as const, scorers: { gas: (v: number) => (v > 1.5 ? -0.5 : 0.5) } }]) {
        const labels = Float64Array.from(replayComposite(d.comp, options).label);
        const fused = everything({ ...base, ...extra, signal: replayComposite(d.comp, options) } as BacktestOptions);
        const column = everything({ ...base, ...extra, signal: labels } as BacktestOptions);
        expect(fused).toEqual(column);
      }
    });
  }
  it("one bar and an empty run", () => {
    const one = { imbalance: [0.9], funding: [0], basis_spread: [0], momentum_5m: [0], gas: [1] };
    expect(Array.from(backtest({ close: [100], signal: replayComposite(one) }).equity)).toEqual([10_000]);
    const none = { imbalance: [], funding: [], basis_spread: [], momentum_5m: [], gas: [] };
    expect(backtest({ close: [], signal: replayComposite(none) }).equity.length).toBe(0);
  });
  it("does not mutate the component columns", () => {
    const copy = Object.fromEntries(Object.entries(d.comp).map(([k, v]) => [k, Float64Array.from(v)]));
    backtest({ ...base, signal: replayComposite(d.comp) });
    expect(d.comp).toEqual(copy);
  });
});

describe("backtest with a position column (compiled into the kernel's loop)", () => {
  const n = 3000;
  const d = data(n, 9);
  const rnd = mulberry32(17);
  // Positions in [-2.5, 2.5] with NaN (flat), -0, runs held and exact cap values.
  const raw = Array.from({ length: n }, (_, i) => {
    const u = rnd();
    return u < 0.03 ? Number.NaN : u < 0.05 ? -0 : u < 0.07 ? 1.5 : i % 7 === 0 ? 0 : Math.round(10 * (5 * rnd() - 2.5)) / 10;
  });
  const base = { close: d.close, open: d.open, funding: d.funding, feeBps: 4, slippageBps: 1, initialCash: 1000 };
  const modes: Record<string, Partial<BacktestOptions>> = {
    default: {},
    "capped at 1.5": { maxLeverage: 1.5 },
    "next_open whole on_change": { fill: "next_open", units: "whole", rebalance: "on_change", maxLeverage: 3 },
    "fractional on_change, ledger and metrics": { rebalance: "on_change", maxLeverage: 3, outputs: ["equity", "trades", "metrics"], periodsPerYear: 525_600 },
  };
  // A regime filter in runs (flat 1 bar in 4 on average), with NaN (not truthy: no filter) here and there.
  const regime = Float64Array.from({ length: n }, (_, i) => (i % 97 === 5 ? Number.NaN : Math.floor(i / 40) % 4 === 1 ? 1 : 0));
  // A confidence with NaN, below 0 and above 1; a volatility with 0, NaN and infinity.
  const confidence = Float64Array.from({ length: n }, (_, i) => (i % 53 === 0 ? Number.NaN : i % 59 === 0 ? -0.5 : i % 61 === 0 ? 1.5 : (i % 10) / 10));
  const volatility = Float64Array.from({ length: n }, (_, i) => (i % 47 === 0 ? 0 : i % 67 === 0 ? Number.NaN : i % 71 === 0 ? Number.POSITIVE_INFINITY : 20 + (i % 13) * 5));
  const rules: Record<string, Partial<BacktestOptions>> = {
    "no rule": {},
    "regime filter": { flatWhen: regime },
    "confidence sizing": { sizing: { by: "confidence", confidence } },
    "volatility sizing with a regime filter": { sizing: { by: "volatility", target: 40, volatility }, flatWhen: regime },
  };
  /** The targets by the documented rule (docs/DESIGN.md, targetPositions), written here independently of the engine's. */
  const documentedTargets = (position: ArrayLike<number>, o: Partial<BacktestOptions>, L: number) => {
    let capped = 0;
    const targets = Float64Array.from({ length: n }, (_, i) => {
      let w = Number(position[i]);
      if (Number.isNaN(w)) w = 0;
      const s = o.sizing as { by: string; confidence?: Float64Array; volatility?: Float64Array; target?: number } | undefined;
      if (s?.by === "confidence") w *= Number.isNaN(s.confidence![i]!) ? 0 : Math.min(1, Math.max(0, s.confidence![i]!));
      if (s?.by === "volatility") w = Number.isFinite(s.volatility![i]!) && s.volatility![i]! > 0 ? (w * s.target!) / s.volatility![i]! : 0;
      if (o.flatWhen !== undefined && o.flatWhen[i]) w = 0;
      if (Math.abs(w) > L) capped++;
      return Math.max(-L, Math.min(L, w)) + 0;
    });
    return { targets, capped };
  };
  const columns: Record<string, ArrayLike<number>> = {
    Float64Array: Float64Array.from(raw),
    "a plain array": raw,
    Int8Array: Int8Array.from(raw, (x) => (x === x ? Math.trunc(x) : 0)),
  };
  for (const [mode, extra] of Object.entries(modes)) {
    for (const [kind, position] of Object.entries(columns)) {
      for (const [rule, options] of Object.entries(rules)) {
        it(`${mode}, ${kind}, ${rule}: every series and trade equal the backtest of the targets the documented rule gives (sized, filtered, capped), and the capped count`, () => {
          const L = (extra.maxLeverage as number | undefined) ?? 1;
          const { targets, capped } = documentedTargets(position, options, L);
          const fused = backtest({ ...base, ...extra, position, ...options } as BacktestOptions);
          const reference = backtest({ ...base, ...extra, position: targets, maxLeverage: 1e9 } as BacktestOptions);
          expect({ ...resultNumbers(fused), capped: 0 }).toEqual({ ...resultNumbers(reference), capped: 0 });
          expect(fused.capped).toBe(capped);
          if (extra.outputs !== undefined) expect(fused.metrics).toEqual(reference.metrics);
        });
      }
    }
  }
  it("counts the bars the cap bound and carries a target over a missing price (hand-computed)", () => {
    const r = backtest({ close: [100, Number.NaN, 110, 100], position: [2, -3, Number.NaN, 0.5], maxLeverage: 1, initialCash: 1000 });
    expect(r.capped).toBe(2);
    expect(Array.from(r.positions)).toEqual([1, 1, 0, 0.5]);
    expect(r.equity[2]).toBeCloseTo(1100, 9); // 10 units held from 100 to 110
  });
  it("does not mutate the position column", () => {
    const copy = Float64Array.from(columns["Float64Array"] as Float64Array);
    backtest({ ...base, position: columns["Float64Array"] as Float64Array });
    expect(columns["Float64Array"]).toEqual(copy);
  });
});

describe("backtest with a signal column (compiled into the kernel's loop)", () => {
  const n = 2500;
  const d = data(n, 23);
  const rnd = mulberry32(31);
  const values = Array.from({ length: n }, () => {
    const u = rnd();
    return u < 0.03 ? Number.NaN : u < 0.3 ? 0 : u < 0.6 ? 0.4 : u < 0.65 ? -0 : -2;
  });
  const labels = values.map((x) => (x > 0 ? "buy" : x < 0 ? "sell" : "neutral"));
  const base = { close: d.close, open: d.open, funding: d.funding, feeBps: 4, slippageBps: 1, initialCash: 1000 };
  /** Positions by the documented signal rule (buy +1, sell -1 or flat without shorts, neutral flat or the held side) x size, capped. */
  const documented = (sg: readonly number[], o: { neutral?: string; shorts?: boolean; size?: number; maxLeverage?: number }) => {
    let side = 0;
    return Float64Array.from(sg, (x) => {
      side = x > 0 ? 1 : x < 0 ? (o.shorts === false ? 0 : -1) : o.neutral === "hold" ? side : 0;
      const w = side * (o.size ?? 1);
      const L = o.maxLeverage ?? 1;
      return Math.max(-L, Math.min(L, w)) + 0;
    });
  };
  const cases: Record<string, { neutral?: "hold"; shorts?: boolean; size?: number; maxLeverage?: number; fill?: "next_open"; units?: "whole" }> = {
    default: {},
    "hold, long only, half size": { neutral: "hold", shorts: false, size: 0.5 },
    "size 2 capped at 1.5, next_open whole": { size: 2, maxLeverage: 1.5, fill: "next_open", units: "whole" },
  };
  for (const [name, o] of Object.entries(cases)) {
    for (const [kind, signal] of [["numbers", values], ["labels", labels]] as const) {
      it(`${name}, ${kind}: every series and trade equal the backtest of the positions the documented rule gives`, () => {
        const fused = backtest({ ...base, ...o, signal } as BacktestOptions);
        const reference = backtest({ ...base, ...o, position: documented(values, o), maxLeverage: 1e9 } as BacktestOptions);
        expect({ ...resultNumbers(fused), capped: 0 }).toEqual({ ...resultNumbers(reference), capped: 0 });
      });
    }
  }
  it("a bad label is an error naming its bar", () => {
    expect(() => backtest({ close: [1, 2, 3], signal: ["buy", "hold", "sell"] })).toThrow(/signal must hold numbers or "buy" \/ "sell" \/ "neutral", got "hold" at bar 1/);
  });
});

describe("inlineExpression", () => {
  it("writes a one-expression function's body with its parameters replaced, the same values as the call", () => {
    const src = inlineExpression(labelCode, ["x", "t"]);
    const f = new Function("x", "t", `return ${src};`) as (x: number, t: number) => number;
    for (const [x, t] of [[0.2, 0.1], [-0.2, 0.1], [0.05, 0.1], [0, 0], [Number.NaN, 0.1], [-0, 0]] as const) expect(f(x, t)).toBe(labelCode(x, t));
    const side = new Function("s", "h", `return ${inlineExpression(signalSide, ["0", "s", "true", "h"])};`) as (s: number, h: boolean) => number;
    expect([side(1, true), side(1, false), side(-1, true)]).toEqual([1, 0, -1]);
    const cap = new Function("w", `return ${inlineExpression(cappedTarget, ["w", "1"])};`) as (w: number) => number;
    expect([cap(2), cap(-2), cap(0.5), Object.is(cap(-0), 0)]).toEqual([1, -1, 0.5, true]);
    const carry = new Function("w", "c", `return ${inlineExpression(carriedTarget, ["w", "c", "3", "0.7"])};`) as (w: number, c: number) => number;
    expect([carry(1, Number.NaN), carry(1, 100)]).toEqual([0.7, 1]);
  });
  it("refuses a function that is not one expression of plain parameters", () => {
    expect(() => inlineExpression(function two(x: number) { const y = x + 1; return y; }, ["a"])).toThrow(/not a one-expression function/);
    expect(() => inlineExpression(labelCode, ["a"])).toThrow(/2 plain parameters|1 plain parameters/);
  });
});

describe("backtest({ position: targetPositions({ signal: replay }) }): the users' path, fused", () => {
  const n = 3000;
  const d = data(n, 9);
  const base = { close: d.close, open: d.open, funding: d.funding, feeBps: 4, slippageBps: 1, initialCash: 1000 };
  const cases: Record<string, { targets: Partial<TargetOptions>; backtest: Partial<BacktestOptions> }> = {
    default: { targets: {}, backtest: {} },
    "hold, long only, half size": { targets: { neutral: "hold", shorts: false, size: 0.5 }, backtest: {} },
    "levered size capped at 1.5, backtest cap 2, next_open whole on_change": {
      targets: { size: 2, maxLeverage: 1.5 },
      backtest: { maxLeverage: 2, fill: "next_open", units: "whole", rebalance: "on_change" },
    },
    "backtest cap below the targets (not fused: the column capped again)": { targets: { size: 1 }, backtest: { maxLeverage: 0.5 } },
    "backtest delay (the rule by blocks)": { targets: { neutral: "hold" }, backtest: { delayBars: 3 } },
  };
  for (const [name, c] of Object.entries(cases)) {
    it(`${name}: every series, trade and the capped count equal the targets given as a column`, () => {
      const whole = targetPositions({ signal: replayComposite(d.comp, { threshold: 0.05 }), ...c.targets }, n);
      const fused = everything({ ...base, ...c.backtest, position: whole } as BacktestOptions);
      const column = everything({ ...base, ...c.backtest, position: Float64Array.from(targetPositions({ signal: replayComposite(d.comp, { threshold: 0.05 }), ...c.targets }, n).positions) } as BacktestOptions);
      expect(fused).toEqual(column);
    });
  }
  it("computes nothing until read, and the backtest never asks the replay for its labels (the loop scores the values itself)", () => {
    const replay = replayComposite(d.comp);
    let calls = 0;
    const signalInto = replay.signalInto.bind(replay);
    (replay as { signalInto: typeof signalInto }).signalInto = (out, lo, hi) => {
      calls++;
      signalInto(out, lo, hi);
    };
    const targets = targetPositions({ signal: replay }, n);
    expect(calls).toBe(0);
    const r = backtest({ ...base, position: targets });
    expect(calls).toBe(0);
    expect(r.equity.length).toBe(n);
    expect(targets.positions.length).toBe(n);
    expect(calls).toBeGreaterThan(0);
  });
  it("its manifest records the targets as the position column they stand for (as the column run's manifest does)", () => {
    const targets = targetPositions({ signal: replayComposite(d.comp) }, n);
    const fused = backtest({ ...base, position: targets }).manifest;
    const column = backtest({ ...base, position: Float64Array.from(targets.positions) }).manifest;
    expect(fused.inputs).toEqual(column.inputs);
    expect(fused.parameters).toEqual(column.parameters);
    expect(fused.result).toEqual(column.result);
  });
  it("a signal of plain labels is still read at once (a bad label throws at the call)", () => {
    expect(() => targetPositions({ signal: ["buy", "hold"] }, 2)).toThrow(/signal must hold numbers or "buy"/);
  });
  it("rejects targets of another length, or targets with a signal", () => {
    const targets = targetPositions({ signal: replayComposite(d.comp) }, n);
    expect(() => backtest({ close: d.close.subarray(0, 10), position: targets })).toThrow(/position must have one value per bar \(10\), got targets of 3000 bars/);
    expect(() => backtest({ ...base, position: targets, signal: [1] })).toThrow(/give exactly one of position/);
  });
});
