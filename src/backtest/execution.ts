import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { acceptedPrice } from "./acceptedPrice.js";
import type { KernelSettings } from "./kernel/KernelState.js";
import type { ImpactOptions } from "./marketImpact.js";
import { settlementFunding, type FundingSchedule } from "./settlementFunding.js";
import { checkLength, checkNonNegative } from "./targetPositions.js";

/** How orders are filled and charged. Every option has a default. */
export interface ExecutionOptions {
  /** Starting cash. Default 10 000. */
  readonly initialCash?: number;
  /** Exchange fee in bps of traded notional. Default 0. */
  readonly feeBps?: number;
  /** Slippage in bps of traded notional. Default 0. */
  readonly slippageBps?: number;
  /** Quoted bid-ask spread per bar, bps; half of it is paid on traded notional (NaN carries the last value, 0 before any). */
  readonly spreadBps?: ArrayLike<number>;
  /** "next_close" (default: the target decided at close i fills at close i and is held over bar i+1) or "next_open" (fills at open i+1). */
  readonly fill?: "next_close" | "next_open";
  /** "fractional" (default) or "whole" units. */
  readonly units?: "fractional" | "whole";
  /**
   * "every_bar": reset the weight to the target at every fill, charging only the change of
   * target (docs/DESIGN.md); "on_change": hold units until the target changes, charging every unit
   * traded. Default "every_bar" with fractional units, "on_change" with whole units.
   */
  readonly rebalance?: "every_bar" | "on_change";
  /**
   * Stop-loss, a fraction of the entry fill price (> 0; 0.05 = exit a long 5% below its
   * entry, a short 5% above), checked inside each bar with `open`, `high` and `low` (see
   * intrabarExit). After the exit the position stays flat until the strategy's target
   * differs from the one in force at the exit. Default none.
   */
  readonly stopLoss?: number;
  /** Take-profit, a fraction of the entry fill price (> 0), by the same rule as stopLoss. Default none. */
  readonly takeProfit?: number;
  /** Bars between a decision and its fill (latency; an integer >= 0). Default 0. */
  readonly delayBars?: number;
  /**
   * Maintenance margin rate, a fraction of the position's notional in [0, 1): a position is
   * liquidated at the price where equity falls to it (see liquidationPrice), checked against
   * the bar's adverse extreme (low for longs, high for shorts; a gap through it fills at the
   * open). Leverage is the target weight (up to `maxLeverage`). Default none (no liquidation;
   * the account is still closed out if its equity reaches 0).
   */
  readonly maintenanceMargin?: number;
  /** Fee of a liquidation, bps of the liquidated notional, on top of the fill's usual costs. Default 0; needs maintenanceMargin. */
  readonly liquidationFeeBps?: number;
  /** Square-root market impact from volume and volatility (see ImpactOptions), reported apart from fees. Default none. */
  readonly impact?: ImpactOptions;
}

/** @internal */
export interface Execution {
  readonly initialCash: number;
  readonly costBps: number;
  readonly nextOpen: boolean;
  readonly whole: boolean;
  readonly everyBar: boolean;
  /** Exchange fee and slippage, bps (their sum is costBps), for the cost breakdown. */
  readonly feeBps: number;
  readonly slippageBps: number;
  /** Stop-loss / take-profit fractions, NaN when off. */
  readonly stopLoss: number;
  readonly takeProfit: number;
  /** Decision-to-fill latency in bars (0: none). */
  readonly delayBars: number;
  /** Maintenance margin rate, NaN when liquidation is off. */
  readonly maintenanceMargin: number;
  readonly liquidationFeeBps: number;
  /** The intrabar rule that is on ("stopLoss", "takeProfit", "maintenanceMargin"), or undefined: none. */
  readonly intrabar: "stopLoss" | "takeProfit" | "maintenanceMargin" | undefined;
}

/**
 * The largest starting cash and the largest price the engine accepts: their product (units
 * times price, equity times a return) then stays far from double overflow (1.8e308), where
 * 1e308 used to give an equity of 0 or NaN metrics without an error.
 * @internal
 */
export const MAX_AMOUNT = 1e100;

/** The longest delay between decision and fill, in bars (a hostile manifest's 2^53 used to end in an untyped RangeError). @internal */
export const MAX_DELAY_BARS = 1_000_000;

