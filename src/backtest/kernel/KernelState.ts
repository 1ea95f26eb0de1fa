import type { TradeLog } from "../TradeLog.js";

/** How the kernel fills and charges: resolved execution options (see ExecutionOptions). @internal */
export interface KernelSettings {
  /** Number of bars of the whole run (the decision at bar n-1 is never filled under next_close). */
  readonly n: number;
  readonly initialCash: number;
  /** Fee + slippage, in bps of traded notional. */
  readonly costBps: number;
  /** Fill at the next bar's open instead of at the decision's close. */
  readonly nextOpen: boolean;
  /** Whole units instead of fractional. */
  readonly whole: boolean;
  /** Reset the weight to the target at every fill (charged on |w_i - w_{i-1}|) instead of on change only. */
  readonly everyBar: boolean;
  /** Stop-loss and take-profit, fractions of the entry price (absent or NaN: off); need open, high, low on every coin. */
  readonly stopLoss?: number | undefined;
  readonly takeProfit?: number | undefined;
  /** Maintenance margin rate (absent or NaN: no liquidation) and the liquidation fee in bps. */
  readonly maintenanceMargin?: number | undefined;
  readonly liquidationFeeBps?: number | undefined;
  /**
   * Keep the run's accumulators (sums of the returns and of their squares, maximum
   * drawdown, exposure sums). Default true; a run that reads only its per-bar series
   * (backtest, backtestPortfolio) turns them off and skips their divisions.
   */
  readonly accumulate?: boolean | undefined;
  /**
   * Check each close as the loop reads it (acceptedPrice), throwing checkPrices' error in the name of
   * this function at the first one refused, instead of a pass over the closes before the run (one
   * coin, a Float64Array of closes: what runPass sets for a fused backtest). Absent: not checked here.
   */
  readonly checkClose?: string | undefined;
}

/**
 * Everything the simulation kernel carries from one bar to the next: the
 * account (cash, equity), each coin's book (units, reference price, held
 * weight, last spread, open-trade ledger) and the run's accumulators. A run
 * may be split into blocks of bars at any point: `runKernel` over [0, a) then
 * [a, n) gives the same numbers as over [0, n) in one call.
 *
 * Accumulators (read them when the run is done; all but `equity`, `trades` and `turnover`
 * only when `settings.accumulate` is not false): `equity` (the final equity
 * once bar n-1 is processed), `sumReturns` and `sumSquaredReturns` of the
 * per-bar simple returns of bars 1..n-1 (0 on an unchanged bar, as `returns`),
 * `maxDrawdown` (min over bars of equity / running peak - 1, a negative decimal
 * or 0, as src/metrics' maxDrawdown), `trades` (round trips opened),
 * `turnover` (sum of per-bar turnover, fractions of equity), `netExposure` and
 * `grossExposure` (sums over bars of the net and gross weight held at each close).
 * @internal
 */
export class KernelState {
  /** Next bar to process. */
  next = 0;
  /**
   * The account value at the reference prices (cash plus every coin's units at its
   * reference price), in a one-slot typed array (a double in a typed array is stored in
   * place; an object field may box it). Every event moves it by what that event is worth:
   * a mark by units x price change, funding by what was paid, a fill by its fee (units
   * change hands at the reference price), an exit by its price change and fee. The loop of
   * runKernel keeps it in a local and writes it here around the rules it calls.
   */
  readonly value: Float64Array;
  /**
   * The account's running numbers, [equity, peak, maxDrawdown, sumReturns,
   * sumSquaredReturns, turnover, netExposure, grossExposure] (see the getters): in a
   * typed array so the kernel's loop reads them as doubles (a field that ever held
   * another type would make its loop variables boxed, one allocation per bar).
   */
  readonly sums: Float64Array;
  /** First bar at which equity was <= 0 (trading stopped), or -1. */
  ruinIndex = -1;
  /** Round trips opened. */
  trades = 0;
  /**
   * Bars of the run (settings.n), on the state itself so the generated loop reads no field of the
   * settings object: its map varies between callers (object spreads), and a new one seen after
   * the loop was optimised deoptimised it (code dependencies on KernelState.settings' field type).
   */
  readonly bars: number;
  // per-coin book
  /** Units held. */
  readonly units: Float64Array;
  /** Reference price: the last finite fill or mark price (NaN before any). */
  readonly last: Float64Array;
  /** Last executed target weight. */
  readonly held: Float64Array;
  /** Last known quoted spread, bps. */
  readonly spread: Float64Array;
  /** Target decided at the last processed close (filled at the next open under next_open). */
  readonly pending: Float64Array;
  // open-trade ledger per coin
  readonly side: Int8Array;
  readonly entryIndex: Int32Array;
  readonly entryPrice: Float64Array;
  readonly entryNotional: Float64Array;
  readonly maxUnits: Float64Array;
  /** Mark-to-market P&L of the open trade before costs. */
  readonly tradePnl: Float64Array;
  readonly tradeFees: Float64Array;
  readonly tradeFunding: Float64Array;
  /** Of the open trade's fees: the half-spread, the market impact and the liquidation fee paid (the cost breakdown). */
  readonly tradeSpread: Float64Array;
  readonly tradeImpact: Float64Array;
  readonly tradeLiquidationFee: Float64Array;
  // intrabar exits
  /** 1 after a stop, take-profit or liquidation exit, until the target differs from `exitTarget`. */
  readonly stopped: Uint8Array;
  /** The target in force at that exit. */
  readonly exitTarget: Float64Array;
  /**
   * Scratch of the fill rule: at [0] the cost rate (costRate), at [1] and [2] the half-spread
   * and impact parts of the last fill's fee (a double passed to or returned from a call the
   * JIT does not inline would be a new heap number).
   */
  readonly fillArgs: Float64Array = new Float64Array(3);
  /** Base cost rate, (fee + slippage) / 1e4. */
  readonly baseRate: number;
  /** Any intrabar rule on (stop-loss, take-profit, liquidation): the kernel runs exitsInBar. */
  readonly exits: boolean;
  /** The execution modes and whether to accumulate (see KernelSettings): they pick the compiled span loop (runKernel's spanLoopFor) and are read by the rules. */
  readonly accumulate: boolean;
  readonly nextOpen: boolean;
  readonly whole: boolean;
  readonly everyBar: boolean;
  /** Fractional units rebalanced every bar: a fill's cost is on |w - w_prev| x account value. */
  readonly byWeight: boolean;
  /** Stop-loss and take-profit fractions, maintenance margin rate (NaN: off), liquidation fee rate (bps / 1e4). */
  readonly stopLoss: number;
  readonly takeProfit: number;
  readonly maintenanceMargin: number;
  readonly liquidationRate: number;

