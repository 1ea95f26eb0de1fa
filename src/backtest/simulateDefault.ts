import type { SimCoin, SimOutput, SimSettings } from "./simulate.js";
import { TradeLog } from "./TradeLog.js";

/**
 * The engine's fast path for its default and most used mode: one coin, fills at
 * the close, fractional units rebalanced every bar. Same arithmetic, in the
 * same order, as simulate() (so the results are bit-identical; tests hold them
 * together), with the state in locals instead of per-coin arrays and closures.
 * With `full` false only equity and the trade ledger are produced (the other series are
 * empty): fresh memory is costly to touch, and most runs need only equity and trades;
 * backtest() re-runs with `full` true when a secondary series is first asked for.
 * @internal
 */
export function simulateDefault(coin: SimCoin, s: SimSettings, full = true): SimOutput {
  const n = s.n;
  const close = coin.close;
  const target = coin.target;
  const funding = coin.funding;
  const spreadBps = coin.spreadBps;
  const baseRate = s.costBps / 1e4;
  const equity = new Float64Array(n);
  const returns = new Float64Array(full ? n : 0);
  const turnover = new Float64Array(full ? n : 0);
  const exposure = new Float64Array(full ? n : 0);
  const feesOut = new Float64Array(full ? n : 0);
  const fundOut = new Float64Array(full ? n : 0);
  const unitsOut = new Float64Array(full ? n : 0);
  const log = new TradeLog();
  if (n === 0) {
    return { equity, returns, turnover, exposure, fees: feesOut, fundingPaid: fundOut, units: [unitsOut], weights: [exposure], log, ruinIndex: -1 };
  }

  let cash = s.initialCash;
  let u = 0;
  let last = Number.NaN;
  let held = 0;
  let spread = 0;
  let side = 0;
  let eIdx = 0;
  let ePrice = 0;
  let eNotional = 0;
  let maxUnits = 0;
  let tPnl = 0;
  let tFees = 0;
  let tFund = 0;
  let ruinIndex = -1;
  let E = s.initialCash;

  for (let i = 0; i < n; i++) {
    const c = close[i] as number;
    if (i > 0) {
      if (funding !== undefined && u !== 0) {
        const r = funding[i] as number;
        if (r === r && r !== 0) {
          const paid = u * last * r;
          tFund += paid;
          if (paid !== 0) {
            cash -= paid;
            if (full) fundOut[i] = paid;
          }
        }
      }
      if (c === c) {
        if (u !== 0) tPnl += u * (c - last);
        last = c;
      }
      const prev = E;
      E = u !== 0 ? cash + u * last : cash;
      if (full) returns[i] = E === prev ? 0 : E / prev - 1;
      if (E <= 0 && ruinIndex < 0) {
        ruinIndex = i;
        if (u !== 0) {
          cash = cash + u * last;
          u = 0;
          held = 0;
          if (side !== 0) log.record(0, side, eIdx, i, ePrice, last, maxUnits, eNotional, tPnl, tFees, tFund, false);
          side = 0;
        }
      }
    } else {
      if (full) returns[0] = Number.NaN;
      if (c === c) last = c;
    }
    equity[i] = E;
    if (i < n - 1 && c === c && ruinIndex < 0) {
      // Fill the target decided at this close (see simulate's fill()).
      const w = target[i] as number;
      if (spreadBps !== undefined) {
        const v = spreadBps[i] as number;
        if (v === v) spread = v;
      }
      const rate = baseRate + spread / 2e4;
      const old = u;
      const nu = (w * E) / c;
      const traded = Math.abs(w - held) * E;
      let fee = rate * traded;
      const heldPrev = held;
      held = w;
      if (nu === old && fee === 0) {
        last = c;
      } else {
        cash = cash - ((nu - old) * c + fee);
        if (full) feesOut[i] = (feesOut[i] as number) + fee;
        const oldSide = old > 0 ? 1 : old < 0 ? -1 : 0;
        const newSide = nu > 0 ? 1 : nu < 0 ? -1 : 0;
        if (oldSide !== 0 && oldSide !== newSide) {
          const oldPart = Math.abs(heldPrev);
          const newPart = Math.abs(w);
          const exitFee = oldPart + newPart > 0 ? (fee * oldPart) / (oldPart + newPart) : 0;
          tFees = tFees + exitFee;
          log.record(0, side, eIdx, i, ePrice, c, maxUnits, eNotional, tPnl, tFees, tFund, false);
          side = 0;
          fee -= exitFee;
        }
        if (newSide !== 0 && newSide !== oldSide) {
          side = newSide;
          eIdx = i;
          ePrice = c;
          eNotional = Math.abs(nu) * c;
          maxUnits = Math.abs(nu);
          tPnl = 0;
          tFees = fee;
          tFund = 0;
        } else if (newSide !== 0) {
          tFees = tFees + fee;
          if (Math.abs(nu) > maxUnits) maxUnits = Math.abs(nu);
        }
        u = nu;
        last = c;
        if (full) turnover[i] = traded / E;
      }
    }
    if (full) {
      unitsOut[i] = u;
      const wk = E !== 0 ? (u * last) / E : 0;
      exposure[i] = u === 0 ? 0 : wk + 0; // + 0 as simulate's sum does: no -0
    }
  }
  if (side !== 0) log.record(0, side, eIdx, n - 1, ePrice, last, maxUnits, eNotional, tPnl, tFees, tFund, true);
  return { equity, returns, turnover, exposure, fees: feesOut, fundingPaid: fundOut, units: [unitsOut], weights: [exposure], log, ruinIndex };
}
