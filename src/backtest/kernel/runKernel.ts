import type { KernelState } from "./KernelState.js";

/** One instrument's market data, indexed by bar (absolute: bar i is `close[i]`). @internal */
export interface KernelCoin {
  /** Close per bar (> 0, NaN = no price: no fill, position carried, valued at the last price). */
  readonly close: ArrayLike<number>;
  /** Open per bar; read only under next_open. */
  readonly open: ArrayLike<number> | undefined;
  /** Per-bar funding rate (decimal, paid by longs when positive); NaN counts as 0. */
  readonly funding: ArrayLike<number> | undefined;
  /** Per-bar quoted spread in bps; half of it is paid on each unit of turnover. NaN carries the last known value. */
  readonly spreadBps: ArrayLike<number> | undefined;
}

/**
 * Where the kernel writes per-bar series, each indexed by `i - base` (undefined:
 * not written, so a run that needs only accumulators touches no n-length memory).
 * `units` and `weights` hold one array per coin. `fees` and `turnover` are added to,
 * so they must start at 0 (fresh, or zeroed by the caller when reused).
 * @internal
 */
export interface KernelSeries {
  /** Bar of index 0 of every series: 0 for whole columns, the block's first bar for a reused block buffer. */
  readonly base: number;
  readonly equity: Float64Array | undefined;
  readonly returns: Float64Array | undefined;
  readonly turnover: Float64Array | undefined;
  readonly exposure: Float64Array | undefined;
  readonly fees: Float64Array | undefined;
  readonly fundingPaid: Float64Array | undefined;
  readonly units: readonly Float64Array[] | undefined;
  readonly weights: readonly Float64Array[] | undefined;
}

/** No per-bar series: accumulators only. @internal */
export const NO_SERIES: KernelSeries = Object.freeze({
  base: 0,
  equity: undefined,
  returns: undefined,
  turnover: undefined,
  exposure: undefined,
  fees: undefined,
  fundingPaid: undefined,
  units: undefined,
  weights: undefined,
});

/**
 * The simulation kernel: the one definition of the engine's fills, costs,
 * funding, marking, ruin and trade ledger, for every execution option (see
 * backtest() for the semantics). Processes bars `lo .. hi-1` (with `lo` equal to
 * `st.next`: a run is one call over [0, n) or consecutive blocks), updating the
 * state and its accumulators, writing the series asked for.
 *
 * `targets[k][i - targetBase]` is coin k's target fraction of equity decided at the
 * close of bar i (finite; sizing, caps and filters applied), so a caller may pass
 * whole arrays (`targetBase` 0) or a reused block buffer filled for [lo, hi) (`targetBase` lo).
 * Under next_close the target is filled at that close and held over bar i+1 (the
 * last bar's decision is never filled); under next_open it fills at open i+1.
 * When bar n-1 has been processed, a trade still open is recorded, marked at the
 * last price and flagged open.
 *
 * Cost: O((hi - lo) x coins), no allocation (the trade log grows by doubling).
 * @internal
 */
export function runKernel(
  st: KernelState,
  coins: readonly KernelCoin[],
  targets: readonly Float64Array[],
  targetBase: number,
  lo: number,
  hi: number,
  out: KernelSeries,
): void {
  // In spans of SPAN bars: a function called often is optimised as a whole by the JIT,
  // where one long call would depend on on-stack replacement of its loop.
  for (let a = lo; a < hi; a += SPAN) runSpan(st, coins, targets, targetBase, a, Math.min(hi, a + SPAN), out);
  const n = st.settings.n;
  if (hi === n && n > 0) closeOpenTrades(st, coins.length);
}

/** Bars per call of runSpan. */
const SPAN = 4096;

/** A trade still open at the end is reported, marked at the last price, flagged open. */
function closeOpenTrades(st: KernelState, K: number): void {
  for (let k = 0; k < K; k++) if (st.side[k] !== 0) closeTrade(st, k, st.settings.n - 1, st.last[k] as number, true);
}

