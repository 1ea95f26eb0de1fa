import type { Trade } from "../backtest/Trade.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { nanMoments } from "./nanMoments.js";

/** Options of `tradeStatistics`. */
export interface TradeStatisticsOptions {
  /**
   * Count trades still open at the last bar (marked to the last close) as if
   * closed there. Default false: an open trade's outcome is not known, so it
   * is left out of every statistic and only counted in `openTrades`.
   */
  readonly includeOpen?: boolean;
  /**
   * Target positions per bar (the backtest's `positions`), for `exposure`
   * (share of bars with a non-zero position) and `turnover`.
   */
  readonly positions?: ArrayLike<number>;
  /** Per-bar turnover (the backtest's `turnover`, |w_t - w_{t-1}|), summed into `turnover`. */
  readonly turnover?: ArrayLike<number>;
  /**
   * Number of bars of the backtest, for `exposure` when `positions` is not
   * given: exposure = sum(barsHeld) / bars.
   */
  readonly bars?: number;
}

/** Headline statistics of a list of trades. Ratios with no meaning are NaN. */
export interface TradeStatistics {
  /** Trades counted (closed ones, plus open ones with `includeOpen`). */
  readonly trades: number;
  /** Trades still open at the end (whatever `includeOpen` says). */
  readonly openTrades: number;
  readonly winners: number;
  readonly losers: number;
  /** Winners / trades, where a winner has net pnl > 0 (after fees and funding). */
  readonly winRate: number;
  /** Gross profit / gross loss, in cash: sum of positive pnl / |sum of negative pnl|. Infinity with no loser. */
  readonly profitFactor: number;
  /**
   * Sum of the positive net trade returns / |sum of the negative ones|: backtesting.py's
   * "Profit Factor" (on returns, not cash; NaN with no losing trade, as theirs).
   */
  readonly profitFactorOfReturns: number;
  /** Mean net pnl per trade, in cash. */
  readonly expectancy: number;
  /** Mean net return per trade (decimal; see `netTradeReturn`): backtesting.py's "Expectancy [%]". */
  readonly avgTrade: number;
  /**
   * Geometric mean of the net trade returns, `(prod(1 + R))^(1/n) − 1`: backtesting.py's
   * "Avg. Trade [%]". −1 when a trade lost everything (R ≤ −1; backtesting.py shows 0 there).
   */
  readonly geometricMeanTrade: number;
  /** Mean net return of the winners and of the losers (the latter negative). */
  readonly avgWin: number;
  readonly avgLoss: number;
  /** Best and worst net trade return. */
  readonly bestTrade: number;
  readonly worstTrade: number;
  /** Mean and longest holding time, in bars and in milliseconds. */
  readonly avgBarsHeld: number;
  readonly maxBarsHeld: number;
  readonly avgDurationMs: number;
  readonly maxDurationMs: number;
  /** Share of bars in the market, 0..1 (NaN without positions or bars). */
  readonly exposure: number;
  /** Sum of per-bar turnover (|w_t - w_{t-1}|, in multiples of equity; NaN without positions or turnover). */
  readonly turnover: number;
  /** Van Tharp's System Quality Number: sqrt(n) * mean(R) / std(R, ddof 1), R = net trade return. */
  readonly sqn: number;
  /**
   * The SQN on cash: sqrt(n) * mean(pnl) / std(pnl, ddof 1), backtesting.py's "SQN" (NaN below
   * 2 trades or with equal pnl). Trades of different sizes weigh by their size here, not in `sqn`.
   */
  readonly sqnOfPnl: number;
  /** Kelly fraction: winRate - (1 - winRate) / (avgWin / |avgLoss|). */
  readonly kelly: number;
  /** Total cash paid in fees and in funding over the counted trades. */
  readonly fees: number;
  readonly funding: number;
}

/**
 * Net return of one trade: the engine's `netReturn` when set, else its net
 * pnl (after fees and funding) over its entry notional `units * entryPrice`;
 * the gross `return` when neither is available (zero or unknown notional).
 * @example netTradeReturn({ pnl: 9, units: 1, entryPrice: 100, return: 0.1 } as Trade) // 0.09
 */
export function netTradeReturn(trade: Trade): number {
  if (trade.netReturn !== undefined && !Number.isNaN(trade.netReturn)) return trade.netReturn;
  const notional = Math.abs(trade.units) * trade.entryPrice;
  return notional > 0 && Number.isFinite(notional) ? trade.pnl / notional : trade.return;
}

/**
 * Statistics of a backtest's trades (win rate, profit factor, expectancy,
 * average / best / worst trade, holding times, exposure, turnover, SQN,
 * Kelly).
 *
 * Conventions: a trade wins when its net pnl (after fees and funding) is
 * positive; trade returns are net (`netTradeReturn`). Open trades are left
 * out unless `includeOpen`. SQN follows Van Tharp (sqrt(n) x mean / std of
 * R-multiples); without a per-trade risk unit, R is the net trade return
 * (the scale cancels in the ratio), with no cap on n; NaN below 2 trades.
 * Kelly is `W - (1 - W) / (avgWin / |avgLoss|)` (Kelly 1956, for a win/loss
 * bet); 1 when there is no loser, NaN when there is no winner.
 * backtesting.py's trade rows by their definitions (`backtesting/_stats.py`
 * `compute_stats`, on its net `ReturnPct` and `PnL`): "Avg. Trade" is
 * `geometricMeanTrade`, "Profit Factor" is `profitFactorOfReturns`,
 * "Expectancy" is `avgTrade`, "SQN" is `sqnOfPnl`, "Win Rate" is `winRate`,
 * "Best / Worst Trade" are `bestTrade` / `worstTrade`; `profitFactor`
 * (cash), `sqn` (returns) and `expectancy` (cash) are the classic
 * definitions under their classic names.
 * With no trade counted, counts are 0 and every ratio NaN.
 * References: Van Tharp, "Definitive Guide to Position Sizing" (SQN); Kelly (1956).
 * @throws InvalidArgumentError when trades is not an array or bars is not a non-negative integer
 * @example tradeStatistics(result.trades, { positions: result.positions }).winRate
 */
