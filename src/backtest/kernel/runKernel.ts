import { impactCost } from "../marketImpact.js";
import { exitsInBar } from "./exitsInBar.js";
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
  /** High and low per bar; read only by the intrabar exits (stop-loss, take-profit, liquidation), which also read `open`. */
  readonly high?: ArrayLike<number> | undefined;
  readonly low?: ArrayLike<number> | undefined;
  /** Market-impact scale per bar (see impactScale): a fill of notional N costs scale x N^1.5 more. */
  readonly impact?: ArrayLike<number> | undefined;
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
 * One instrument's market data in the shape the kernel reads (every field present, in
 * this order, so the kernel sees one object shape from every caller). @internal
 */
export function kernelCoin(c: {
  readonly close: ArrayLike<number>;
  readonly open?: ArrayLike<number> | undefined;
  readonly funding?: ArrayLike<number> | undefined;
  readonly spreadBps?: ArrayLike<number> | undefined;
  readonly high?: ArrayLike<number> | undefined;
  readonly low?: ArrayLike<number> | undefined;
  readonly impact?: ArrayLike<number> | undefined;
}): KernelCoin {
  return { close: c.close, open: c.open, funding: c.funding, spreadBps: c.spreadBps, high: c.high, low: c.low, impact: c.impact };
}

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
 * The account is kept as its value at the reference prices (`st.value`), moved by each
 * event, so a bar's work depends on the last bar's through a few multiplications and
 * additions (marking, fee) rather than through a recomputed sum and a division: the
 * loop's speed is set by that chain. Rare events (trade open/close/flip, intrabar exits,
 * ruin, the fills at the open) are functions of their own, outside the common path.
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
  const n = st.settings.n;
  const K = coins.length;
  const nextOpen = st.nextOpen;
  const exits = st.exits;
  const units = st.units;
  const last = st.last;
  const tradePnl = st.tradePnl;
  const tradeFunding = st.tradeFunding;
  const equityOut = out.equity;
  const returnsOut = out.returns;
  const exposureOut = out.exposure;
  const fundOut = out.fundingPaid;
  const unitsOut = out.units;
  const weightsOut = out.weights;
  const feesOut = out.fees;
  const turnoverOut = out.turnover;
  const outBase = out.base;
  const value = st.value;
  // The account value and the accumulators live in locals during the loop (written back at the end).
  const sums = st.sums;
  let V = value[0] as number;
  let E = sums[0] as number;
  let peak = sums[1] as number;
  let maxDrawdown = sums[2] as number;
  let sumReturns = sums[3] as number;
  let sumSquaredReturns = sums[4] as number;
  let netExposure = sums[6] as number;
  let grossExposure = sums[7] as number;
  for (let i = lo; i < hi; i++) {
    const j = i - outBase;
    if (i > 0) {
      if (exits || nextOpen) {
        value[0] = V;
        // Gap exits at the open (stop, take-profit, liquidation), then the fills at the open.
        if (exits) exitsInBar(st, coins, i, true, feesOut, turnoverOut, j);
        if (nextOpen) openBar(st, coins, i, feesOut, turnoverOut, j);
        V = value[0] as number;
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
        tradeFunding[k] = (tradeFunding[k] as number) + paid;
      }
      if (fpaid !== 0) {
        V -= fpaid;
        if (fundOut !== undefined) fundOut[j] = fpaid;
      }
      if (exits) {
        // Exits inside the bar's range, on the units held after the open.
        value[0] = V;
        exitsInBar(st, coins, i, false, feesOut, turnoverOut, j);
        V = value[0] as number;
      }
      // Mark to the close.
      for (let k = 0; k < K; k++) {
        const c = (coins[k] as KernelCoin).close[i] as number;
        if (c !== c) continue;
        const q = units[k] as number;
        if (q !== 0) {
          const d = q * (c - (last[k] as number));
          V += d;
          tradePnl[k] = (tradePnl[k] as number) + d;
        }
        last[k] = c;
      }
      const prev = E;
      E = V;
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
    const t = i - targetBase;
    if (nextOpen) {
      for (let k = 0; k < K; k++) st.pending[k] = (targets[k] as Float64Array)[t] as number;
    } else if (i < n - 1 && st.ruinIndex < 0) {
      // Decision at this close, filled now and held over bar i+1, every coin at the account value E.
      for (let k = 0; k < K; k++) {
        const coin = coins[k] as KernelCoin;
        const p = coin.close[i] as number;
        if (p === p) V -= fill(st, coin, k, i, (targets[k] as Float64Array)[t] as number, p, E, i, feesOut, turnoverOut, j);
      }
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
  value[0] = V;
  sums[0] = E;
  sums[1] = peak;
  sums[2] = maxDrawdown;
  sums[3] = sumReturns;
  sums[4] = sumSquaredReturns;
  sums[6] = netExposure;
  sums[7] = grossExposure;
  st.next = hi;
}

/**
 * Bar i's open under next_open: every coin marked from its reference price to the open
 * (the gap close_{i-1} -> open_i on the old units), ruin if the account is then worth
 * <= 0, then the decisions of the last close filled at the open, every coin at that
 * account value. Reads and writes the account value in `st.value`.
 */
function openBar(st: KernelState, coins: readonly KernelCoin[], i: number, feesOut: Float64Array | undefined, turnoverOut: Float64Array | undefined, j: number): void {
  const K = coins.length;
  let V = st.value[0] as number;
  for (let k = 0; k < K; k++) {
    const o = ((coins[k] as KernelCoin).open as ArrayLike<number>)[i] as number;
    if (o !== o) continue;
    const q = st.units[k] as number;
    if (q !== 0) {
      const d = q * (o - (st.last[k] as number));
      V += d;
      st.tradePnl[k] = (st.tradePnl[k] as number) + d;
    }
    st.last[k] = o;
  }
  if (V <= 0 && st.ruinIndex < 0) ruin(st, K, i);
  if (st.ruinIndex < 0) {
    const Eo = V;
    for (let k = 0; k < K; k++) {
      const coin = coins[k] as KernelCoin;
      const o = (coin.open as ArrayLike<number>)[i] as number;
      if (o === o) V -= fill(st, coin, k, i, st.pending[k] as number, o, Eo, i - 1, feesOut, turnoverOut, j);
    }
  }
  st.value[0] = V;
}

/** Account value with every coin at its reference price. @internal */
export function accountValue(st: KernelState): number {
  return st.value[0] as number;
}

/**
 * Record coin k's open trade as closed at bar i and price (reason: 0 signal, 1 stop,
 * 2 take-profit, 3 liquidation; an open trade is "end") and mark the coin flat in the ledger.
 * @internal
 */
export function closeTrade(st: KernelState, k: number, i: number, price: number, isOpen: boolean, reason = 0): void {
  st.log?.record(
    k,
    st.side[k] as number,
    st.entryIndex[k] as number,
    i,
    st.entryPrice[k] as number,
    price,
    st.maxUnits[k] as number,
    st.entryNotional[k] as number,
    st.tradePnl[k] as number,
    st.tradeFees[k] as number,
    st.tradeFunding[k] as number,
    isOpen,
    reason,
    st.tradeSpread[k] as number,
    st.tradeImpact[k] as number,
    st.tradeLiquidationFee[k] as number,
  );
  st.side[k] = 0;
}

/**
 * Ruin at bar i: the account is wiped out; close everything at the reference prices
 * (trading stops). Selling at the reference price leaves the account value as it is.
 */
function ruin(st: KernelState, K: number, i: number): void {
  st.ruinIndex = i;
  for (let k = 0; k < K; k++) {
    if (st.units[k] === 0) continue;
    st.units[k] = 0;
    st.held[k] = 0;
    if (st.side[k] !== 0) closeTrade(st, k, i, st.last[k] as number, false, 3);
  }
}

/**
 * The fill rule: move coin k toward target weight w at price p (finite, the coin's
 * reference price from now on), with account value E at that instant; returns the fee
 * paid (the account value falls by it: the units change hands at the reference price).
 * - fractional units: w E / p units; cost on |w - w_prev| E under every-bar
 *   rebalancing (docs/DESIGN.md), on the units traded otherwise;
 * - whole units: floor(E |w| / (p (1 + rate))) units, cost on the units traded;
 * - on-change rebalancing skips a target equal to the held one (a whole-unit
 *   target the account could not yet afford is retried);
 * - the rate is (fee + slippage) / 1e4 plus half the last known spread; with `coin.impact`,
 *   the square-root impact scale of bar `impactBar` x traded^1.5 is added (see feeOf);
 * - after an intrabar exit (exitsInBar) the coin stays flat while the target equals the
 *   one in force at the exit.
 * The trade ledger closes on 0 or a flip and opens on leaving 0 or a flip (tradeEvent).
 * Small on purpose (the JIT inlines a function of at most 460 bytes of bytecode): what
 * happens only when something is traded is in feeOf and tradeEvent.
 */
function fill(
  st: KernelState,
  coin: KernelCoin,
  k: number,
  i: number,
  w: number,
  p: number,
  E: number,
  impactBar: number,
  feesOut: Float64Array | undefined,
  turnoverOut: Float64Array | undefined,
  j: number,
): number {
  if (st.stopped[k] === 1 && stillFlat(st, k, w)) return 0;
  const old = st.units[k] as number;
  const heldPrev = st.held[k] as number;
  if (!st.everyBar && w === heldPrev && !(st.whole && w !== 0 && old === 0)) return 0;
  const rate = costRate(st, coin, k, i);
  // E x (w / p): the units w E / p, with the division off the account value's chain.
  const nu = st.whole ? wholeUnits(w, E, p, rate) : E * (w / p);
  const traded = st.byWeight ? Math.abs(w - heldPrev) * E : Math.abs(nu - old) * p;
  const fee = traded === 0 ? 0 : feeOf(st, coin, k, rate, traded, E, impactBar, feesOut, turnoverOut, j);
  st.held[k] = w;
  st.last[k] = p;
  st.units[k] = nu;
  if (Math.sign(old) !== Math.sign(nu)) tradeEvent(st, k, i, p, old, nu, heldPrev, w, fee);
  else if (nu !== 0) {
    if (fee !== 0) addFee(st, k, fee);
    if (Math.abs(nu) > (st.maxUnits[k] as number)) st.maxUnits[k] = Math.abs(nu);
  }
  return fee;
}

/** After an intrabar exit: true while the target equals the one in force at the exit (the coin stays flat); clears the flag otherwise. */
function stillFlat(st: KernelState, k: number, w: number): boolean {
  if (w === st.exitTarget[k]) return true;
  st.stopped[k] = 0;
  return false;
}

/**
 * The fee of a fill of coin k trading `traded` notional at cost `rate` with account value
 * E: rate x traded, plus the square-root market impact (scale of bar `impactBar`) when the
 * coin has one. Leaves the fee's half-spread part and the impact in `st.fillArgs` [4, 5]
 * (the cost breakdown), books the fee and the turnover (traded / E) for the run and the bar.
 */
function feeOf(
  st: KernelState,
  coin: KernelCoin,
  k: number,
  rate: number,
  traded: number,
  E: number,
  impactBar: number,
  feesOut: Float64Array | undefined,
  turnoverOut: Float64Array | undefined,
  j: number,
): number {
  const args = st.fillArgs;
  args[4] = coin.spreadBps === undefined ? 0 : ((st.spread[k] as number) / 2e4) * traded;
  const imp = coin.impact;
  args[5] = imp === undefined ? 0 : impactCost(imp[impactBar] as number, traded);
  const fee = rate * traded + (args[5] as number);
  if (feesOut !== undefined) feesOut[j] = (feesOut[j] as number) + fee;
  const to = traded / E;
  st.sums[5] = (st.sums[5] as number) + to;
  if (turnoverOut !== undefined) turnoverOut[j] = (turnoverOut[j] as number) + to;
  return fee;
}

/** A fill's fee, with its spread and impact parts (`st.fillArgs` [4, 5]), added to coin k's open trade. */
function addFee(st: KernelState, k: number, fee: number): void {
  st.tradeFees[k] = (st.tradeFees[k] as number) + fee;
  st.tradeSpread[k] = (st.tradeSpread[k] as number) + (st.fillArgs[4] as number);
  st.tradeImpact[k] = (st.tradeImpact[k] as number) + (st.fillArgs[5] as number);
}

/** Cost rate of a fill of coin k at bar i: (fee + slippage) / 1e4 plus half the last known spread (bps). @internal */
export function costRate(st: KernelState, coin: KernelCoin, k: number, i: number): number {
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
 * The trade ledger when a fill changes coin k's side from `old` to `nu` units (with the
 * fee, and the fee's spread and impact parts in `st.fillArgs` [4, 5] when it is not 0):
 * close on 0 or a flip, open on leaving 0 or a flip; a flip's fee (and each part) is
 * split between the legs in proportion to what each trades.
 */
function tradeEvent(st: KernelState, k: number, i: number, p: number, old: number, nu: number, heldPrev: number, w: number, fee: number): void {
  let spreadPart = fee === 0 ? 0 : (st.fillArgs[4] as number);
  let impactPart = fee === 0 ? 0 : (st.fillArgs[5] as number);
  if (old !== 0) {
    // Fee of the exit leg: the part of the traded notional that unwinds the old units
    // (by weight under every-bar fractional rebalancing, where the fee is c |w_i - w_{i-1}|).
    const byWeight = st.byWeight;
    const oldPart = byWeight ? Math.abs(heldPrev) : Math.abs(old) * p;
    const newPart = byWeight ? Math.abs(w) : Math.abs(nu) * p;
    const share = oldPart + newPart > 0 ? oldPart / (oldPart + newPart) : 0;
    const exitFee = oldPart + newPart > 0 ? (fee * oldPart) / (oldPart + newPart) : 0;
    st.tradeFees[k] = (st.tradeFees[k] as number) + exitFee;
    st.tradeSpread[k] = (st.tradeSpread[k] as number) + spreadPart * share;
    st.tradeImpact[k] = (st.tradeImpact[k] as number) + impactPart * share;
    closeTrade(st, k, i, p, false);
    fee -= exitFee;
    spreadPart -= spreadPart * share;
    impactPart -= impactPart * share;
  }
  if (nu !== 0) {
    st.trades++;
    st.side[k] = nu > 0 ? 1 : -1;
    st.entryIndex[k] = i;
    st.entryPrice[k] = p;
    st.entryNotional[k] = Math.abs(nu) * p;
    st.maxUnits[k] = Math.abs(nu);
    st.tradePnl[k] = 0;
    st.tradeFees[k] = fee;
    st.tradeFunding[k] = 0;
    st.tradeSpread[k] = spreadPart;
    st.tradeImpact[k] = impactPart;
    st.tradeLiquidationFee[k] = 0;
  }
}