/** The kernel over bars lo..hi-1 (see runKernel). */
function runSpan(
  st: KernelState,
  coins: readonly KernelCoin[],
  targets: readonly Float64Array[],
  targetBase: number,
  lo: number,
  hi: number,
  out: KernelSeries,
): void {
  const s = st.settings;
  const n = s.n;
  const K = coins.length;
  const nextOpen = s.nextOpen;
  const units = st.units;
  const last = st.last;
  const equityOut = out.equity;
  const returnsOut = out.returns;
  const turnoverOut = out.turnover;
  const exposureOut = out.exposure;
  const fundOut = out.fundingPaid;
  const unitsOut = out.units;
  const weightsOut = out.weights;
  const feesOut = out.fees;
  const outBase = out.base;
  const cash = st.cash;
  const args = st.fillArgs;
  // The accumulators live in locals during the loop (written back at the end).
  const sums = st.sums;
  let E = sums[0] as number;
  let peak = sums[1] as number;
  let maxDrawdown = sums[2] as number;
  let sumReturns = sums[3] as number;
  let sumSquaredReturns = sums[4] as number;
  let turnover = sums[5] as number;
  let netExposure = sums[6] as number;
  let grossExposure = sums[7] as number;
  for (let i = lo; i < hi; i++) {
    const j = i - outBase;
    const t = i - targetBase;
    if (i > 0) {
      if (nextOpen) {
        // Gap close_{i-1} -> open_i with the old units, then fill decision i-1 at the open.
        for (let k = 0; k < K; k++) {
          const o = ((coins[k] as KernelCoin).open as ArrayLike<number>)[i] as number;
          if (o !== o) continue;
          const q = units[k] as number;
          if (q !== 0) st.tradePnl[k] = (st.tradePnl[k] as number) + q * (o - (last[k] as number));
          last[k] = o;
        }
        const Eo = accountValue(st, K);
        if (Eo <= 0 && st.ruinIndex < 0) ruin(st, K, i);
        args[2] = Eo;
        fillAll(st, coins, undefined, 0, i, feesOut, j);
        const to = args[3] as number;
        turnover += to;
        if (turnoverOut !== undefined) turnoverOut[j] = to;
      }
      // Funding on the units held over this bar, at the bar's starting reference price.
      let fpaid = 0;
      for (let k = 0; k < K; k++) {
        const f = (coins[k] as KernelCoin).funding;
        const q = units[k] as number;
        if (f === undefined || q === 0) continue;
        const r = f[i] as number;
        if (r !== r || r === 0) continue;
        const paid = q * (last[k] as number) * r;
        fpaid += paid;
        st.tradeFunding[k] = (st.tradeFunding[k] as number) + paid;
      }
      if (fpaid !== 0) {
        cash[0] = (cash[0] as number) - fpaid;
        if (fundOut !== undefined) fundOut[j] = fpaid;
      }
      // Mark to the close.
      for (let k = 0; k < K; k++) {
        const c = (coins[k] as KernelCoin).close[i] as number;
        if (c !== c) continue;
        const q = units[k] as number;
        if (q !== 0) st.tradePnl[k] = (st.tradePnl[k] as number) + q * (c - (last[k] as number));
        last[k] = c;
      }
      const prev = E;
      E = accountValue(st, K);
      const ret = E === prev ? 0 : E / prev - 1;
      sumReturns += ret;
      sumSquaredReturns += ret * ret;
      if (returnsOut !== undefined) returnsOut[j] = ret;
      if (E > peak) peak = E;
      else {
        const dd = E / peak - 1;
        if (dd < maxDrawdown) maxDrawdown = dd;
      }
      if (E <= 0 && st.ruinIndex < 0) ruin(st, K, i);
    } else {
      if (returnsOut !== undefined) returnsOut[j] = Number.NaN;
      for (let k = 0; k < K; k++) {
        const c = (coins[k] as KernelCoin).close[0] as number;
        if (c === c) last[k] = c;
      }
    }
    if (equityOut !== undefined) equityOut[j] = E;
    if (nextOpen) {
      for (let k = 0; k < K; k++) st.pending[k] = (targets[k] as Float64Array)[t] as number;
    } else if (i < n - 1 && st.ruinIndex < 0) {
      // Decision at this close, filled now and held over bar i+1.
      args[2] = E;
      fillAll(st, coins, targets, t, i, feesOut, j);
      const to = args[3] as number;
      turnover += to;
      if (turnoverOut !== undefined) turnoverOut[j] = to;
    }
    let net = 0;
    let gross = 0;
    for (let k = 0; k < K; k++) {
      const q = units[k] as number;
      const w = q === 0 || E === 0 ? 0 : (q * (last[k] as number)) / E;
      if (unitsOut !== undefined) (unitsOut[k] as Float64Array)[j] = q;
      if (weightsOut !== undefined) (weightsOut[k] as Float64Array)[j] = w;
      net += w;
      gross += Math.abs(w);
    }
    netExposure += net;
    grossExposure += gross;
    if (exposureOut !== undefined) exposureOut[j] = net;
  }
  sums[0] = E;
  sums[1] = peak;
  sums[2] = maxDrawdown;
  sums[3] = sumReturns;
  sums[4] = sumSquaredReturns;
  sums[5] = turnover;
  sums[6] = netExposure;
  sums[7] = grossExposure;
  st.next = hi;
}

