import { TradeLog } from "./TradeLog.js";

/** One instrument of a simulation: prices and the final target weight decided at each close. @internal */
export interface SimCoin {
  readonly name: string | undefined;
  readonly close: ArrayLike<number>;
  readonly open: ArrayLike<number> | undefined;
  /** Target fraction of equity decided at the close of each bar (finite; sizing, caps and filters already applied). */
  readonly target: Float64Array;
  /** Per-bar funding rate (decimal, paid by longs when positive); NaN counts as 0. */
  readonly funding: ArrayLike<number> | undefined;
  /** Per-bar quoted spread in bps; half of it is paid on each unit of turnover. NaN carries the last known value. */
  readonly spreadBps: ArrayLike<number> | undefined;
}

/** @internal */
export interface SimSettings {
  /** Number of bars. */
  readonly n: number;
  readonly initialCash: number;
  /** Fee + slippage, in bps of traded notional. */
  readonly costBps: number;
  readonly nextOpen: boolean;
  readonly whole: boolean;
  readonly everyBar: boolean;
}

/** @internal */
export interface SimOutput {
  readonly equity: Float64Array;
  readonly returns: Float64Array;
  readonly turnover: Float64Array;
  readonly exposure: Float64Array;
  readonly fees: Float64Array;
  readonly fundingPaid: Float64Array;
  /** Units held at each close, per coin (after that close's fill). */
  readonly units: Float64Array[];
  /** Weight held at each close, per coin (units x close / equity). */
  readonly weights: Float64Array[];
  /** The round trips, recorded columnar (Trade objects are built on demand). */
  readonly log: TradeLog;
  /** First bar at which equity was <= 0 (trading stopped), or -1. */
  readonly ruinIndex: number;
}

/**
 * The engine: one pass over the bars with cash and units per coin, marked to
 * market at every close. See backtest() for the semantics it implements.
 * @internal
 */
