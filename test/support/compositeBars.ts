import type { BacktestResult } from "../../src/backtest/index.js";
import { mulberry32 } from "./mulberry32.js";

/** Seeded bars and component values, with missing prices and missing component values. */
export function compositeBars(n: number, seed: number) {
  const rnd = mulberry32(seed);
  const close = new Float64Array(n);
  const open = new Float64Array(n);
  const funding = new Float64Array(n);
  const comp = { imbalance: new Float64Array(n), funding: new Float64Array(n), basis_spread: new Float64Array(n), momentum_5m: new Float64Array(n), gas: new Float64Array(n) };
  let p = 100;
  for (let i = 0; i < n; i++) {
    open[i] = p * (1 + 0.002 * (rnd() - 0.5));
    p = (open[i] as number) * (1 + 0.01 * (rnd() - 0.5));
    close[i] = p;
    funding[i] = 1e-5 * (rnd() - 0.4);
    comp.imbalance[i] = rnd();
    comp.funding[i] = 2e-4 * (rnd() - 0.5);
    comp.basis_spread[i] = rnd() < 0.05 ? Number.NaN : 60 * (rnd() - 0.5);
    comp.momentum_5m[i] = 3 * (rnd() - 0.5);
    comp.gas[i] = rnd() < 0.02 ? Number.NaN : 3 * rnd();
    if (i > 0 && rnd() < 0.01) close[i] = open[i] = Number.NaN;
  }
  return { close, open, funding, comp };
}

/** Every series, the trades, the capped count and ruin of a backtest's result, as plain numbers (read in this order). */
export function resultNumbers(r: BacktestResult): Record<string, unknown> {
  return {
    equity: Array.from(r.equity),
    returns: Array.from(r.returns),
    exposure: Array.from(r.exposure),
    holdings: Array.from(r.holdings),
    turnover: Array.from(r.turnover),
    fees: Array.from(r.fees),
    fundingPaid: Array.from(r.fundingPaid),
    positions: Array.from(r.positions),
    capped: r.capped,
    ruinIndex: r.ruinIndex,
    trades: r.trades.map((t) => [t.entryIndex, t.exitIndex, t.side, t.units, t.pnl, t.fees, t.funding, t.entryPrice, t.exitPrice, t.open]),
  };
}