/** Validate execution options and apply their defaults. @internal */
export function resolveExecution(o: ExecutionOptions, where: string): Execution {
  const initialCash = o.initialCash ?? 10_000;
  if (typeof initialCash !== "number" || !Number.isFinite(initialCash) || initialCash <= 0 || initialCash > MAX_AMOUNT) {
    throw new InvalidArgumentError("initialCash", `${where}: initialCash must be a finite amount > 0, got ${String(initialCash)}${initialCash > MAX_AMOUNT ? `; the largest accepted is ${MAX_AMOUNT}` : ""}`);
  }
  checkNonNegative("feeBps", o.feeBps, where);
  checkNonNegative("slippageBps", o.slippageBps, where);
  const fill = o.fill ?? "next_close";
  if (fill !== "next_close" && fill !== "next_open") {
    throw new InvalidArgumentError("fill", `${where}: fill must be "next_close" or "next_open", got ${String(fill)}`);
  }
  const units = o.units ?? "fractional";
  if (units !== "fractional" && units !== "whole") {
    throw new InvalidArgumentError("units", `${where}: units must be "fractional" or "whole", got ${String(units)}`);
  }
  const rebalance = o.rebalance ?? (units === "whole" ? "on_change" : "every_bar");
  if (rebalance !== "every_bar" && rebalance !== "on_change") {
    throw new InvalidArgumentError("rebalance", `${where}: rebalance must be "every_bar" or "on_change", got ${String(rebalance)}`);
  }
  const stopLoss = checkFraction("stopLoss", o.stopLoss, where, "0.05 exits 5% beyond the entry price");
  const takeProfit = checkFraction("takeProfit", o.takeProfit, where, "0.1 exits 10% beyond the entry price");
  const delayBars = o.delayBars ?? 0;
  if (typeof delayBars !== "number" || !Number.isInteger(delayBars) || delayBars < 0 || delayBars > MAX_DELAY_BARS) {
    throw new InvalidArgumentError("delayBars", `${where}: delayBars must be an integer >= 0 (bars between decision and fill), got ${String(delayBars)}${typeof delayBars === "number" && delayBars > MAX_DELAY_BARS ? `; the largest accepted is ${MAX_DELAY_BARS}` : ""}`);
  }
  const mm = o.maintenanceMargin;
  if (mm !== undefined && (typeof mm !== "number" || !(mm >= 0 && mm < 1))) {
    throw new InvalidArgumentError("maintenanceMargin", `${where}: maintenanceMargin must be a fraction of notional in [0, 1) (0.005 = 0.5%), got ${String(mm)}`);
  }
  checkNonNegative("liquidationFeeBps", o.liquidationFeeBps, where);
  if (o.liquidationFeeBps !== undefined && mm === undefined) {
    throw new InvalidArgumentError("liquidationFeeBps", `${where}: liquidationFeeBps needs maintenanceMargin (the rule that liquidates), got liquidationFeeBps alone`);
  }
  if (o.impact !== undefined && (typeof o.impact !== "object" || o.impact === null)) {
    throw new InvalidArgumentError("impact", `${where}: impact must be { volume, coefficient?, volatility?, volatilityBars? }, got ${String(o.impact)}`);
  }
  return {
    initialCash,
    costBps: (o.feeBps ?? 0) + (o.slippageBps ?? 0),
    nextOpen: fill === "next_open",
    whole: units === "whole",
    everyBar: rebalance === "every_bar",
    feeBps: o.feeBps ?? 0,
    slippageBps: o.slippageBps ?? 0,
    stopLoss,
    takeProfit,
    delayBars,
    maintenanceMargin: mm ?? Number.NaN,
    liquidationFeeBps: o.liquidationFeeBps ?? 0,
    intrabar: o.stopLoss !== undefined ? "stopLoss" : o.takeProfit !== undefined ? "takeProfit" : mm !== undefined ? "maintenanceMargin" : undefined,
  };
}

/**
 * Throw unless the prices the intrabar rules read (open, high, low) are there and valid
 * (> 0 or NaN) when one of those rules is on. @internal
 */
export function checkIntrabarPrices(e: Execution, open: ArrayLike<number> | undefined, high: ArrayLike<number> | undefined, low: ArrayLike<number> | undefined, where: string): void {
  if (e.intrabar === undefined) return;
  for (const [name, col] of [["open", open], ["high", high], ["low", low]] as const) {
    if (col === undefined) {
      throw new InvalidArgumentError(name, `${where}: ${e.intrabar} is checked inside each bar and needs open, high and low prices (pass them, or data with those columns); ${name} is missing`);
    }
    checkPrices(name, col, where);
  }
}

/**
 * The per-bar funding column: as given (checked for length), or the column of a
 * settlement schedule (settlementFunding on the bars' times, which it requires). @internal
 */
