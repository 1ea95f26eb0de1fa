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
 * column holds): `funding[i]` = sum of the rates of the settlements s with
 * `time[i-1] < s <= time[i]`, the bar over which the position decided at close i-1 is
 * held, so each settlement charges the position held at that instant, once
 * (`time` read as the instant of each bar's close; a settlement exactly at a close
 * charges the position held into that close). `funding[0] = 0` (no bar before it:
 * settlements at or before time[0] are not charged). Bars without a settlement get 0.
 * A NaN rate gives NaN (the engine charges it as 0).
 * Units: decimal per bar; positive = longs pay.
 * @param time epoch ms of each bar's close, strictly ascending
 * @throws InvalidArgumentError on a schedule that is not one of the two forms, a non-positive
 *   or non-finite interval, non-finite or unsorted settlement times, or a rate array of the wrong length
 * @example settlementFunding([0, 1800_000, 3_600_000, 5_400_000], { rate: 0.0001, intervalMs: 3_600_000 })
 * // [0, 0, 0.0001, 0]: the settlement at 01:00 falls in the bar ending at 01:00
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
  if ("intervalMs" in schedule) {
    const dt = schedule.intervalMs;
    if (typeof dt !== "number" || !(dt > 0) || !Number.isFinite(dt)) {
      throw new InvalidArgumentError("funding.intervalMs", `${where}: funding.intervalMs must be a duration > 0 in ms (3600000 for hourly settlements), got ${String(dt)}`);
    }
    if (perItem && (rate as ArrayLike<number>).length !== n) {
      throw new InvalidArgumentError("funding.rate", `${where}: funding.rate with intervalMs must be one number, or one per bar (${n}), got ${(rate as ArrayLike<number>).length}`);
    }
    for (let i = 1; i < n; i++) {
      // Settlements k dt in (time[i-1], time[i]]: k from floor(time[i-1]/dt)+1 to floor(time[i]/dt).
      const count = Math.floor((time[i] as number) / dt) - Math.floor((time[i - 1] as number) / dt);
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
    if (n === 0 || s <= (time[0] as number)) continue;
    while (i < n && (time[i] as number) < s) i++;
    if (i === n) break;
    out[i] = (out[i] as number) + (perItem ? ((rate as ArrayLike<number>)[k] as number) : (rate as number));
  }
  return out;
}
