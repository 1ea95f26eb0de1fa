import { checkPrices } from "../execution.js";
import { impactCost } from "../marketImpact.js";
import { costRateOf, fillFee, fillTurnover } from "./fillCost.js";
import { exitsInBar } from "./exitsInBar.js";
import { compileSpanLoop, compileVariantLoop, type LoopShape, type Peeled, type SpanLoop, type SpanRules, type VariantLoop, type VariantSignalSource } from "./spanLoop.js";
import { TradeLog } from "../TradeLog.js";
import { KernelState, type KernelSettings } from "./KernelState.js";
import { columnLike, PRIMING, PRIMING_RUNS } from "./primingBars.js";

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
  const loop = spanLoopFor(st, coins, targets.length, out);
  let a = lo;
  if (a === 0 && hi > 0) loop.first(st, coins, targets, targetBase, a++, 1, out);
  for (; a < hi; a += SPAN) loop.rest(st, coins, targets, targetBase, a, Math.min(hi, a + SPAN), out);
  st.next = hi;
  const n = st.settings.n;
  if (hi === n && n > 0) closeOpenTrades(st, coins.length);
}

/** Bars per call of the span loop. */
const SPAN = 512;

/** A trade still open at the end is reported, marked at the last price, flagged open. */
function closeOpenTrades(st: KernelState, K: number): void {
  for (let k = 0; k < K; k++) if (st.side[k] !== 0) closeTrade(st, k, st.settings.n - 1, st.last[k] as number, true);
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
 * Ruin at bar i (the account value `st.value` is <= 0): close everything at the reference prices
 * (selling at the reference price leaves the account value as it is) and stop trading; a value
 * below 0 is capped at 0 (capLoss: booked to the first trade closed here, or with none open to the last one closed).
 */
export function ruin(st: KernelState, K: number, i: number): void {
  st.ruinIndex = i;
  for (let k = 0; k < K; k++) {
    if (st.units[k] === 0) continue;
    st.units[k] = 0;
    st.held[k] = 0;
    if (st.side[k] !== 0) {
      capLoss(st, k);
      closeTrade(st, k, i, st.last[k] as number, false, 3);
    }
  }
  capLoss(st, -1);
}

/**
 * The loss cap: an account never loses more than its collateral. When an event (a gap, a
 * liquidation's fees, a mark) leaves the account value below 0, it is set to 0 and the
 * shortfall is the exchange's (its insurance fund absorbs it, as on perpetual-futures venues);
 * coin k's trade, being closed by that event, books it (its P&L then sums with the others' to
 * the change in equity). k = -1: no trade is open at the ruin; the last trade recorded books it (see
 * below). Called only where a trade closes at ruin or an intrabar exit; the account is then ruined.
 */
export function capLoss(st: KernelState, k: number): void {
  const v = st.value[0] as number;
  if (!(v < 0)) return;
  if (k >= 0) st.tradePnl[k] = (st.tradePnl[k] as number) - v;
  // No trade open at the ruin: with no units held nothing was marked, funded or exited since the last
  // fills, so their fees took the value below 0 (a close to flat, or a flip whose new side rounded to 0
  // whole units), and the last trade they closed books it. Those fills are at bar i's open (next_open)
  // or at the last close (next_close: the ruin is found by the next bar's check), so that trade's exit
  // bar is not the ruin's.
  else st.log?.bookShortfall(-v);
  st.value[0] = 0;
}

/** After an intrabar exit: true while the target equals the one in force at the exit (the coin stays flat); clears the flag otherwise. */
export function stillFlat(st: KernelState, k: number, w: number): boolean {
  if (w === st.exitTarget[k]) return true;
  st.stopped[k] = 0;
  return false;
}

/**
 * The fee of a fill of coin k trading `traded` notional with account value E: its cost
 * rate (costRate) x traded, plus the square-root market impact (scale of bar `impactBar`) when the
 * coin has one. Leaves the fee's half-spread part and the impact in `st.fillArgs` [1, 2]
 * (the cost breakdown), books the fee and the turnover (traded / E, when E > 0) for the run
 * and the bar. The one fee rule of fills and intrabar exits.
 */
export function feeOf(
  st: KernelState,
  coin: KernelCoin,
  k: number,
  traded: number,
  E: number,
  impactBar: number,
  feesOut: Float64Array | undefined,
  turnoverOut: Float64Array | undefined,
  j: number,
): number {
  costRate(st, k);
  const args = st.fillArgs;
  const rate = args[0] as number;
  args[1] = coin.spreadBps === undefined ? 0 : ((st.spread[k] as number) / 2e4) * traded;
  const imp = coin.impact;
  args[2] = imp === undefined ? 0 : impactCost(imp[impactBar] as number, traded);
  const fee = fillFee(rate, traded, args[2] as number);
  if (feesOut !== undefined) feesOut[j] = (feesOut[j] as number) + fee;
  // The turnover is 0 when E <= 0, and adding it then changes nothing (the sums are never -0).
  const to = fillTurnover(traded, E);
  st.sums[5] = (st.sums[5] as number) + to;
  if (turnoverOut !== undefined) turnoverOut[j] = (turnoverOut[j] as number) + to;
  return fee;
}

/** A fill's fee, with its spread and impact parts (`st.fillArgs` [1, 2]), added to coin k's open trade. */
export function addFee(st: KernelState, k: number, fee: number): void {
  st.tradeFees[k] = (st.tradeFees[k] as number) + fee;
  st.tradeSpread[k] = (st.tradeSpread[k] as number) + (st.fillArgs[1] as number);
  st.tradeImpact[k] = (st.tradeImpact[k] as number) + (st.fillArgs[2] as number);
}

/**
 * Cost rate of a fill of coin k, (fee + slippage) / 1e4 plus half its last known quoted
 * spread (bps; the span loop carries it bar by bar), left in `st.fillArgs[0]` (a double
 * returned by a call the JIT did not inline would be a new heap number).
 * @internal
 */
export function costRate(st: KernelState, k: number): void {
  st.fillArgs[0] = costRateOf(st.baseRate, st.spread[k] as number);
}

/** Whole units of coin k for target weight w at price p with account value E: floor(E |w| / (p (1 + rate))), signed, at the coin's cost rate. */
export function wholeUnits(st: KernelState, k: number, w: number, E: number, p: number): number {
  costRate(st, k);
  const want = Math.floor((Math.abs(w) * E) / (p * (1 + (st.fillArgs[0] as number))));
  return w < 0 ? -want : want;
}

/**
 * The trade ledger when a fill changes coin k's side from `old` to `nu` units (with the
 * fee, and the fee's spread and impact parts in `st.fillArgs` [1, 2] when it is not 0):
 * close on 0 or a flip, open on leaving 0 or a flip; a flip's fee (and each part) is
 * split between the legs in proportion to what each trades. (The fill rule counts the trade opened.)
 */
export function tradeEvent(st: KernelState, k: number, i: number, p: number, old: number, nu: number, heldPrev: number, w: number, fee: number): void {
  let spreadPart = fee === 0 ? 0 : (st.fillArgs[1] as number);
  let impactPart = fee === 0 ? 0 : (st.fillArgs[2] as number);
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

/** The rules the span loop calls out of line. */
const RULES: SpanRules = { exitsInBar, ruin, stillFlat, wholeUnits, feeOf, addFee, tradeEvent, badClose };

/** close[i] refused by acceptedPrice in the loop (KernelSettings.checkClose): checkPrices' error for it. */
function badClose(st: KernelState, close: ArrayLike<number>, i: number): void {
  checkPrices("close", close, st.settings.checkClose ?? "backtest", i, i + 1);
}
/** The span loops compiled so far, by shape (a process meets a handful of shapes). */
const LOOPS = new Map<string, Peeled<SpanLoop>>();

/**
 * Several one-coin runs at once (the variants of a sweep): bars lo..hi-1 of every state in
 * `sts` (one KernelState per run, same settings, each at bar lo) over the same coin, with
 * their targets computed in the loop by the caller's `signal` source (see compileVariantLoop;
 * `params` is its `P`), accumulators only. Each state ends with the numbers `runKernel` gives
 * it alone with those targets; one state may write per-bar series into `out`. The loop is compiled once per shape, account count and `key`
 * (which must name everything the signal's source depends on).
 * @internal
 */
export function runVariants(sts: readonly KernelState[], coin: KernelCoin, signal: VariantSignalSource & { readonly key: string }, params: unknown, lo: number, hi: number, out: KernelSeries = NO_SERIES): void {
  const st = sts[0] as KernelState;
  const coins = [coin];
  const shape = shapeOf(st, coins, out);
  const key = `${shapeKey(shape)}|${sts.length}|${signal.key}`;
  let loop = VARIANT_LOOPS.get(key);
  if (loop === undefined) {
    const made = compileVariantLoop(shape, sts.length, signal, RULES);
    VARIANT_LOOPS.set(key, (loop = made));
    // A loop met for the first time runs over the priming bars first (kernel/primingBars.ts).
    const params = signal.priming?.();
    if (params !== undefined) {
      primeLoop(st, sts.length, [coin], out, (ps, cs, o, a, b) => (a === 0 ? made.first : made.rest)(ps, cs, params, a, b, o));
    }
  }
  let a = lo;
  if (a === 0 && hi > 0) loop.first(sts, coins, params, a++, 1, out);
  variantSpans(loop.rest, sts, coins, params, a, hi, out);
  const n = st.settings.n;
  for (const s of sts) {
    s.next = hi;
    if (hi === n && n > 0) closeOpenTrades(s, 1);
  }
}

/**
 * Bars a..hi-1 of a variant loop, SPAN bars a call. A function of its own, so the one hot loop of a
 * run is this small one: V8 optimises it at a small cost, and runVariants (called once per run,
 * with the shape key, the compile and the trades closed around it) is never hot enough to be
 * optimised (its optimising compiles, regular and OSR, ran in the third or fourth call of a process:
 * 40-46 ms of compile wall time under load, inside a bench's timed calls).
 */
function variantSpans(rest: VariantLoop, sts: readonly KernelState[], coins: readonly KernelCoin[], params: unknown, a: number, hi: number, out: KernelSeries): void {
  for (; a < hi; a += SPAN) rest(sts, coins, params, a, Math.min(hi, a + SPAN), out);
}

/** The variant loops compiled so far, by shape, account count and signal. */
const VARIANT_LOOPS = new Map<string, Peeled<VariantLoop>>();

/** The span loop for this run's shape (spanLoop.ts), compiled and primed (kernel/primingBars.ts) on first use. */
function spanLoopFor(st: KernelState, coins: readonly KernelCoin[], K: number, out: KernelSeries): Peeled<SpanLoop> {
  const shape = shapeOf(st, coins, out);
  const key = shapeKey(shape);
  let loop = LOOPS.get(key);
  if (loop === undefined) {
    const made = compileSpanLoop(shape, RULES);
    LOOPS.set(key, (loop = made));
    // Every coin's target follows the priming bars.
    const targets = Array.from({ length: K }, () => Float64Array.from(PRIMING, ([x]) => x));
    primeLoop(st, 1, coins, out, (ps, cs, o, a, b) => (a === 0 ? made.first : made.rest)(ps[0] as KernelState, cs, targets, 0, a, b, o));
  }
  return loop;
}

/**
 * A new loop run PRIMING_RUNS times over the priming bars (kernel/primingBars.ts), bar 0 then the
 * rest as runKernel calls it, on scratch states with `st`'s settings (a scratch trade log when it
 * keeps one), scratch coins with the columns `coins` have (of the same kinds, see primingCoin) and
 * scratch series where `out` has one: the same shape, so the same loop; nothing of the run is touched.
 */
function primeLoop(
  st: KernelState,
  accounts: number,
  coins: readonly KernelCoin[],
  out: KernelSeries,
  run: (sts: KernelState[], coins: readonly KernelCoin[], out: KernelSeries, lo: number, hi: number) => void,
): void {
  const m = PRIMING.length;
  const settings: KernelSettings = { ...st.settings, n: m };
  const K = st.units.length;
  const cs = coins.map(primingCoin);
  const col = (a: Float64Array | undefined): Float64Array | undefined => (a === undefined ? undefined : new Float64Array(m));
  const cols = (a: readonly Float64Array[] | undefined): Float64Array[] | undefined => (a === undefined ? undefined : Array.from({ length: K }, () => new Float64Array(m)));
  for (let r = 0; r < PRIMING_RUNS; r++) {
    const sts = Array.from({ length: accounts }, () => new KernelState(K, settings, st.log === undefined ? undefined : new TradeLog()));
    const o: KernelSeries = {
      base: 0,
      equity: col(out.equity),
      returns: col(out.returns),
      turnover: col(out.turnover),
      exposure: col(out.exposure),
      fees: col(out.fees),
      fundingPaid: col(out.fundingPaid),
      units: cols(out.units),
      weights: cols(out.weights),
    };
    run(sts, cs, o, 0, 1);
    run(sts, cs, o, 1, m);
  }
}

/**
 * A coin over the priming bars with the columns `c` has, each of its kind (columnLike): the priming
 * closes (and opens), funding 1e-5, a spread of 1 bp, high and low 0.1 % around the close, no impact.
 */
function primingCoin(c: KernelCoin): KernelCoin {
  const close = PRIMING.map(([, p]) => p);
  const like = (col: ArrayLike<number> | undefined, values: readonly number[]): ArrayLike<number> | undefined => (col === undefined ? undefined : columnLike(col, values));
  return kernelCoin({
    close: columnLike(c.close, close),
    open: like(c.open, close),
    funding: like(c.funding, close.map(() => 1e-5)),
    spreadBps: like(c.spreadBps, close.map(() => 1)),
    high: like(c.high, close.map((p) => p * 1.001)),
    low: like(c.low, close.map((p) => p * 0.999)),
    impact: like(c.impact, close.map(() => 0)),
  });
}

/** One letter per field of a shape. */
function shapeKey(shape: LoopShape): string {
  let key = "";
  for (const v of Object.values(shape)) key += v ? "1" : "0";
  return key;
}

/** The shape of a run: its state's modes, the series asked for, one coin's optional columns. */
function shapeOf(st: KernelState, coins: readonly KernelCoin[], out: KernelSeries): LoopShape {
  const one = coins.length === 1;
  const c0 = coins[0];
  const shape: LoopShape = {
    one,
    nextOpen: st.nextOpen,
    exits: st.exits,
    everyBar: st.everyBar,
    whole: st.whole,
    byWeight: st.byWeight,
    accumulate: st.accumulate,
    equity: out.equity !== undefined,
    returns: out.returns !== undefined,
    exposure: out.exposure !== undefined,
    fundingPaid: out.fundingPaid !== undefined,
    units: out.units !== undefined,
    weights: out.weights !== undefined,
    fees: out.fees !== undefined,
    turnover: out.turnover !== undefined,
    funding: one && c0?.funding !== undefined,
    spread: one && c0?.spreadBps !== undefined,
    impact: one && c0?.impact !== undefined,
    ledger: st.log !== undefined || st.exits,
    checkClose: one && st.settings.checkClose !== undefined,
  };
  return shape;
}