/** Account value with every coin at its reference price. */
function accountValue(st: KernelState, K: number): number {
  let v = st.cash[0] as number;
  for (let k = 0; k < K; k++) {
    const q = st.units[k] as number;
    if (q !== 0) v += q * (st.last[k] as number);
  }
  return v;
}

function closeTrade(st: KernelState, k: number, i: number, price: number, isOpen: boolean): void {
  st.log?.record(k, st.side[k] as number, st.entryIndex[k] as number, i, st.entryPrice[k] as number, price, st.maxUnits[k] as number, st.entryNotional[k] as number, st.tradePnl[k] as number, st.tradeFees[k] as number, st.tradeFunding[k] as number, isOpen);
  st.side[k] = 0;
}

/** Ruin at bar i: the account is wiped out; close everything at the reference prices (trading stops). */
function ruin(st: KernelState, K: number, i: number): void {
  st.ruinIndex = i;
  for (let k = 0; k < K; k++) {
    const q = st.units[k] as number;
    if (q === 0) continue;
    st.cash[0] = (st.cash[0] as number) + q * (st.last[k] as number);
    st.units[k] = 0;
    st.held[k] = 0;
    if (st.side[k] !== 0) closeTrade(st, k, i, st.last[k] as number, false);
  }
}

/**
 * Fill every coin that has a price at this bar: at the open (`targets` undefined: the
 * pending decisions of the last close) or at the close (`targets[k][t]`), with the account
 * value in `st.fillArgs[2]`; leaves the total turnover (a fraction of it) in `st.fillArgs[3]`.
 * No fill once the account is ruined.
 */
function fillAll(st: KernelState, coins: readonly KernelCoin[], targets: readonly Float64Array[] | undefined, t: number, i: number, feesOut: Float64Array | undefined, j: number): void {
  const args = st.fillArgs;
  const E = args[2] as number;
  let to = 0;
  for (let k = 0; k < coins.length; k++) {
    const coin = coins[k] as KernelCoin;
    const p = (targets === undefined ? (coin.open as ArrayLike<number>)[i] : coin.close[i]) as number;
    if (p !== p || st.ruinIndex >= 0) continue;
    args[0] = targets === undefined ? (st.pending[k] as number) : ((targets[k] as Float64Array)[t] as number);
    args[1] = p;
    args[2] = E;
    rebalance(st, coin, k, i, feesOut, j);
    to += args[3] as number;
  }
  args[3] = to;
}

/**
 * The fill rule: move coin k toward target weight w at price p (finite), with
 * account value E at that instant (`st.fillArgs` [w, p, E]); sets `st.fillArgs[3]`
 * to the turnover as a fraction of E.
 * - fractional units: w E / p units; cost on |w - w_prev| E under every-bar
 *   rebalancing (docs/DESIGN.md), on the units traded otherwise;
 * - whole units: floor(E |w| / (p (1 + rate))) units, cost on the units traded;
 * - on-change rebalancing skips a target equal to the held one (a whole-unit
 *   target the account could not yet afford is retried);
 * - the rate is (fee + slippage) / 1e4 plus half the last known spread.
 * The trade ledger closes on 0 or a flip and opens on leaving 0 or a flip; a
 * flip's fee is split between the legs in proportion to what each trades.
 */
