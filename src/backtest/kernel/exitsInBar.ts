import { EXIT_AT_OPEN, EXIT_LIQUIDATION, EXIT_NONE, EXIT_STOP, EXIT_TAKE_PROFIT, exitLevel, intrabarExit } from "../intrabarExit.js";
import { liquidationPrice } from "../liquidationPrice.js";
import type { KernelState } from "./KernelState.js";
import { addFee, capLoss, closeTrade, feeOf, ruin, type KernelCoin } from "./runKernel.js";

/**
 * The kernel's intrabar exits at bar i (i >= 1): for every coin with an open trade, its
 * stop-loss, take-profit and liquidation levels (from the trade's entry price and the
 * account) against the bar by the rule of {@link intrabarExit}, in one of two passes:
 * `atOpen` (the gap test on the open: before the open fill and before funding) or not
 * (the range test on high and low: after them). A triggered exit sells (buys back) the
 * whole position at the open or at the level clamped into the bar's [low, high] (a NaN open
 * carries no gap information: the range may lie beyond the level), paying the fill's costs (fee, slippage,
 * half the last spread, impact estimated at bar i - 1, plus the liquidation fee for a
 * liquidation), records the trade with its reason, and leaves the coin flat until its
 * target differs from the one in force at the exit (`st.stopped`, `st.exitTarget`).
 * Each exit's turnover, a fraction of the account value before it, is added to the run's
 * and the bar's (feeOf); the account value (`st.value`) moves by the exit's price change
 * and fee, capped at 0 (capLoss: the loss never exceeds the collateral); an exit that leaves it
 * at 0 ruins the account there (ruin). Runs only when an intrabar rule is on (`st.exits`).
 */
export function exitsInBar(
  st: KernelState,
  coins: readonly KernelCoin[],
  i: number,
  atOpen: boolean,
  feesOut: Float64Array | undefined,
  turnoverOut: Float64Array | undefined,
  j: number,
): void {
  const K = coins.length;
  for (let k = 0; k < K; k++) {
    const side = st.side[k] as number;
    const q = st.units[k] as number;
    if (side === 0 || q === 0) continue;
    const coin = coins[k] as KernelCoin;
    const o = atOpen ? ((coin.open as ArrayLike<number>)[i] as number) : Number.NaN;
    const h = atOpen ? Number.NaN : ((coin.high as ArrayLike<number>)[i] as number);
    const l = atOpen ? Number.NaN : ((coin.low as ArrayLike<number>)[i] as number);
    const entry = st.entryPrice[k] as number;
    const stop = exitLevel(side, entry, st.stopLoss, "stop");
    const take = exitLevel(side, entry, st.takeProfit, "take_profit");
    const m = st.maintenanceMargin;
    const E = st.value[0] as number;
    const liq = m === m ? liquidationPrice(q, E - q * (st.last[k] as number), m) : Number.NaN;
    const code = intrabarExit(side, stop, take, liq, o, h, l, atOpen);
    if (code === EXIT_NONE) continue;
    const reason = code >= EXIT_AT_OPEN ? code - EXIT_AT_OPEN : code;
    const level = reason === EXIT_STOP ? stop : reason === EXIT_TAKE_PROFIT ? take : liq;
    // A gap fills at the open; a level inside the bar's range, clamped into [low, high]: with a NaN open
    // (no gap information) the range may lie wholly beyond the level, and the nearest price traded is its edge.
    const price = code >= EXIT_AT_OPEN ? o : level < l ? l : level > h ? h : level;
    const traded = Math.abs(q) * price;
    // The fill's fee (feeOf: rate x traded plus the impact estimated at bar i - 1, booked with
    // its turnover), plus the liquidation fee for a liquidation.
    const liqFee = reason === EXIT_LIQUIDATION ? st.liquidationRate * traded : 0;
    const fee = feeOf(st, coin, k, traded, E, i - 1, feesOut, turnoverOut, j) + liqFee;
    if (liqFee !== 0 && feesOut !== undefined) feesOut[j] = (feesOut[j] as number) + liqFee;
    const d = q * (price - (st.last[k] as number));
    st.tradePnl[k] = (st.tradePnl[k] as number) + d;
    st.value[0] = E + d - fee;
    st.units[k] = 0;
    st.last[k] = price;
    st.exitTarget[k] = st.held[k] as number;
    st.stopped[k] = 1;
    st.held[k] = 0;
    addFee(st, k, fee);
    st.tradeLiquidationFee[k] = (st.tradeLiquidationFee[k] as number) + liqFee;
    capLoss(st, k);
    closeTrade(st, k, i, price, false, reason);
    if ((st.value[0] as number) <= 0) {
      ruin(st, K, i);
      return;
    }
  }
}
