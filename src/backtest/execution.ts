import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { checkNonNegative } from "./targetPositions.js";

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
}

/** @internal */
export interface Execution {
  readonly initialCash: number;
  readonly costBps: number;
  readonly nextOpen: boolean;
  readonly whole: boolean;
  readonly everyBar: boolean;
}

/** Validate execution options and apply their defaults. @internal */
export function resolveExecution(o: ExecutionOptions, where: string): Execution {
  const initialCash = o.initialCash ?? 10_000;
  if (typeof initialCash !== "number" || !Number.isFinite(initialCash) || initialCash <= 0) {
    throw new InvalidArgumentError("initialCash", `${where}: initialCash must be a finite amount > 0, got ${String(initialCash)}`);
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
  return {
    initialCash,
    costBps: (o.feeBps ?? 0) + (o.slippageBps ?? 0),
    nextOpen: fill === "next_open",
    whole: units === "whole",
    everyBar: rebalance === "every_bar",
  };
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

/** Throw on a price that is neither > 0 nor NaN (NaN means no price on that bar), over bars lo..hi-1 (default all). @internal */
export function checkPrices(name: string, p: ArrayLike<number>, where: string, lo = 0, hi = p.length): void {
  for (let i = lo; i < hi; i++) {
    const x = p[i] as number;
    if (typeof x !== "number" || (x === x && !(x > 0 && x < Number.POSITIVE_INFINITY))) {
      throw new InvalidArgumentError(name, `${where}: ${name} prices must be > 0 and finite (NaN for a missing bar), got ${String(x)} at bar ${i}`);
    }
  }
}
