/**
 * The classic: a daily 10/30 moving-average crossover on stock-like bars, long
 * when the fast average is above the slow one, all-in whole shares, filled at
 * the next open, no costs. Reference values computed once with pandas 1.5.3
 * (Debian /usr/bin/python3): `close.rolling(10).mean() > close.rolling(30).mean()`
 * as the signal and a plain cash/shares loop that buys floor(cash / open) shares
 * at the next open and sells them all at the next open after the signal drops.
 * The script, for the record:
 *
 *   i = np.arange(500)
 *   close = 100 * np.exp(0.0015 * i + 0.12 * np.sin(i / 9) + 0.04 * np.sin(i / 2.3))
 *   open_[0] = close[0]; open_[1:] = close[:-1] * (1 + 0.006 * np.sin(i[1:] * 1.7))
 *   sig = (s.rolling(10).mean() > s.rolling(30).mean())
 *   for t in range(n): (fill sig[t-1] at open_[t]); eq[t] = cash + sh * close[t]
 *
 *   -> final 14566.384218795338, 8 closed trades, none open,
 *      eq[100] 11148.115182424728, eq[250] 14514.882448520064,
 *      first trade (54, 86, 99.48269618626088, 110.96384801050816, 100 shares),
 *      last (452, 481, 201.86452289876033, 216.51958324127045, 67 shares)
 */
import { describe, expect, it } from "vitest";
import { backtest } from "../../src/backtest/index.js";

const n = 500;
const DAY = 86_400_000;
const time = Float64Array.from({ length: n }, (_, i) => Date.UTC(2020, 0, 1) + i * DAY);
const close = Float64Array.from({ length: n }, (_, i) => 100 * Math.exp(0.0015 * i + 0.12 * Math.sin(i / 9) + 0.04 * Math.sin(i / 2.3)));
const open = Float64Array.from({ length: n }, (_, i) => (i === 0 ? (close[0] as number) : (close[i - 1] as number) * (1 + 0.006 * Math.sin(i * 1.7))));

function sma(x: Float64Array, w: number): Float64Array {
  const out = new Float64Array(x.length).fill(Number.NaN);
  let s = 0;
  for (let i = 0; i < x.length; i++) {
    s += x[i] as number;
    if (i >= w) s -= x[i - w] as number;
    if (i >= w - 1) out[i] = s / w;
  }
  return out;
}

describe("daily moving-average crossover, all-in whole shares, next-open fills", () => {
  const fast = sma(close, 10);
  const slow = sma(close, 30);
  const signal = Float64Array.from({ length: n }, (_, i) => ((fast[i] as number) > (slow[i] as number) ? 1 : 0));
  const r = backtest({ time, open, close, signal, units: "whole", fill: "next_open", initialCash: 10_000 });

  it("matches the pandas reference equity", () => {
    expect(r.equity[n - 1]).toBeCloseTo(14566.384218795338, 7);
    expect(r.equity[100]).toBeCloseTo(11148.115182424728, 7);
    expect(r.equity[250]).toBeCloseTo(14514.882448520064, 7);
  });

  it("matches the pandas reference trades", () => {
    expect(r.trades).toHaveLength(8);
    expect(r.trades.every((t) => !t.open && t.side === "long")).toBe(true);
    const first = r.trades[0]!;
    expect([first.entryIndex, first.exitIndex, first.units]).toEqual([54, 86, 100]);
    expect(first.entryPrice).toBeCloseTo(99.48269618626088, 9);
    expect(first.exitPrice).toBeCloseTo(110.96384801050816, 9);
    expect(first.entryTime).toBe(time[54]);
    const last = r.trades[7]!;
    expect([last.entryIndex, last.exitIndex, last.units]).toEqual([452, 481, 67]);
    expect(r.trades.reduce((s, t) => s + t.pnl, 0)).toBeCloseTo(4566.384218795336, 7);
    expect(first.return).toBeCloseTo(110.96384801050816 / 99.48269618626088 - 1, 12);
  });

  it("holds whole shares and keeps the leftover cash", () => {
    expect(Array.from(r.holdings).every((u) => Number.isInteger(u))).toBe(true);
    expect(r.holdings[60]).toBe(100);
    // exposure below 1: floor(10000 / 99.48) = 100 shares leave cash over
    expect(r.exposure[54]!).toBeLessThan(1);
    expect(r.exposure[54]!).toBeGreaterThan(0.98);
  });
});