  /**
   * @param coins number of instruments sharing the account
   * @param settings the run's execution settings
   * @param log where round trips are recorded (undefined: counted only)
   */
  constructor(
    coins: number,
    readonly settings: KernelSettings,
    readonly log: TradeLog | undefined,
  ) {
    this.bars = settings.n;
    this.value = Float64Array.of(settings.initialCash);
    this.sums = Float64Array.of(settings.initialCash, settings.initialCash, 0, 0, 0, 0, 0, 0);
    this.baseRate = settings.costBps / 1e4;
    this.units = new Float64Array(coins);
    this.last = new Float64Array(coins).fill(Number.NaN);
    this.held = new Float64Array(coins);
    this.spread = new Float64Array(coins);
    this.pending = new Float64Array(coins);
    this.side = new Int8Array(coins);
    this.entryIndex = new Int32Array(coins);
    this.entryPrice = new Float64Array(coins);
    this.entryNotional = new Float64Array(coins);
    this.maxUnits = new Float64Array(coins);
    this.tradePnl = new Float64Array(coins);
    this.tradeFees = new Float64Array(coins);
    this.tradeFunding = new Float64Array(coins);
    this.tradeSpread = new Float64Array(coins);
    this.tradeImpact = new Float64Array(coins);
    this.tradeLiquidationFee = new Float64Array(coins);
    this.stopped = new Uint8Array(coins);
    this.exitTarget = new Float64Array(coins);
    this.stopLoss = settings.stopLoss ?? Number.NaN;
    this.takeProfit = settings.takeProfit ?? Number.NaN;
    this.maintenanceMargin = settings.maintenanceMargin ?? Number.NaN;
    this.liquidationRate = (settings.liquidationFeeBps ?? 0) / 1e4;
    this.exits = this.stopLoss === this.stopLoss || this.takeProfit === this.takeProfit || this.maintenanceMargin === this.maintenanceMargin;
    this.accumulate = settings.accumulate ?? true;
    this.nextOpen = settings.nextOpen;
    this.whole = settings.whole;
    this.everyBar = settings.everyBar;
    this.byWeight = !settings.whole && settings.everyBar;
  }

  /** Account value at the last processed close (the final equity once bar n-1 is processed). */
  get equity(): number {
    return this.sums[0] as number;
  }
  /** Highest equity so far. */
  get peak(): number {
    return this.sums[1] as number;
  }
  /** min over bars of equity / running peak - 1 (a negative decimal, or 0). */
  get maxDrawdown(): number {
    return this.sums[2] as number;
  }
  /** Sum of the per-bar simple returns of bars 1..next-1. */
  get sumReturns(): number {
    return this.sums[3] as number;
  }
  /** Sum of their squares. */
  get sumSquaredReturns(): number {
    return this.sums[4] as number;
  }
  /** Sum of per-bar turnover (fractions of equity). */
  get turnover(): number {
    return this.sums[5] as number;
  }
  /** Sum over bars of the net weight held at each close. */
  get netExposure(): number {
    return this.sums[6] as number;
  }
  /** Sum over bars of the gross weight held at each close. */
  get grossExposure(): number {
    return this.sums[7] as number;
  }
}
