import { spawnSync } from "node:child_process";
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { backtest, type BacktestOptions, type BacktestResult } from "../../src/backtest/index.js";
import { replayComposite } from "../../src/signals/index.js";
import { sweepComposite } from "../../src/research/index.js";
import { compositeBars as data, resultNumbers } from "../support/compositeBars.js";

/** Every series, the trades and the printed form of a result, read in this order. */
function everything(r: BacktestResult): unknown {
  return { ...resultNumbers(r), text: inspect(r) };
}

describe("backtest outputs: what the first pass computes, the rest on first access", () => {
  const n = 2000;
  const d = data(n, 11);
  const base = { close: d.close, open: d.open, funding: d.funding, feeBps: 4, slippageBps: 1, initialCash: 1000, periodsPerYear: 8760 };
  const strategies: Record<string, () => Partial<BacktestOptions>> = {
    "composite replay as the signal (fused loop)": () => ({ signal: replayComposite(d.comp, { threshold: 0.05 }) }),
    "a position column, next_open whole units, 2 bars of delay": () => ({ position: Float64Array.from(replayComposite(d.comp).composite, (x) => (x > 0 ? 1 : -0.5)), fill: "next_open", units: "whole", delayBars: 2 }),
  };
  const asked: readonly (readonly NonNullable<BacktestOptions["outputs"]>[number][])[] = [
    ["metrics"],
    [],
    ["equity", "trades", "metrics"],
    ["equity", "trades"],
    ["returns", "holdings", "positions"],
    ["equity", "returns", "positions", "exposure", "holdings", "turnover", "fees", "fundingPaid", "trades", "metrics"],
  ];
  for (const [name, strategy] of Object.entries(strategies)) {
    it(`${name}: every series, trade, metric and the printed form are bit-identical whatever outputs asks`, () => {
      const reference = backtest({ ...base, ...strategy() } as BacktestOptions);
      const expected = everything(reference);
      const metrics = reference.metrics;
      for (const outputs of asked) {
        const r = backtest({ ...base, ...strategy(), outputs } as BacktestOptions);
        // metrics first (a summary-only run), then everything else on first access
        expect(r.metrics).toEqual(metrics);
        expect(everything(r)).toEqual(expected);
      }
    });
  }

  it("the trades read first (a pass of the ledger alone), or after the series (recorded by their pass), are the same", () => {
    const options = { ...base, signal: replayComposite(d.comp, { threshold: 0.05 }) };
    const numbers = (r: BacktestResult) => r.trades.map((t) => [t.entryIndex, t.exitIndex, t.units, t.pnl, t.fees, t.funding, t.costs?.spread]);
    const eager = numbers(backtest({ ...options, outputs: ["equity", "trades"] }));
    expect(numbers(backtest(options))).toEqual(eager);
    const afterSeries = backtest(options);
    expect(afterSeries.returns.length).toBe(n);
    expect(numbers(afterSeries)).toEqual(eager);
    const afterMetrics = backtest({ ...options, outputs: [] });
    expect(afterMetrics.metrics.trades).toBe(eager.length);
    expect(numbers(afterMetrics)).toEqual(eager);
  });

  it("metrics equal numpy's over the run's own series (total return, Sharpe ddof 1, max drawdown, turnover, exposure)", () => {
    const r = backtest({ ...base, signal: replayComposite(d.comp, { threshold: 0.05 }) });
    const script = [
      "import json, sys, numpy as np",
      "d = json.load(sys.stdin); e = np.array(d['equity'], float); x = np.array(d['exposure'], float); t = np.array(d['turnover'], float)",
      "r = e[1:] / e[:-1] - 1",
      "print(json.dumps([float(v) for v in [e[-1] / e[0] - 1, r.mean() / r.std(ddof=1) * np.sqrt(8760), (e / np.maximum.accumulate(e) - 1).min(), t.sum(), np.abs(x).mean()]]))",
    ].join("\n");
    const out = spawnSync("/usr/bin/python3", ["-c", script], {
      input: JSON.stringify({ equity: Array.from(r.equity), exposure: Array.from(r.exposure), turnover: Array.from(r.turnover) }),
      encoding: "utf8",
    });
    expect(out.status, out.stderr).toBe(0);
    const [total, sharpe, mdd, turnover, exposure] = JSON.parse(out.stdout) as number[];
    const m = r.metrics;
    expect(m.totalReturn).toBeCloseTo(total as number, 12);
    expect(Math.abs(m.sharpeRatio / (sharpe as number) - 1)).toBeLessThan(1e-9);
    expect(m.maxDrawdown).toBeCloseTo(mdd as number, 12);
    expect(Math.abs(m.turnover / (turnover as number) - 1)).toBeLessThan(1e-12);
    expect(Math.abs(m.exposure / (exposure as number) - 1)).toBeLessThan(1e-12);
    expect(m.trades).toBe(r.trades.length);
  });

  it("a summary-only run allocates no array of the run's length (the default allocates its equity column)", () => {
    const sizes: number[] = [];
    const original = globalThis.Float64Array;
    const counting = new Proxy(original, {
      construct(target, args: unknown[]) {
        const a = args[0];
        sizes.push(typeof a === "number" ? a : ArrayBuffer.isView(a) || Array.isArray(a) ? (a as ArrayLike<unknown>).length : -1);
        return Reflect.construct(target, args) as object;
      },
    });
    const run = (outputs: BacktestOptions["outputs"]): number => {
      const replay = replayComposite(d.comp, { threshold: 0.05 });
      sizes.length = 0;
      globalThis.Float64Array = counting;
      try {
        backtest({ ...base, signal: replay, ...(outputs !== undefined ? { outputs } : {}) });
      } finally {
        globalThis.Float64Array = original;
      }
      return sizes.filter((m) => m >= n).length;
    };
    expect(run(["metrics"])).toBe(0);
    expect(run(undefined)).toBe(1);
    expect(run(["equity", "returns", "metrics"])).toBe(2);
  });

  it("a hand-computed run: bought at 100, sold at 110, flat at 99", () => {
    const r = backtest({ close: [100, 110, 99], position: [1, 0, 0], initialCash: 1000, periodsPerYear: 2, outputs: ["metrics"] });
    // returns 0.1, 0: mean 0.05, sd 0.0707..., x sqrt(2) = 1; no drawdown; one round trip; turnover 1 + 1; gross weight 1, 0, 0
    expect(r.metrics.totalReturn).toBeCloseTo(0.1, 14);
    expect(r.metrics.sharpeRatio).toBeCloseTo(1, 12);
    expect(r.metrics).toMatchObject({ maxDrawdown: 0, trades: 1, turnover: 2 });
    expect(r.metrics.exposure).toBeCloseTo(1 / 3, 14);
    expect(Array.from(r.equity)).toEqual([1000, 1100, 1100]);
  });

  it("equals a sweep's row for the same variant (one rule of metrics)", async () => {
    const weights = { imbalance: 0.4, funding: 0.3, basis_spread: 0.1, momentum_5m: 0.1, gas: 0.1 };
    const sweep = await sweepComposite({ ...d.comp, close: d.close }, { weights: [weights], thresholds: [0.05], feeBps: 4, slippageBps: 1, periodsPerYear: 8760, workers: 0 });
    const row = sweep.toDataFrame();
    const r = backtest({ close: d.close, signal: replayComposite(d.comp, { weights, threshold: 0.05 }), feeBps: 4, slippageBps: 1, periodsPerYear: 8760, outputs: ["metrics"] });
    for (const m of ["totalReturn", "sharpeRatio", "maxDrawdown", "trades", "turnover", "exposure"] as const) {
      expect(r.metrics[m], m).toBe((row[m] as unknown as { values: number[] }).values[0]);
    }
  });

  it("empty input, one bar, a constant price", () => {
    const empty = backtest({ close: [], position: [], periodsPerYear: 365, outputs: ["metrics"] });
    expect(empty.metrics).toEqual({ totalReturn: Number.NaN, sharpeRatio: Number.NaN, maxDrawdown: Number.NaN, trades: 0, turnover: 0, exposure: Number.NaN });
    expect(empty.equity.length).toBe(0);
    const one = backtest({ close: [100], position: [1], periodsPerYear: 365, outputs: ["metrics"] });
    expect(one.metrics).toMatchObject({ totalReturn: 0, maxDrawdown: 0, trades: 0 });
    expect(one.metrics.sharpeRatio).toBeNaN();
    const flat = backtest({ close: [5, 5, 5, 5], position: [1, 1, 1, 1], periodsPerYear: 365, outputs: ["metrics"] });
    expect(flat.metrics).toMatchObject({ totalReturn: 0, maxDrawdown: 0, trades: 1 });
    expect(flat.metrics.sharpeRatio).toBeNaN(); // zero mean, zero variance (as sharpeRatio)
  });

  it("rejects a bad outputs list or periodsPerYear, naming the option", () => {
    expect(() => backtest({ close: [1, 2], position: [1, 1], outputs: ["sharpe" as "metrics"] })).toThrow(/outputs must name .*"sharpe"/);
    expect(() => backtest({ close: [1, 2], position: [1, 1], outputs: "metrics" as unknown as ["metrics"] })).toThrow(/outputs must be a list/);
    expect(() => backtest({ close: [1, 2], position: [1, 1], periodsPerYear: -1 })).toThrow(/periodsPerYear must be a positive finite number/);
  });

  it("does not mutate its inputs", () => {
    const close = Float64Array.from(d.close);
    const position = Float64Array.from({ length: n }, (_, i) => (i % 7 < 3 ? 1 : 0));
    const copy = [Float64Array.from(close), Float64Array.from(position)];
    const r = backtest({ close, position, periodsPerYear: 365, outputs: ["metrics"] });
    everything(r);
    expect([close, position]).toEqual(copy);
  });
});
