/**
 * The simulation kernel's entry point (src/backtest/kernel): its accumulators against a
 * run computed by hand, and its resumability (a run split into blocks, with block-sized
 * target and series buffers, gives the numbers of one call; a property of the state, not
 * a comparison with a copy of the code).
 */
import { describe, expect, it } from "vitest";
import { backtest } from "../../src/backtest/index.js";
import { KernelState, type KernelSettings } from "../../src/backtest/kernel/KernelState.js";
import { kernelCoin, NO_SERIES, runKernel, type KernelCoin } from "../../src/backtest/kernel/runKernel.js";
import { TradeLog } from "../../src/backtest/TradeLog.js";
import { mulberry32 } from "../support/mulberry32.js";

const settings = (n: number, costBps = 10): KernelSettings => ({ n, initialCash: 1000, costBps, nextOpen: false, whole: false, everyBar: true });
const coin = (close: ArrayLike<number>, funding?: ArrayLike<number>): KernelCoin => kernelCoin({ close, funding });

describe("runKernel accumulators", () => {
  // close 100, 110, 99, 99; targets 1, 0, -1, 0; 10 bps on |w_i - w_{i-1}| x equity.
  // bar 0: buy 10 units at 100, fee 1            -> cash -1,            E0 = 1000
  // bar 1: E1 = -1 + 10 x 110 = 1099; sell all, fee 1.099 -> cash 1097.901
  // bar 2: E2 = 1097.901; short 1097.901 / 99 units, fee 1.097901 -> cash 2194.704099
  // bar 3: E3 = 2194.704099 - 1097.901 = 1096.803099 (the last decision is never filled)
  const E = [1000, 1099, 1097.901, 1096.803099];
  const r = [E[1]! / E[0]! - 1, E[2]! / E[1]! - 1, E[3]! / E[2]! - 1];

  it("gives final equity, return sums, drawdown, trades, turnover and exposure as computed by hand", () => {
    const st = new KernelState(1, settings(4), undefined);
    runKernel(st, [coin([100, 110, 99, 99])], [Float64Array.of(1, 0, -1, 0)], 0, 0, 4, NO_SERIES);
    expect(st.equity).toBeCloseTo(E[3]!, 9);
    expect(st.sumReturns).toBeCloseTo(r[0]! + r[1]! + r[2]!, 12);
    expect(st.sumSquaredReturns).toBeCloseTo(r[0]! ** 2 + r[1]! ** 2 + r[2]! ** 2, 12);
    expect(st.maxDrawdown).toBeCloseTo(E[3]! / E[1]! - 1, 12); // peak 1099 at bar 1
    expect(st.trades).toBe(2); // a long (bars 0-1) and a short (bar 2, open at the end)
    expect(st.turnover).toBeCloseTo(3, 12); // |1 - 0| + |0 - 1| + |-1 - 0|
    // net weight held at each close: 1, 0, -1, then the short drifts: -1097.901 / 1096.803099
    expect(st.netExposure).toBeCloseTo(1 + 0 - 1 - 1097.901 / 1096.803099, 12);
    expect(st.grossExposure).toBeCloseTo(1 + 0 + 1 + 1097.901 / 1096.803099, 12);
  });

  it("is what backtest() computes for the same inputs", () => {
    const st = new KernelState(1, settings(4), undefined);
    runKernel(st, [coin([100, 110, 99, 99])], [Float64Array.of(1, 0, -1, 0)], 0, 0, 4, NO_SERIES);
    const b = backtest({ close: [100, 110, 99, 99], position: [1, 0, -1, 0], feeBps: 10, initialCash: 1000 });
    expect(st.equity).toBe(b.equity[3]);
    expect(b.trades.length).toBe(st.trades);
  });

  it("keeps the maximum drawdown exactly min(E_i / max(E_0..E_i) - 1) over a long path of drawdowns", () => {
    // The loop skips the drawdown's division where it cannot lower the minimum (spanLoop.ts, ddFloor):
    // the minimum must still be the one of every bar's drawdown, bit for bit, computed here from the equity series.
    const rnd = mulberry32(7);
    const n = 20_000;
    const close = new Float64Array(n);
    const target = new Float64Array(n);
    let p = 100;
    for (let i = 0; i < n; i++) {
      p *= 1 + (rnd() - 0.5) * 0.02;
      close[i] = p;
      target[i] = rnd() < 0.5 ? 1 : rnd() < 0.5 ? -1 : 0.5;
    }
    const equity = new Float64Array(n);
    const st = new KernelState(1, settings(n), undefined);
    runKernel(st, [coin(close)], [target], 0, 0, n, { ...NO_SERIES, equity });
    let peak = equity[0]!;
    let mdd = 0;
    for (let i = 1; i < n; i++) {
      const e = equity[i]!;
      if (e > peak) peak = e;
      const dd = e / peak - 1;
      if (dd < mdd) mdd = dd;
    }
    expect(mdd).toBeLessThan(-0.05);
    expect(st.maxDrawdown).toBe(mdd);
  });

  it("on no bars leaves the account as it was", () => {
    const st = new KernelState(1, settings(0), undefined);
    runKernel(st, [coin([])], [new Float64Array(0)], 0, 0, 0, NO_SERIES);
    expect([st.equity, st.trades, st.sumReturns, st.maxDrawdown]).toEqual([1000, 0, 0, 0]);
  });
});

