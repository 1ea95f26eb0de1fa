import type { ExitReason, Trade } from "./Trade.js";

/** Exit reasons by code, as the engine records them (0 signal, 1 stop, 2 take_profit, 3 liquidation; an open trade is "end"). */
const REASONS: readonly ExitReason[] = ["signal", "stop", "take_profit", "liquidation"];

/** Numbers per trade in the ledger. */
const W = 10; // entryPrice, exitPrice, units, entryNotional, grossPnl, fees, funding, spread, impact, liquidationFee

/**
 * The engine's trade ledger, recorded column by column in growable typed
 * arrays so the simulation loop allocates no objects; Trade objects are built
 * from it only when asked for (`toTrades`).
 * @internal
 */
export class TradeLog {
  length = 0;
  private coin = new Int32Array(16);
  private side = new Int8Array(16);
  private reason = new Int8Array(16);
  private entryIndex = new Int32Array(16);
  private exitIndex = new Int32Array(16);
  private open = new Uint8Array(16);
  private num = new Float64Array(16 * W);

  /**
   * @param feeBps exchange fee and @param slippageBps slippage of the run, bps: the trading
   *   cost that is neither spread, impact nor liquidation fee is split between them in this ratio
   */
  constructor(
    private readonly feeBps = 0,
    private readonly slippageBps = 0,
  ) {}

  /**
   * Record one round trip (grossPnl = mark-to-market P&L before costs; fees = everything paid
   * to trade, of which spread, impact and liquidationFee; reason: see REASONS).
   */
  record(
    coin: number,
    side: number,
    entryIndex: number,
    exitIndex: number,
    entryPrice: number,
    exitPrice: number,
    units: number,
    entryNotional: number,
    grossPnl: number,
    fees: number,
    funding: number,
    open: boolean,
    reason = 0,
    spread = 0,
    impact = 0,
    liquidationFee = 0,
  ): void {
    const k = this.length;
    if (k === this.side.length) this.grow();
    this.coin[k] = coin;
    this.side[k] = side;
    this.reason[k] = reason;
    this.entryIndex[k] = entryIndex;
    this.exitIndex[k] = exitIndex;
    this.open[k] = open ? 1 : 0;
    const j = W * k;
    const num = this.num;
    num[j] = entryPrice;
    num[j + 1] = exitPrice;
    num[j + 2] = units;
    num[j + 3] = entryNotional;
    num[j + 4] = grossPnl;
    num[j + 5] = fees;
    num[j + 6] = funding;
    num[j + 7] = spread;
    num[j + 8] = impact;
    num[j + 9] = liquidationFee;
    this.length = k + 1;
  }

  /**
   * Add `amount` to the P&L of the last trade recorded (the engine's loss cap: a shortfall the
   * account cannot pay, booked to the trade whose close caused it, so the trades' P&L still sums
   * to the change in equity). Returns whether it was booked (false: no trade recorded).
   */
  bookShortfall(amount: number): boolean {
    const k = this.length - 1;
    if (k < 0) return false;
    this.num[W * k + 4] = (this.num[W * k + 4] as number) + amount;
    return true;
  }

  private grow(): void {
    const cap = this.side.length * 2;
    const more = <T extends Int32Array | Int8Array | Uint8Array | Float64Array>(a: T, size: number): T => {
      const b = new (a.constructor as new (n: number) => T)(size);
      b.set(a);
      return b;
    };
    this.coin = more(this.coin, cap);
    this.side = more(this.side, cap);
    this.reason = more(this.reason, cap);
    this.entryIndex = more(this.entryIndex, cap);
    this.exitIndex = more(this.exitIndex, cap);
    this.open = more(this.open, cap);
    this.num = more(this.num, cap * W);
  }

  /** The trades as objects, in entry order (then exit order); `names[coin]` names each coin (undefined: no name). */
  toTrades(time: ArrayLike<number>, names: readonly (string | undefined)[]): Trade[] {
    const order = Array.from({ length: this.length }, (_, k) => k);
    order.sort((a, b) => (this.entryIndex[a] as number) - (this.entryIndex[b] as number) || (this.exitIndex[a] as number) - (this.exitIndex[b] as number) || a - b);
    const bps = this.feeBps + this.slippageBps;
    const feeShare = bps > 0 ? this.feeBps / bps : 1;
    return order.map((k) => {
      const j = W * k;
      const num = this.num;
      const side = this.side[k] as number;
      const entryIndex = this.entryIndex[k] as number;
      const exitIndex = this.exitIndex[k] as number;
      const entryPrice = num[j] as number;
      const exitPrice = num[j + 1] as number;
      const entryNotional = num[j + 3] as number;
      const fees = num[j + 5] as number;
      const funding = num[j + 6] as number;
      const spread = num[j + 7] as number;
      const impact = num[j + 8] as number;
      const liquidationFee = num[j + 9] as number;
      // What is neither spread, impact nor liquidation fee is fee + slippage, in the ratio of their bps.
      const base = fees - spread - impact - liquidationFee;
      const pnl = (num[j + 4] as number) - fees - funding;
      const isOpen = this.open[k] === 1;
      const trade: Trade = {
        side: side > 0 ? "long" : "short",
        entryIndex,
        exitIndex,
        entryTime: time[entryIndex] as number,
        exitTime: time[exitIndex] as number,
        entryPrice,
        exitPrice,
        units: num[j + 2] as number,
        return: side * (exitPrice / entryPrice - 1),
        netReturn: entryNotional > 0 ? pnl / entryNotional : Number.NaN,
        pnl,
        barsHeld: exitIndex - entryIndex,
        fees,
        funding,
        open: isOpen,
        reason: isOpen ? "end" : (REASONS[this.reason[k] as number] as ExitReason),
        costs: { fees: base * feeShare + liquidationFee, slippage: base * (1 - feeShare), spread, impact, funding },
      };
      const coin = names[this.coin[k] as number];
      return coin === undefined ? trade : { coin, ...trade };
    });
  }
}
