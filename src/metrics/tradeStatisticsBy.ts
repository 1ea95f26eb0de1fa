import type { Trade } from "../backtest/Trade.js";
import { checkOptionsObject } from "../errors/checkOptionsObject.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { metricsTable, type MetricsTable } from "./MetricsTable.js";
import { tradeStatistics, type TradeStatistics } from "./tradeStatistics.js";

const NUMERIC: readonly (keyof TradeStatistics)[] = [
  "trades",
  "openTrades",
  "winRate",
  "profitFactor",
  "expectancy",
  "avgTrade",
  "avgWin",
  "avgLoss",
  "bestTrade",
  "worstTrade",
  "avgBarsHeld",
  "maxBarsHeld",
  "sqn",
  "kelly",
  "fees",
  "funding",
];

/**
 * Trade statistics per coin or per side, as a table: one row for all trades,
 * then one per group (sorted by name), with the `tradeStatistics` columns
 * (trades, openTrades, winRate, profitFactor, expectancy, avgTrade, avgWin,
 * avgLoss, bestTrade, worstTrade, avgBarsHeld, maxBarsHeld, sqn, kelly,
 * fees, funding). Trades without a coin are grouped under "".
 * @param options.by "coin" (default; for a portfolio backtest) or "side" (long / short)
 * @param options.includeOpen count open trades too (see tradeStatistics)
 * @throws InvalidArgumentError on a bad `by`, a non-array trades, or options that are not an object
 * @example tradeStatisticsBy(portfolio.trades, { by: "coin" }).toDataFrame()
 */
export function tradeStatisticsBy(
  trades: readonly Trade[],
  options: { readonly by?: "coin" | "side"; readonly includeOpen?: boolean } = {},
): MetricsTable {
  checkOptionsObject(options, "tradeStatisticsBy", 'tradeStatisticsBy(trades, { by: "side" })');
  const by = options.by ?? "coin";
  if (!Array.isArray(trades)) {
    throw new InvalidArgumentError("trades", `tradeStatisticsBy: trades must be an array of Trade, got ${String(trades)}`);
  }
  if (by !== "coin" && by !== "side") {
    throw new InvalidArgumentError("by", `tradeStatisticsBy: by must be "coin" or "side", got ${String(by)}`);
  }
  const groups = new Map<string, Trade[]>();
  for (const t of trades) {
    const key = by === "coin" ? (t.coin ?? "") : t.side;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(t);
  }
  const names = [...groups.keys()].sort();
  const statOptions = options.includeOpen !== undefined ? { includeOpen: options.includeOpen } : {};
  const stats = [tradeStatistics(trades, statOptions), ...names.map((k) => tradeStatistics(groups.get(k) as Trade[], statOptions))];
  const columns: Record<string, Float64Array | readonly string[]> = { [by]: ["all", ...names] };
  for (const key of NUMERIC) columns[key] = Float64Array.from(stats, (s) => s[key]);
  return metricsTable(columns);
}
