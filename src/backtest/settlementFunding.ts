import { medianSpacing } from "../data/medianSpacing.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/**
 * Funding paid at discrete settlements, as perpetual-futures exchanges charge it:
 * every `intervalMs` from the epoch (3 600 000: hourly, as Hyperliquid; 28 800 000:
 * 00:00, 08:00, 16:00 UTC, as Binance), or at the given settlement `times`.
 * `rate` is the decimal rate of one settlement (positive = longs pay): one number for
 * every settlement, or an array: one per bar (the rate in force at the bar holding the
 * settlement, e.g. aligned as-of) with `intervalMs`, one per settlement with `times`.
 */
export type FundingSchedule =
  | { readonly rate: number | ArrayLike<number>; readonly intervalMs: number }
  | { readonly rate: number | ArrayLike<number>; readonly times: ArrayLike<number> };

/**
 * The per-bar funding column of a settlement schedule (what the backtest's `funding`
 * column holds). Bars are stamped at their open (docs/DESIGN.md: a bar stamped t covers
 * [t, t + interval), its close is at t + interval, the interval being the median spacing
 * of `time`). The rule: a settlement at instant s is paid once, by the position held over
 * the bar with t < s <= t + interval, the position decided at the previous close (held
 * into the settlement it pays; opened at it, it does not). So `funding[i]` = sum of the
 * rates of the settlements s with `close[i-1] < s <= close[i]`, `close[i] = time[i] + interval`
 * (a gap of missing bars: its settlements fall to the bar after it, whose position is held
 * through the gap). `funding[0] = 0`: no position is held over bar 0, so settlements at or
 * before its close are not charged; nor are those after the last bar's close. Bars
 * without a settlement get 0. A NaN rate gives NaN (the engine charges it as 0).
 * Units: decimal per bar; positive = longs pay.
 * @param time epoch ms of each bar's open, strictly ascending
 * @throws InvalidArgumentError on a schedule that is not one of the two forms, a non-positive
 *   or non-finite interval, non-finite or unsorted settlement times, or a rate array of the wrong length
 * @example
 * // 4-hour bars stamped 00:00, 04:00, 08:00, 12:00 UTC (closing 04:00 .. 16:00), settlements every 8 hours:
 * // 08:00 is paid over the bar 04:00-08:00 (held into it), 16:00 over the bar 12:00-16:00
 * const h = 3_600_000;
 * settlementFunding([0, 4 * h, 8 * h, 12 * h], { rate: 0.0001, intervalMs: 8 * h }) // [0, 0.0001, 0, 0.0001]
 */
export function settlementFunding(time: ArrayLike<number>, schedule: FundingSchedule, where = "settlementFunding"): Float64Array {
  const n = time.length;
  const out = new Float64Array(n);
  if (typeof schedule !== "object" || schedule === null) {
    throw new InvalidArgumentError("funding", `${where}: funding must be a per-bar column or a schedule { rate, intervalMs } / { rate, times }, got ${String(schedule)}`);
  }
  const rate = schedule.rate;
  const perItem = typeof rate !== "number";
  if (perItem && (rate === null || typeof rate !== "object" || typeof (rate as ArrayLike<number>).length !== "number")) {
    throw new InvalidArgumentError("funding.rate", `${where}: funding.rate must be a decimal rate per settlement or an array of them, got ${String(rate)}`);
  }
  const interval = n >= 2 ? medianSpacing(time) : 0;
  if (!(interval >= 0) || !Number.isFinite(interval) || (n >= 2 && interval === 0)) {
    throw new InvalidArgumentError("time", `${where}: funding settlements need bar times in strictly ascending epoch ms (each bar's open), got a median spacing of ${interval} ms`);
  }
  if ("intervalMs" in schedule) {
    const dt = schedule.intervalMs;
    if (typeof dt !== "number" || !(dt > 0) || !Number.isFinite(dt)) {
      throw new InvalidArgumentError("funding.intervalMs", `${where}: funding.intervalMs must be a duration > 0 in ms (3600000 for hourly settlements), got ${String(dt)}`);
    }
    if (perItem && (rate as ArrayLike<number>).length !== n) {
      throw new InvalidArgumentError("funding.rate", `${where}: funding.rate with intervalMs must be one number, or one per bar (${n}), got ${(rate as ArrayLike<number>).length}`);
    }
    for (let i = 1; i < n; i++) {
      // Settlements k dt in (close[i-1], close[i]]: k from floor(close[i-1]/dt)+1 to floor(close[i]/dt).
      const count = Math.floor(((time[i] as number) + interval) / dt) - Math.floor(((time[i - 1] as number) + interval) / dt);
      if (count > 0) out[i] = count * (perItem ? ((rate as ArrayLike<number>)[i] as number) : rate);
    }
    return out;
  }
  if (!("times" in schedule)) {
    throw new InvalidArgumentError("funding", `${where}: funding schedule needs intervalMs (every interval from the epoch) or times (settlement instants), got neither`);
  }
  const times = schedule.times;
  if (times === null || typeof times !== "object" || typeof times.length !== "number") {
    throw new InvalidArgumentError("funding.times", `${where}: funding.times must be an array of epoch ms, got ${String(times)}`);
  }
  if (perItem && (rate as ArrayLike<number>).length !== times.length) {
    throw new InvalidArgumentError("funding.rate", `${where}: funding.rate with times must be one number, or one per settlement (${times.length}), got ${(rate as ArrayLike<number>).length}`);
  }
  let i = 1;
  for (let k = 0; k < times.length; k++) {
    const s = times[k] as number;
    if (!Number.isFinite(s) || (k > 0 && !(s > (times[k - 1] as number)))) {
      throw new InvalidArgumentError("funding.times", `${where}: funding.times must be finite epoch ms in strictly ascending order, got ${String(s)} at ${k}`);
    }
    if (n === 0 || s <= (time[0] as number) + interval) continue;
    while (i < n && (time[i] as number) + interval < s) i++;
    if (i === n) break;
    out[i] = (out[i] as number) + (perItem ? ((rate as ArrayLike<number>)[k] as number) : (rate as number));
  }
  return out;
}
