import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { periodsPerYearOf, type AnnualisationFields, type AnnualisationOptions } from "../metrics/ReturnsOptions.js";

/** One-minute bars in a 365-day year. */
export const MINUTES_PER_YEAR = 525_600;

/** The service's realized-volatility windows, in one-minute returns. */
export const VOL_WINDOWS = Object.freeze({ "5m": 5, "1h": 60, "4h": 240, "24h": 1440 });

/** A realized-volatility window: a number of returns, or one of the service's windows over one-minute bars. */
export type VolWindow = number | keyof typeof VOL_WINDOWS;

/**
 * Rolling realized volatility, annualised, in percent.
 *
 * Definition: at bar t, the sample standard deviation (ddof = 1) of the last
 * `window` log returns ln(close_k / close_{k-1}), k = t-window+1..t, times
 * sqrt(periodsPerYear), times 100. The bar length follows the library's one
 * annualisation rule: `periodsPerYear`, or `time` to infer it (365-day year:
 * crypto trades every day); a numeric window with neither is an error. A
 * named window ("5m" ... "24h") counts one-minute returns, so it implies
 * one-minute bars: periodsPerYear = MINUTES_PER_YEAR (525 600) unless given.
 * Output has the input's length; bars with fewer than `window` returns, or
 * with a NaN, infinite or non-positive price in the window, are NaN (the
 * window recovers once the bad price has left it). Causal: bar t uses closes up
 * to t only. Reference: pandas `np.log(c).diff().rolling(w).std() * sqrt(ppy) * 100`.
 * @param close prices (any positive unit)
 * @param options.window number of returns in the window (>= 2), or "5m" | "1h" | "4h" | "24h"
 *   (5, 60, 240, 1440 one-minute returns)
 * @param options.periodsPerYear bars per year (e.g. 2190 for 4-hour bars, 365 for daily), or
 * @param options.time the closes' times (epoch ms) to infer it from
 * @throws InvalidArgumentError when window < 2, periodsPerYear <= 0, or a numeric window comes
 *   without periodsPerYear or time
 * @example realizedVol([100, 101, 100, 101], { window: 2, periodsPerYear: 1 })[3] // ≈ 1.407 (percent: 100 * sqrt(2) * ln(1.01))
 * @example realizedVol(oneMinuteCloses, { window: "24h" }) // annualised percent, 365-day year
 */
export function realizedVol(
  close: ArrayLike<number>,
  options: (AnnualisationFields & { readonly window: keyof typeof VOL_WINDOWS }) | (AnnualisationOptions & { readonly window: number }),
): Float64Array {
  const named = typeof options.window === "string" ? VOL_WINDOWS[options.window] : options.window;
  if (named === undefined) {
    throw new InvalidArgumentError(
      "window",
      `realizedVol: window must be an integer >= 2 or one of ${Object.keys(VOL_WINDOWS).join(", ")}, got ${JSON.stringify(options.window)}`,
    );
  }
  const window = named;
  if (!Number.isInteger(window) || window < 2) {
    throw new InvalidArgumentError("window", `realizedVol: window must be an integer >= 2, got ${window}`);
  }
  const oneMinute = typeof options.window === "string" && options.periodsPerYear === undefined && options.time === undefined;
  const ppy = oneMinute ? MINUTES_PER_YEAR : periodsPerYearOf(options, "realizedVol");
  const n = close.length;
  const out = new Float64Array(n).fill(Number.NaN);
  const scale = Math.sqrt(ppy) * 100;
  const ret = new Float64Array(n).fill(Number.NaN);
  for (let i = 1; i < n; i++) {
    const a = close[i - 1] as number;
    const b = close[i] as number;
    ret[i] = a > 0 && b > 0 && a < Infinity && b < Infinity ? Math.log(b / a) : Number.NaN;
  }
  // Rolling sums of returns and squared returns, re-summed from scratch every
  // 4096 bars so rounding error cannot build up over long series. O(n).
  let sum = 0;
  let sumSq = 0;
  let nanCount = 0;
  for (let t = 1; t < n; t++) {
    const r = ret[t] as number;
    if (Number.isNaN(r)) nanCount++;
    else {
      sum += r;
      sumSq += r * r;
    }
    const leaving = t - window;
    if (leaving >= 1) {
      const q = ret[leaving] as number;
      if (Number.isNaN(q)) nanCount--;
      else {
        sum -= q;
        sumSq -= q * q;
      }
    }
    if (t % 4096 === 0) {
      sum = 0;
      sumSq = 0;
      for (let k = Math.max(1, t - window + 1); k <= t; k++) {
        const q = ret[k] as number;
        if (!Number.isNaN(q)) {
          sum += q;
          sumSq += q * q;
        }
      }
    }
    if (t >= window && nanCount === 0) {
      const mean = sum / window;
      const variance = Math.max(0, (sumSq - window * mean * mean) / (window - 1));
      out[t] = Math.sqrt(variance) * scale;
    }
  }
  return out;
}
