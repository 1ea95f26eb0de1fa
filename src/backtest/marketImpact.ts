import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { realizedVol } from "../signals/realizedVol.js";

/**
 * Market impact by the square-root law (Almgren et al. 2005; Bouchaud, "Trades, Quotes and
 * Prices", 2018, ch. 12): trading Q coins moves the price against the trade by the fraction
 * `coefficient x sigma x sqrt(Q / V)`, sigma the volatility and V the volume over the same
 * horizon. Measured per bar, it does not depend on the bar size: with m bars a day,
 * sigma_day sqrt(Q / V_day) = sigma_bar sqrt(m) sqrt(Q / (m V_bar)) = sigma_bar sqrt(Q / V_bar).
 */
export interface ImpactOptions {
  /** Volume traded in each bar, in coins (base units), one per bar. */
  readonly volume: ArrayLike<number>;
  /** The square-root law's prefactor Y (dimensionless, of order 1 in the literature). Default 1. */
  readonly coefficient?: number;
  /**
   * Volatility per bar, decimal (the standard deviation of one bar's return), one per bar
   * and known at that bar's close. Default: the sample standard deviation of the last
   * `volatilityBars` log returns (realizedVol with periodsPerYear 1, / 100).
   */
  readonly volatility?: ArrayLike<number>;
  /** Window of the default volatility, in returns (>= 2). Default 20. */
  readonly volatilityBars?: number;
}

/**
 * The per-bar scale of the impact cost: `scale[i] = coefficient x sigma_i / sqrt(close_i x volume_i)`,
 * from data known at the close of bar i, so that a fill of traded notional N (quote currency)
 * costs `impactCost(scale, N) = scale x N^1.5 = coefficient x sigma x sqrt(Q / V) x N`
 * (Q = N / close coins). The engine uses scale[i] for a fill at close i and scale[i-1] for a
 * fill at open i (the last estimate known then). Where sigma, volume or close is NaN or not
 * > 0 (warm-up, missing data) the last valid scale is carried; 0 before any (the rule of
 * `spreadBps`).
 * Units: quote currency^-1/2 (so that scale x N^1.5 is in quote currency).
 * @throws InvalidArgumentError on wrong lengths or a non-positive coefficient / window
 * @example impactScale([100, 100], { volume: [1000, 1000], volatility: [0.02, 0.02] })
 * // [0.02 / sqrt(100 000), ...]: a 10 000 fill costs 0.02 x sqrt(100 / 1000) x 10 000 = 63.25
 */
export function impactScale(close: ArrayLike<number>, options: ImpactOptions, where = "impactScale"): Float64Array {
  const n = close.length;
  if (typeof options !== "object" || options === null) {
    throw new InvalidArgumentError("impact", `${where}: impact must be { volume, coefficient?, volatility?, volatilityBars? }, got ${String(options)}`);
  }
  const { volume } = options;
  if (volume === null || typeof volume !== "object" || typeof volume.length !== "number" || volume.length !== n) {
    throw new InvalidArgumentError("impact.volume", `${where}: impact.volume must have one volume (coins) per bar (${n}), got ${volume === undefined || volume === null ? String(volume) : volume.length}`);
  }
  const y = options.coefficient ?? 1;
  if (typeof y !== "number" || !(y > 0) || !Number.isFinite(y)) {
    throw new InvalidArgumentError("impact.coefficient", `${where}: impact.coefficient must be a finite number > 0 (of order 1), got ${String(y)}`);
  }
  let sigma: ArrayLike<number>;
  if (options.volatility !== undefined) {
    const v = options.volatility;
    if (v === null || typeof v !== "object" || v.length !== n) {
      throw new InvalidArgumentError("impact.volatility", `${where}: impact.volatility must have one per-bar volatility (decimal) per bar (${n})`);
    }
    sigma = v;
  } else {
    const w = options.volatilityBars ?? 20;
    if (!Number.isInteger(w) || w < 2) {
      throw new InvalidArgumentError("impact.volatilityBars", `${where}: impact.volatilityBars must be an integer >= 2, got ${String(w)}`);
    }
    const pct = n > 0 ? realizedVol(close, { window: w, periodsPerYear: 1 }) : new Float64Array(0);
    for (let i = 0; i < n; i++) pct[i] = (pct[i] as number) / 100;
    sigma = pct;
  }
  const out = new Float64Array(n);
  let last = 0;
  for (let i = 0; i < n; i++) {
    const s = sigma[i] as number;
    const pv = (close[i] as number) * (volume[i] as number);
    const x = (y * s) / Math.sqrt(pv);
    if (s >= 0 && pv > 0 && Number.isFinite(x)) last = x;
    out[i] = last;
  }
  return out;
}

/**
 * Impact cost of one fill, quote currency: `scale x N x sqrt(N)` for a traded notional N >= 0
 * (see {@link impactScale}).
 * @example impactCost(0.02 / Math.sqrt(100_000), 10_000) // 63.245...
 */
export function impactCost(scale: number, traded: number): number {
  return scale * traded * Math.sqrt(traded);
}
