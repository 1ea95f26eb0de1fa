import { backtest, type BacktestOptions } from "../backtest/backtest.js";
import { BOOKED_FIELDS } from "./PaperAccount.js";
import type { LedgerRow } from "./PaperLedger.js";

/** The first place a paper ledger and the backtest of its bars differ. */
export interface LedgerDifference {
  readonly bar: number;
  readonly time: number;
  /** The booked field (`equity`, `fees`, `target`, ...). */
  readonly field: string;
  readonly ledger: number;
  readonly backtest: number;
}

/** What {@link PaperTrader.reconcile} found. */
export interface Reconciliation {
  /** True when every compared number is the same double (Object.is: bit for bit, -0 apart from 0). */
  readonly equal: boolean;
  /** Bars compared. */
  readonly bars: number;
  /** Numbers compared. */
  readonly compared: number;
  /** The first difference, by bar then field (undefined when equal). */
  readonly first: LedgerDifference | undefined;
}

/** The series a backtest result holds for each booked field (`target` is its `positions`). */
const RESULT_FIELD = { target: "positions", equity: "equity", returns: "returns", holdings: "holdings", exposure: "exposure", turnover: "turnover", fees: "fees", fundingPaid: "fundingPaid" } as const;
/** What the fill at a bar's close moves: a backtest of m bars never fills its last decision, the ledger does. */
const FILLED_AT_CLOSE = new Set<string>(["holdings", "exposure", "turnover", "fees"]);

/**
 * Compare a paper ledger with `backtest` run over its bars with the same strategy and options
 * (`options`: the strategy's backtest options over every recorded bar), bit for bit, bar by bar:
 * every booked series (equity, returns, holdings, exposure, turnover, fees, funding paid) and the
 * target (the backtest's `positions`, compared when there is no `delayBars`). Under fill
 * "next_close" the last bar's fill is not in a backtest of those bars (it fills no decision at its
 * last bar), so that bar compares its target, equity, returns and funding only.
 * @internal
 */
export function reconcileLedger(rows: readonly LedgerRow[], options: BacktestOptions): Reconciliation {
  const m = rows.length;
  if (m === 0) return { equal: true, bars: 0, compared: 0, first: undefined };
  const r = backtest({ ...options, outputs: ["equity", "returns", "positions", "exposure", "holdings", "turnover", "fees", "fundingPaid"] });
  const nextClose = (options.fill ?? "next_close") === "next_close";
  const delayed = (options.delayBars ?? 0) > 0;
  let compared = 0;
  for (let i = 0; i < m; i++) {
    const row = rows[i] as LedgerRow;
    for (const f of BOOKED_FIELDS) {
      if (f === "target" && delayed) continue;
      if (i === m - 1 && nextClose && FILLED_AT_CLOSE.has(f)) continue;
      const want = (r[RESULT_FIELD[f]] as Float64Array)[i] as number;
      compared++;
      if (!Object.is(row[f], want)) return { equal: false, bars: m, compared, first: { bar: i, time: row.time, field: f, ledger: row[f], backtest: want } };
    }
  }
  return { equal: true, bars: m, compared, first: undefined };
}