export function fundingColumn(f: ArrayLike<number> | FundingSchedule | undefined, time: ArrayLike<number> | undefined, n: number, where: string): ArrayLike<number> | undefined {
  if (f === undefined || f === null || typeof (f as ArrayLike<number>).length === "number") {
    checkLength("funding", f as ArrayLike<number> | undefined, n, where);
    return f as ArrayLike<number> | undefined;
  }
  if (time === undefined) {
    throw new InvalidArgumentError("time", `${where}: funding settlements need time, the epoch ms of each bar's open`);
  }
  return settlementFunding(time, f as FundingSchedule, where);
}

/** A stop-loss / take-profit fraction: undefined -> NaN (off), else a finite number > 0. */
function checkFraction(name: string, v: number | undefined, where: string, hint: string): number {
  if (v === undefined) return Number.NaN;
  if (typeof v !== "number" || !Number.isFinite(v) || !(v > 0)) {
    throw new InvalidArgumentError(name, `${where}: ${name} must be a fraction of the entry price > 0 (${hint}), got ${String(v)}`);
  }
  return v;
}

/**
 * The kernel's settings for a run of n bars under these execution options, for a run that
 * reads its per-bar series (backtest, backtestPortfolio): no accumulators. @internal
 */
export function kernelSettings(e: Execution, n: number): KernelSettings {
  return settingsOf({ ...e, n, accumulate: false, checkClose: undefined });
}

/**
 * `s` with the close check's `where` (a fused pass: KernelSettings.checkClose), built as every run's settings are. @internal
 */
export function withCheckClose(s: KernelSettings, where: string): KernelSettings {
  return settingsOf({ ...s, checkClose: where });
}

/** KernelSettings with every key required (a value may still be undefined): settingsOf's literal must write them all. */
type EveryField = { readonly [K in keyof KernelSettings]-?: KernelSettings[K] };

/**
 * Every run's settings object, built by this one literal with every field of KernelSettings written (a field added
 * there must be added here; none left out), so that V8
 * gives all of them one hidden class: a copy made by a spread (`{ ...settings, checkClose }`) that added a field got
 * a class of its own on every call from about a process's 22nd, and runVariants' optimised code was thrown away
 * there (test/backtest/settingsMap.test.ts). EveryField makes a field left out a compile error.
 */
function settingsOf(s: KernelSettings): KernelSettings {
  const every: EveryField = {
    n: s.n,
    initialCash: s.initialCash,
    costBps: s.costBps,
    nextOpen: s.nextOpen,
    whole: s.whole,
    everyBar: s.everyBar,
    stopLoss: s.stopLoss,
    takeProfit: s.takeProfit,
    maintenanceMargin: s.maintenanceMargin,
    liquidationFeeBps: s.liquidationFeeBps,
    accumulate: s.accumulate,
    checkClose: s.checkClose,
  };
  return every;
}

/** Throw unless time is finite and strictly ascending. @internal */
export function checkExecution(time: ArrayLike<number>, where: string): void {
  for (let i = 0; i < time.length; i++) {
    const t = time[i] as number;
    if (!Number.isFinite(t)) {
      throw new InvalidArgumentError("time", `${where}: time must be finite epoch milliseconds, got ${t} at bar ${i}`);
    }
    if (i > 0 && !(t > (time[i - 1] as number))) {
      throw new InvalidArgumentError("time", `${where}: time must ascend strictly, got ${time[i - 1]} then ${t} at bar ${i} (sort and de-duplicate first)`);
    }
  }
}

/**
 * Throw on a price the engine does not accept (acceptedPrice: > 0 and at most MAX_AMOUNT, or NaN for no price on
 * that bar), over bars lo..hi-1 (default all). (A fused backtest of a Float64Array of closes makes the same check in
 * its generated loop instead, as it reads each close: LoopShape.checkClose.)
 * A typed array holds numbers only, so its run of finite positive prices is skipped by a tight scan (half the time
 * of the full test per price at 2e6 bars) and the rule tests only where the scan stops (a NaN, or a bad price).
 * @internal
 */
export function checkPrices(name: string, p: ArrayLike<number>, where: string, lo = 0, hi = p.length): void {
  const typed = ArrayBuffer.isView(p);
  for (let i = lo; i < hi; i++) {
    if (typed) {
      while (i < hi && (p[i] as number) > 0 && (p[i] as number) <= MAX_AMOUNT) i++;
      if (i === hi) return;
    }
    const x = p[i] as number;
    if (typeof x !== "number" || !acceptedPrice(x, MAX_AMOUNT)) {
      throw new InvalidArgumentError(name, `${where}: ${name} prices must be > 0 and finite (NaN for a missing bar), got ${String(x)} at bar ${i}; the largest price accepted is ${MAX_AMOUNT}`);
    }
  }
}