export function tradeStatistics(trades: readonly Trade[], options: TradeStatisticsOptions = {}): TradeStatistics {
  if (!Array.isArray(trades)) {
    throw new InvalidArgumentError("trades", `tradeStatistics: trades must be an array of Trade (BacktestResult.trades), got ${String(trades)}`);
  }
  const { includeOpen = false, positions, turnover, bars } = options;
  if (bars !== undefined && (!Number.isInteger(bars) || bars < 0)) {
    throw new InvalidArgumentError("bars", `tradeStatistics: bars must be a non-negative integer, got ${String(bars)}`);
  }
  const counted = trades.filter((t) => includeOpen || !t.open);
  const openTrades = trades.reduce((k, t) => k + (t.open ? 1 : 0), 0);
  const n = counted.length;
  const R = new Float64Array(n);
  const P = new Float64Array(n);
  let winners = 0;
  let losers = 0;
  let grossProfit = 0;
  let grossLoss = 0;
  let pnlSum = 0;
  let winSum = 0;
  let lossSum = 0;
  let best = -Infinity;
  let worst = Infinity;
  let barsSum = 0;
  let barsMax = 0;
  let durSum = 0;
  let durMax = 0;
  let fees = 0;
  let funding = 0;
  counted.forEach((t, i) => {
    const r = netTradeReturn(t);
    R[i] = r;
    P[i] = t.pnl;
    if (t.pnl > 0) {
      winners++;
      grossProfit += t.pnl;
      winSum += r;
    } else if (t.pnl < 0) {
      losers++;
      grossLoss -= t.pnl;
      lossSum += r;
    }
    pnlSum += t.pnl;
    if (r > best) best = r;
    if (r < worst) worst = r;
    barsSum += t.barsHeld;
    if (t.barsHeld > barsMax) barsMax = t.barsHeld;
    const d = t.exitTime - t.entryTime;
    durSum += d;
    if (d > durMax) durMax = d;
    fees += t.fees;
    funding += t.funding;
  });
  const nan = Number.NaN;
  const winRate = n > 0 ? winners / n : nan;
  const avgWin = winners > 0 ? winSum / winners : nan;
  const avgLoss = losers > 0 ? lossSum / losers : nan;
  let kelly = nan;
  if (n > 0 && winners > 0) kelly = losers === 0 ? 1 : winRate - (1 - winRate) / (avgWin / Math.abs(avgLoss));
  const m = nanMoments(R, 1);
  const sqn = n >= 2 ? (Math.sqrt(n) * m.mean) / m.std : nan;
  const mp = nanMoments(P, 1);
  const sqnOfPnl = n >= 2 && mp.std > 0 ? (Math.sqrt(n) * mp.mean) / mp.std : nan;
  let gainSum = 0;
  let painSum = 0;
  let logSum = 0;
  for (let i = 0; i < n; i++) {
    const r = R[i] as number;
    if (r > 0) gainSum += r;
    else if (r < 0) painSum -= r;
    if (!Number.isNaN(r)) logSum += r <= -1 ? -Infinity : Math.log1p(r);
  }

  let exposure = nan;
  let totalTurnover = nan;
  if (positions !== undefined) {
    let inMarket = 0;
    let valid = 0;
    totalTurnover = 0;
    let prev = 0;
    for (let i = 0; i < positions.length; i++) {
      const w = positions[i] as number;
      if (Number.isNaN(w)) continue;
      valid++;
      if (w !== 0) inMarket++;
      totalTurnover += Math.abs(w - prev);
      prev = w;
    }
    exposure = valid > 0 ? inMarket / valid : nan;
  } else if (bars !== undefined) {
    exposure = bars > 0 ? Math.min(1, trades.reduce((k, t) => k + t.barsHeld, 0) / bars) : nan;
  }
  if (turnover !== undefined) {
    totalTurnover = 0;
    for (let i = 0; i < turnover.length; i++) {
      const v = turnover[i] as number;
      if (!Number.isNaN(v)) totalTurnover += v;
    }
  }
  return {
    trades: n,
    openTrades,
    winners,
    losers,
    winRate,
    profitFactor: n === 0 ? nan : grossLoss > 0 ? grossProfit / grossLoss : grossProfit > 0 ? Infinity : nan,
    profitFactorOfReturns: painSum > 0 ? gainSum / painSum : nan,
    expectancy: n > 0 ? pnlSum / n : nan,
    avgTrade: n > 0 ? m.mean : nan,
    geometricMeanTrade: n > 0 ? Math.expm1(logSum / n) : nan,
    avgWin,
    avgLoss,
    bestTrade: n > 0 ? best : nan,
    worstTrade: n > 0 ? worst : nan,
    avgBarsHeld: n > 0 ? barsSum / n : nan,
    maxBarsHeld: n > 0 ? barsMax : nan,
    avgDurationMs: n > 0 ? durSum / n : nan,
    maxDurationMs: n > 0 ? durMax : nan,
    exposure,
    turnover: totalTurnover,
    sqn,
    sqnOfPnl,
    kelly,
    fees,
    funding,
  };
}
