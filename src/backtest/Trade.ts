import type { CostBreakdown } from "./CostBreakdown.js";

/**
 * Why a trade closed: `signal` (the strategy's target), `stop` (stop-loss), `take_profit`,
 * `liquidation` (equity reached the maintenance margin, or the account was ruined), `end`
 * (still open at the last bar).
 */
export type ExitReason = "signal" | "stop" | "take_profit" | "liquidation" | "end";

/**
 * One round trip of a backtest: opened when the position leaves 0 (or flips
 * sign), closed when it returns to 0 or flips. Metrics' trade statistics read
 * `return`, `pnl` and `barsHeld`.
 */
export interface Trade {
  /** Coin (or instrument) name, when the backtest was given one. */
  readonly coin?: string;
  readonly side: "long" | "short";
  /** Bar index of the entry fill and of the exit fill (the last bar for an open trade). */
  readonly entryIndex: number;
  readonly exitIndex: number;
  /** Epoch ms of the entry and exit fills. */
  readonly entryTime: number;
  readonly exitTime: number;
  /** Fill prices (an open trade is marked at the last close). */
  readonly entryPrice: number;
  readonly exitPrice: number;
  /** Units held (coins; the largest absolute holding when the size changed during the trade). */
  readonly units: number;
  /**
   * Price return of the trade, before fees and funding: sign x (exitPrice / entryPrice - 1)
   * (+1 long, -1 short). This is the compounded return of its bars for a constant-units
   * trade; when the size changed during the trade, see `pnl` and `netReturn`.
   */
  readonly return: number;
  /**
   * Net return on the entry notional: pnl / (|units at entry| x entry price), after fees and
   * funding. Set by the engine; optional so that hand-made trades need not carry it.
   */
  readonly netReturn?: number;
  /** Profit and loss in cash, after the fees and funding of the trade. */
  readonly pnl: number;
  /** Bars the position was held. */
  readonly barsHeld: number;
  /** Fees and slippage paid, in cash (positive = paid). */
  readonly fees: number;
  /** Funding paid, in cash (positive = paid, negative = received). */
  readonly funding: number;
  /** True when the trade was still open at the last bar (marked to the last close). */
  readonly open: boolean;
  /** Why it closed. Set by the engine; optional so that hand-made trades need not carry it. */
  readonly reason?: ExitReason;
  /** Its costs by kind (see {@link CostBreakdown}). Set by the engine; optional like `reason`. */
  readonly costs?: CostBreakdown;
}