function rebalance(st: KernelState, coin: KernelCoin, k: number, i: number, feesOut: Float64Array | undefined, j: number): void {
  const args = st.fillArgs;
  const w = args[0] as number;
  const p = args[1] as number;
  const E = args[2] as number;
  args[3] = 0;
  const s = st.settings;
  const old = st.units[k] as number;
  const heldPrev = st.held[k] as number;
  if (!s.everyBar && w === heldPrev && !(s.whole && w !== 0 && old === 0)) return;
  const rate = costRate(st, coin, k, i);
  const nu = s.whole ? wholeUnits(w, E, p, rate) : (w * E) / p;
  const traded = !s.whole && s.everyBar ? Math.abs(w - heldPrev) * E : Math.abs(nu - old) * p;
  const fee = rate * traded;
  st.held[k] = w;
  st.last[k] = p;
  if (nu === old && fee === 0) return;
  st.cash[0] = (st.cash[0] as number) - ((nu - old) * p + fee);
  if (feesOut !== undefined) feesOut[j] = (feesOut[j] as number) + fee;
  const oldSide = Math.sign(old);
  const newSide = Math.sign(nu);
  if (oldSide !== newSide) {
    args[0] = nu;
    args[1] = fee;
    tradeEvent(st, k, i, p, old, heldPrev, w, oldSide, newSide);
  } else if (newSide !== 0) {
    st.tradeFees[k] = (st.tradeFees[k] as number) + fee;
    if (Math.abs(nu) > (st.maxUnits[k] as number)) st.maxUnits[k] = Math.abs(nu);
  }
  st.units[k] = nu;
  args[3] = traded / E;
}

/** Cost rate of a fill of coin k at bar i: (fee + slippage) / 1e4 plus half the last known spread (bps). */
function costRate(st: KernelState, coin: KernelCoin, k: number, i: number): number {
  const sp = coin.spreadBps;
  if (sp !== undefined) {
    const v = sp[i] as number;
    if (v === v) st.spread[k] = v;
  }
  return st.baseRate + (st.spread[k] as number) / 2e4;
}

/** Whole units for target weight w at price p with account value E: floor(E |w| / (p (1 + rate))), signed. */
function wholeUnits(w: number, E: number, p: number, rate: number): number {
  const want = Math.floor((Math.abs(w) * E) / (p * (1 + rate)));
  return w < 0 ? -want : want;
}

/**
 * The trade ledger when a fill changes coin k's side (new units and fee in
 * `st.fillArgs` [0, 1]): close on 0 or a flip, open on leaving 0 or a flip; a flip's
 * fee is split between the legs in proportion to what each trades.
 */
function tradeEvent(st: KernelState, k: number, i: number, p: number, old: number, heldPrev: number, w: number, oldSide: number, newSide: number): void {
  const nu = st.fillArgs[0] as number;
  let fee = st.fillArgs[1] as number;
  if (oldSide !== 0) {
    // Fee of the exit leg: the part of the traded notional that unwinds the old units
    // (by weight under every-bar fractional rebalancing, where the fee is c |w_i - w_{i-1}|).
    const byWeight = !st.settings.whole && st.settings.everyBar;
    const oldPart = byWeight ? Math.abs(heldPrev) : Math.abs(old) * p;
    const newPart = byWeight ? Math.abs(w) : Math.abs(nu) * p;
    const exitFee = oldPart + newPart > 0 ? (fee * oldPart) / (oldPart + newPart) : 0;
    st.tradeFees[k] = (st.tradeFees[k] as number) + exitFee;
    closeTrade(st, k, i, p, false);
    fee -= exitFee;
  }
  if (newSide !== 0) {
    st.trades++;
    st.side[k] = newSide;
    st.entryIndex[k] = i;
    st.entryPrice[k] = p;
    st.entryNotional[k] = Math.abs(nu) * p;
    st.maxUnits[k] = Math.abs(nu);
    st.tradePnl[k] = 0;
    st.tradeFees[k] = fee;
    st.tradeFunding[k] = 0;
  }
}