export function simulate(coins: readonly SimCoin[], s: SimSettings): SimOutput {
  const n = s.n;
  const K = coins.length;
  const baseRate = s.costBps / 1e4;
  const equity = new Float64Array(n);
  const returns = new Float64Array(n);
  const turnover = new Float64Array(n);
  const exposure = new Float64Array(n);
  const feesOut = new Float64Array(n);
  const fundOut = new Float64Array(n);
  const unitsOut: Float64Array[] = [];
  const weightsOut: Float64Array[] = [];
  for (let k = 0; k < K; k++) {
    unitsOut.push(new Float64Array(n));
    weightsOut.push(new Float64Array(n));
  }
  const log = new TradeLog();
  if (n === 0) {
    return { equity, returns, turnover, exposure, fees: feesOut, fundingPaid: fundOut, units: unitsOut, weights: weightsOut, log, ruinIndex: -1 };
  }

  // Per-coin state.
  const u = new Float64Array(K); // units held
  const last = new Float64Array(K).fill(Number.NaN); // reference price: last finite fill/mark price
  const held = new Float64Array(K); // last executed target weight
  const spread = new Float64Array(K); // last known spread, bps
  // Open-trade ledger per coin.
  const side = new Int8Array(K);
  const eIdx = new Int32Array(K);
  const ePrice = new Float64Array(K);
  const eNotional = new Float64Array(K);
  const maxUnits = new Float64Array(K);
  const tPnl = new Float64Array(K); // mark-to-market P&L before costs
  const tFees = new Float64Array(K);
  const tFund = new Float64Array(K);

  // Cash lives in a typed array: a double captured by the closures below would be boxed on every write.
  const acct = Float64Array.of(s.initialCash);
  let ruinIndex = -1;
  const nextOpen = s.nextOpen;
  const whole = s.whole;
  const everyBar = s.everyBar;

  const closeTrade = (k: number, i: number, price: number, isOpen: boolean): void => {
    log.record(k, side[k] as number, eIdx[k] as number, i, ePrice[k] as number, price, maxUnits[k] as number, eNotional[k] as number, tPnl[k] as number, tFees[k] as number, tFund[k] as number, isOpen);
    side[k] = 0;
  };

  /**
   * Rebalance coin k to target weight w at price p (finite) with account value E
   * at that instant; returns the turnover as a fraction of E.
   */
  const fill = (k: number, i: number, w: number, p: number, E: number): number => {
    const coin = coins[k] as SimCoin;
    const old = u[k] as number;
    let nu: number;
    const sp = coin.spreadBps;
    if (sp !== undefined) {
      const v = sp[i] as number;
      if (v === v) spread[k] = v;
    }
    const rate = baseRate + (spread[k] as number) / 2e4;
    let fee: number;
    let traded: number;
    if (whole) {
      const want = Math.floor((Math.abs(w) * E) / (p * (1 + rate)));
      nu = w < 0 ? -want : want;
      traded = Math.abs(nu - old) * p;
      fee = rate * traded;
    } else {
      nu = (w * E) / p;
      if (everyBar) {
        // docs/DESIGN.md: cost on the change of the target weight, |w_i - w_{i-1}|.
        traded = Math.abs(w - (held[k] as number)) * E;
      } else {
        traded = Math.abs(nu - old) * p;
      }
      fee = rate * traded;
    }
    const heldPrev = held[k] as number;
    held[k] = w;
    if (nu === old && fee === 0) {
      last[k] = p;
      return 0;
    }
    acct[0] = (acct[0] as number) - ((nu - old) * p + fee);
    feesOut[i] = (feesOut[i] as number) + fee;
    // Trade ledger: close on 0 or flip, open on leaving 0 or flip.
    const oldSide = old > 0 ? 1 : old < 0 ? -1 : 0;
    const newSide = nu > 0 ? 1 : nu < 0 ? -1 : 0;
    if (oldSide !== 0 && oldSide !== newSide) {
      // Fee of the exit leg: the part of the traded notional that unwinds the old units.
      // (by weight under every-bar fractional rebalancing, where the fee is c |w_i - w_{i-1}|).
      const oldPart = !whole && everyBar ? Math.abs(heldPrev) : Math.abs(old) * p;
      const newPart = !whole && everyBar ? Math.abs(w) : Math.abs(nu) * p;
      const exitFee = oldPart + newPart > 0 ? (fee * oldPart) / (oldPart + newPart) : 0;
      tFees[k] = (tFees[k] as number) + exitFee;
      closeTrade(k, i, p, false);
      fee -= exitFee;
    }
    if (newSide !== 0 && newSide !== oldSide) {
      side[k] = newSide;
      eIdx[k] = i;
      ePrice[k] = p;
      eNotional[k] = Math.abs(nu) * p;
      maxUnits[k] = Math.abs(nu);
      tPnl[k] = 0;
      tFees[k] = fee;
      tFund[k] = 0;
    } else if (newSide !== 0) {
      tFees[k] = (tFees[k] as number) + fee;
      if (Math.abs(nu) > (maxUnits[k] as number)) maxUnits[k] = Math.abs(nu);
    }
    u[k] = nu;
    last[k] = p;
    return traded / E;
  };

  /** Ruin: the account is wiped out; close everything at the reference prices (trading stops). */
  const wipeOut = (i: number): void => {
    for (let k = 0; k < K; k++) {
      const q = u[k] as number;
      if (q === 0) continue;
      acct[0] = (acct[0] as number) + q * (last[k] as number);
      u[k] = 0;
      held[k] = 0;
      if (side[k] !== 0) closeTrade(k, i, last[k] as number, false);
    }
  };

  /** Account value with every coin at its reference price. */
  const value = (): number => {
    let v = acct[0] as number;
    for (let k = 0; k < K; k++) {
      const q = u[k] as number;
      if (q !== 0) v += q * (last[k] as number);
    }
    return v;
  };

  let E = s.initialCash;
  for (let i = 0; i < n; i++) {
    if (i > 0) {
      if (nextOpen) {
        // Gap close_{i-1} -> open_i with the old units, then fill decision i-1 at the open.
        for (let k = 0; k < K; k++) {
          const o = ((coins[k] as SimCoin).open as ArrayLike<number>)[i] as number;
          if (o !== o) continue;
          const q = u[k] as number;
          if (q !== 0) tPnl[k] = (tPnl[k] as number) + q * (o - (last[k] as number));
          last[k] = o;
        }
        const Eo = value();
        if (Eo <= 0 && ruinIndex < 0) {
          ruinIndex = i;
          wipeOut(i);
        }
        let to = 0;
        for (let k = 0; k < K; k++) {
          const coin = coins[k] as SimCoin;
          const o = (coin.open as ArrayLike<number>)[i] as number;
          if (o !== o || ruinIndex >= 0) continue;
          const w = coin.target[i - 1] as number;
          if (everyBar || w !== held[k] || (whole && w !== 0 && u[k] === 0)) to += fill(k, i, w, o, Eo);
        }
        turnover[i] = to;
      }
      // Funding on the units held over this bar, at the bar's starting reference price.
      let fpaid = 0;
      for (let k = 0; k < K; k++) {
        const f = (coins[k] as SimCoin).funding;
        const q = u[k] as number;
        if (f === undefined || q === 0) continue;
        const r = f[i] as number;
        if (r !== r || r === 0) continue;
        const paid = q * (last[k] as number) * r;
        fpaid += paid;
        tFund[k] = (tFund[k] as number) + paid;
      }
      if (fpaid !== 0) {
        acct[0] = (acct[0] as number) - fpaid;
        fundOut[i] = fpaid;
      }
      // Mark to the close.
      for (let k = 0; k < K; k++) {
        const c = (coins[k] as SimCoin).close[i] as number;
        if (c !== c) continue;
        const q = u[k] as number;
        if (q !== 0) tPnl[k] = (tPnl[k] as number) + q * (c - (last[k] as number));
        last[k] = c;
      }
      const prev = E;
      E = value();
      returns[i] = E === prev ? 0 : E / prev - 1;
      if (E <= 0 && ruinIndex < 0) {
        ruinIndex = i;
        wipeOut(i);
      }
    } else {
      returns[0] = Number.NaN;
      for (let k = 0; k < K; k++) {
        const c = (coins[k] as SimCoin).close[0] as number;
        if (c === c) last[k] = c;
      }
    }
    equity[i] = E;
    // Decision at this close: filled now (next_close) unless this is the last bar.
    if (!nextOpen && i < n - 1) {
      let to = 0;
      for (let k = 0; k < K; k++) {
        const coin = coins[k] as SimCoin;
        const c = coin.close[i] as number;
        if (c !== c) continue;
        if (ruinIndex >= 0) break;
        const w = coin.target[i] as number;
        if (everyBar || w !== held[k] || (whole && w !== 0 && u[k] === 0)) to += fill(k, i, w, c, E);
      }
      turnover[i] = to;
    }
    let net = 0;
    for (let k = 0; k < K; k++) {
      const q = u[k] as number;
      (unitsOut[k] as Float64Array)[i] = q;
      const wk = E !== 0 ? (q * (last[k] as number)) / E : 0;
      (weightsOut[k] as Float64Array)[i] = q === 0 ? 0 : wk;
      net += q === 0 ? 0 : wk;
    }
    exposure[i] = net;
  }
  // A trade still open at the end is reported, marked at the last close.
  for (let k = 0; k < K; k++) {
    if (side[k] !== 0) closeTrade(k, n - 1, last[k] as number, true);
  }
  return { equity, returns, turnover, exposure, fees: feesOut, fundingPaid: fundOut, units: unitsOut, weights: weightsOut, log, ruinIndex };

}