describe("runKernel over blocks", () => {
  it("gives the numbers of one call when split into blocks with reused block buffers", () => {
    const n = 10_000;
    const rnd = mulberry32(5);
    const close = new Float64Array(n);
    const funding = new Float64Array(n);
    const target = new Float64Array(n);
    let p = 100;
    for (let i = 0; i < n; i++) {
      p *= 1 + 0.01 * (rnd() - 0.5);
      close[i] = i % 97 === 5 ? Number.NaN : p;
      funding[i] = 1e-5 * (rnd() - 0.5);
      target[i] = Math.floor(i / 50) % 3 === 0 ? 0 : rnd() < 0.5 ? -0.7 : 1;
    }
    const logOne = new TradeLog();
    const one = new KernelState(1, settings(n, 7), logOne);
    const equity = new Float64Array(n);
    const returns = new Float64Array(n);
    runKernel(one, [coin(close, funding)], [target], 0, 0, n, { ...NO_SERIES, equity, returns });

    const logBlocks = new TradeLog();
    const blocks = new KernelState(1, settings(n, 7), logBlocks);
    const B = 333;
    const tBuf = new Float64Array(B);
    const eBuf = new Float64Array(B);
    const rBuf = new Float64Array(B);
    for (let lo = 0; lo < n; lo += B) {
      const hi = Math.min(n, lo + B);
      tBuf.set(target.subarray(lo, hi));
      runKernel(blocks, [coin(close, funding)], [tBuf], lo, lo, hi, { ...NO_SERIES, base: lo, equity: eBuf, returns: rBuf });
      expect(Array.from(eBuf.subarray(0, hi - lo))).toEqual(Array.from(equity.subarray(lo, hi)));
      expect(Array.from(rBuf.subarray(0, hi - lo))).toEqual(Array.from(returns.subarray(lo, hi)));
    }
    for (const key of ["equity", "sumReturns", "sumSquaredReturns", "maxDrawdown", "trades", "turnover", "netExposure", "grossExposure", "ruinIndex"] as const) {
      expect(blocks[key], key).toBe(one[key]);
    }
    expect(logBlocks.toTrades(close, [undefined])).toEqual(logOne.toTrades(close, [undefined]));
    // the sums are those of the per-bar returns the kernel wrote
    let s = 0;
    for (let i = 1; i < n; i++) s += returns[i] as number;
    expect(one.sumReturns).toBeCloseTo(s, 10);
  });
});
