import { checkOptionsObject } from "../errors/checkOptionsObject.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { horizonBars, type Horizon } from "./horizonBars.js";

/** Options of `forwardReturns`. */
export interface ForwardReturnsOptions {
  /** Horizons: bars (positive integers) or durations ("5m", "1h", "4h", "24h", "1d") with `time`. */
  readonly horizons: readonly Horizon[];
  /** Bar times (epoch ms), needed for duration horizons like "1h". */
  readonly time?: ArrayLike<number>;
  /** Log returns ln(p_{t+h} / p_t) instead of simple returns. Default false. */
  readonly log?: boolean;
}

/**
 * Forward returns at each horizon: `close[t + h] / close[t] - 1` (or the log
 * return), one Float64Array per horizon, each the input's length, NaN for
 * the last h bars and wherever a price is NaN or not positive.
 *
 * This is the one place that looks forward, on purpose: forward returns are
 * the target a signal known at the close of bar t is evaluated against. Never
 * feed them back into a signal or a backtest.
 * @param close prices, one per bar
 * @param options.horizons bars (positive integers) or durations ("5m", "1h", "4h", "24h", "1d") with `options.time`
 * @returns a record keyed by the horizon label: the duration string as given, or "<h> bars" ("1 bar")
 * @throws InvalidArgumentError on a bad horizon, or a duration horizon without time / not a whole number of bars,
 *   or options that are not an object (the 0.1 positional `forwardReturns(close, [1])`)
 * @example forwardReturns([100, 110, 99], { horizons: [1] })["1 bar"] // Float64Array [0.1, -0.1, NaN]
 */
export function forwardReturns(
  close: ArrayLike<number>,
  options: ForwardReturnsOptions,
): Record<string, Float64Array> {
  checkOptionsObject(options, "forwardReturns", "forwardReturns(close, { horizons: [1, 12] })");
  if (close === null || typeof close !== "object" || typeof close.length !== "number") {
    throw new InvalidArgumentError("close", `forwardReturns: close must be an array or Float64Array of prices, got ${String(close)}`);
  }
  if (options?.time !== undefined && options.time.length !== close.length) {
    throw new InvalidArgumentError("time", `forwardReturns: time must have one value per price (${close.length}), got ${options.time.length}`);
  }
  const n = close.length;
  const out: Record<string, Float64Array> = {};
  for (const [label, h] of horizonBars(options?.horizons, options?.time, "forwardReturns")) {
    const f = new Float64Array(n).fill(Number.NaN);
    for (let t = 0; t + h < n; t++) {
      const a = close[t] as number;
      const b = close[t + h] as number;
      if (a > 0 && b > 0) f[t] = options?.log ? Math.log(b / a) : b / a - 1;
    }
    out[label] = f;
  }
  return out;
}
