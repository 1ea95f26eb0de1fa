import type { BacktestResult } from "./BacktestResult.js";
import type { PortfolioResult } from "./backtestPortfolio.js";

/**
 * The account's per-bar series: table name -> result field, in table order.
 * `holdings` (units of the one coin) is a one-coin result's only; a portfolio
 * holds units of several coins, so its holdings are per coin.
 */
const ACCOUNT_COLUMNS = [
  ["time", "time"],
  ["equity", "equity"],
  ["returns", "returns"],
  ["positions", "positions"],
  ["exposure", "exposure"],
  ["holdings", "holdings"],
  ["turnover", "turnover"],
  ["fees", "fees"],
  ["funding_paid", "fundingPaid"],
] as const;

/** A portfolio coin's series: column suffix -> field of its PortfolioCoinSeries, in table order. */
const COIN_COLUMNS = [
  ["position", "positions"],
  ["exposure", "exposure"],
  ["holdings", "holdings"],
] as const;

/**
 * The per-bar series of a backtest or portfolio result, by their table names: the
 * columns of `toDataFrame()`, of `toParquet(path)` and of the result fingerprint in a
 * run manifest. The account's `time, equity, returns, positions, exposure, holdings,
 * turnover, fees, funding_paid` (a portfolio has no account `holdings`), then, for a
 * portfolio, each coin's `<coin>_position, <coin>_exposure, <coin>_holdings` in the
 * order the coins were given. Reading them computes a one-coin result's secondary
 * series (one more kernel pass, see BacktestResult).
 * @example backtestColumns(backtest({ close: [1, 2], position: [1, 1] })).equity // Float64Array [1, 2]
 * @example Object.keys(backtestColumns(backtestPortfolio({ time: [0, 1], coins: { BTC: { close: [1, 2], position: [1, 1] } } }))).slice(-3) // ["BTC_position", "BTC_exposure", "BTC_holdings"]
 */
export function backtestColumns(result: BacktestResult | PortfolioResult): Record<string, Float64Array> {
  const portfolio = "coins" in result;
  const columns: Record<string, Float64Array> = {};
  for (const [name, field] of ACCOUNT_COLUMNS) {
    if (!(portfolio && field === "holdings")) columns[name] = (result as BacktestResult)[field];
  }
  if (portfolio) {
    for (const [coin, series] of Object.entries(result.coins)) {
      for (const [suffix, field] of COIN_COLUMNS) columns[`${coin}_${suffix}`] = series[field];
    }
  }
  return columns;
}
