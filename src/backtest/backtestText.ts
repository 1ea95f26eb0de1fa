import { formatNumber } from "../domain/formatNumber.js";
import { formatPercent } from "../domain/formatPercent.js";
import { formatUtc } from "../domain/formatUtc.js";
import type { KernelState } from "./kernel/KernelState.js";

/** What a backtest's printed form reads: the run's own numbers, nothing recomputed. @internal */
export interface BacktestGlance {
  /** "BacktestResult" or "PortfolioResult". */
  readonly kind: string;
  /** Bar times as given (epoch ms), or undefined when the run had none (bars are then numbered). */
  readonly time: ArrayLike<number> | undefined;
  /** Bars, and equity at the first and the last (the run's own numbers: the equity column need not exist). */
  readonly bars: number;
  readonly first: number;
  readonly last: number;
  /** The engine's final state: round trips and ruin as the kernel counted them. */
  readonly state: KernelState;
  /** Coins of a portfolio, in order. */
  readonly coins?: readonly string[];
  /** The last bar was still open when loaded (see BacktestResult.partialLastBar). */
  readonly partialLastBar?: boolean;
}

/** Bar times as a UTC range, or "bars 0 → n-1" without times. */
function span(time: ArrayLike<number> | undefined, n: number): string {
  if (n === 0) return "0 bars";
  const bars = `${formatNumber(n)} bar${n === 1 ? "" : "s"}`;
  if (time === undefined) return bars;
  return `${bars} ${formatUtc(time[0] as number)} → ${formatUtc(time[n - 1] as number)} UTC`;
}

/**
 * A backtest's printed form (what `console.log(bt)` and a notebook cell's last value
 * show instead of every series): the bars and their UTC range, equity first → last,
 * total return (last / first - 1, the sweep's `totalReturn`), round trips as the
 * kernel counted them (`bt.trades.length`), the bar of ruin if any; then where the
 * full numbers are. Nothing is recomputed: the Sharpe ratio and the drawdown are
 * metrics (src/metrics, downstream of the engine, whose backtest pass does not
 * accumulate them), which `stats(bt)` computes with the annualisation inferred
 * from the times. @internal
 * @example backtestText({ kind: "BacktestResult", time, bars: equity.length, first: equity[0], last: equity.at(-1), state })
 * // "BacktestResult: 2,880 bars 2026-10-01 00:00 → 2026-10-30 23:45 UTC\n  equity 10,000 → 10,321, total return 3.21%, 12 trades\n  ..."
 */
export function backtestText(g: BacktestGlance): string {
  const n = g.bars;
  const coins = g.coins !== undefined ? ` (${g.coins.join(", ")})` : "";
  const lines = [`${g.kind}${coins}: ${span(g.time, n)}`];
  if (n > 0) {
    const { first, last } = g;
    const trades = g.state.trades;
    lines.push(
      `  equity ${formatNumber(first)} → ${formatNumber(last)}, total return ${formatPercent(last / first - 1)}, ${formatNumber(trades)} trade${trades === 1 ? "" : "s"}`,
    );
    const ruin = g.state.ruinIndex;
    if (g.partialLastBar === true) lines.push("  the last bar was still open when loaded (partial): the last equity is marked at a provisional close");
    if (ruin >= 0) lines.push(`  ruined at bar ${ruin}${g.time !== undefined ? ` (${formatUtc(g.time[ruin] as number)} UTC)` : ""}: equity reached 0, trading stopped`);
  }
  lines.push("  show(bt) or stats(bt) for the Sharpe ratio ± SE, the drawdown and the full table; bt.toDataFrame() for the bars, bt.trades for the trades");
  return lines.join("\n");
}
