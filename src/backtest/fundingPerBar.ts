import { checkOptionsObject } from "../errors/checkOptionsObject.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/**
 * Turn a funding rate quoted per period (hourly by default, as the API's
 * `funding` component and Hyperliquid quote it) into the per-bar rate the
 * backtest charges: `funding[i] = rate[i] x (time[i] - time[i-1]) / periodMs`,
 * the funding accrued over the bar that ends at row i (the bar a position
 * decided at close i-1 is held over). `funding[0] = 0` (no bar before it).
 * `rate[i]` should be the rate in force during that bar, e.g. the hourly rate
 * aligned as-of onto the bars. A NaN rate gives NaN (charged as 0 by the engine).
 * Units: decimal per bar; positive = longs pay.
 * @param time epoch ms of each bar, strictly ascending
 * @param rate funding rate per `periodMs`, decimal, one per bar
 * @param options.periodMs the period the rate is quoted for; default 3 600 000 (one hour)
 * @throws InvalidArgumentError on unequal lengths, a non-positive period, or options that are not an object
 * @example fundingPerBar([0, 60_000, 120_000], [0.0001, 0.0001, 0.0001]) // [0, 0.0001/60, 0.0001/60]
 */
export function fundingPerBar(time: ArrayLike<number>, rate: ArrayLike<number>, options?: { readonly periodMs?: number }): Float64Array {
  checkOptionsObject(options, "fundingPerBar", "fundingPerBar(time, rate, { periodMs: 8 * 3_600_000 })");
  const periodMs = options?.periodMs ?? 3_600_000;
  if (time.length !== rate.length) {
    throw new InvalidArgumentError("rate", `fundingPerBar: rate must have one value per bar (${time.length}), got ${rate.length}`);
  }
  if (!(periodMs > 0) || !Number.isFinite(periodMs)) {
    throw new InvalidArgumentError("periodMs", `fundingPerBar: periodMs must be a duration > 0 in ms (3600000 for an hourly rate), got ${periodMs}`);
  }
  const n = time.length;
  const out = new Float64Array(n);
  for (let i = 1; i < n; i++) {
    const dt = (time[i] as number) - (time[i - 1] as number);
    if (!(dt > 0)) {
      throw new InvalidArgumentError("time", `fundingPerBar: time must ascend strictly, got ${time[i - 1]} then ${time[i]} at bar ${i}`);
    }
    out[i] = ((rate[i] as number) * dt) / periodMs;
  }
  return out;
}
