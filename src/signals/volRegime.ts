import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** Volatility regimes, calmest first. */
export const VOL_REGIMES = ["low", "normal", "high", "extreme"] as const;
export type VolRegime = (typeof VOL_REGIMES)[number];

/** Upper bounds (exclusive) of low, normal and high, on annualised 24h realized vol in percent. */
export interface VolCutoffs {
  readonly low: number;
  readonly normal: number;
  readonly high: number;
}

/**
 * Default cutoffs on annualised 24h realized volatility (percent): low < 25,
 * normal < 50, high < 90, extreme >= 90. Chosen for crypto majors, whose
 * long-run annualised vol sits near 40-80%.
 */
export const DEFAULT_VOL_CUTOFFS: VolCutoffs = Object.freeze({ low: 25, normal: 50, high: 90 });

function checkCutoffs(c: VolCutoffs): void {
  if (!(Number.isFinite(c.low) && Number.isFinite(c.normal) && Number.isFinite(c.high) && c.low <= c.normal && c.normal <= c.high)) {
    throw new InvalidArgumentError(
      "cutoffs",
      `classifyVolRegime: cutoffs must be finite with low <= normal <= high, got ${JSON.stringify(c)}`,
    );
  }
}

/**
 * Volatility regime of one annualised vol reading (percent); `undefined` for NaN.
 * @example classifyVolRegime(62) // "high"
 */
export function classifyVolRegime(volPct: number, cutoffs: VolCutoffs = DEFAULT_VOL_CUTOFFS): VolRegime | undefined {
  checkCutoffs(cutoffs);
  return regimeOf(volPct, cutoffs);
}

function regimeOf(v: number, c: VolCutoffs): VolRegime | undefined {
  if (Number.isNaN(v)) return undefined;
  return v < c.low ? "low" : v < c.normal ? "normal" : v < c.high ? "high" : "extreme";
}

/**
 * Regime codes for a series: 0 low, 1 normal, 2 high, 3 extreme, -1 unknown (NaN input).
 * @example classifyVolRegimes([10, 30, 60, 120, NaN]) // Int8Array [0, 1, 2, 3, -1]
 */
export function classifyVolRegimes(vol: ArrayLike<number>, cutoffs: VolCutoffs = DEFAULT_VOL_CUTOFFS): Int8Array {
  checkCutoffs(cutoffs);
  const out = new Int8Array(vol.length);
  for (let i = 0; i < vol.length; i++) {
    const r = regimeOf(vol[i] as number, cutoffs);
    out[i] = r === undefined ? -1 : VOL_REGIMES.indexOf(r);
  }
  return out;
}

/**
 * Percentile-based regimes, causal: bar t is ranked against the previous
 * `lookback` readings only (t excluded): below the 25th percentile low, below
 * the 75th normal, below the 95th high, else extreme (quantile levels
 * adjustable). -1 until `minHistory` earlier readings exist.
 * @example classifyVolRegimesByPercentile(vols, { lookback: 43200 })
 */
export function classifyVolRegimesByPercentile(
  vol: ArrayLike<number>,
  options: { lookback: number; minHistory?: number; levels?: readonly [number, number, number] },
): Int8Array {
  const { lookback } = options;
  const levels = options.levels ?? [0.25, 0.75, 0.95];
  const minHistory = options.minHistory ?? Math.min(lookback, 100);
  if (!Number.isInteger(lookback) || lookback < 2) {
    throw new InvalidArgumentError("lookback", `classifyVolRegimesByPercentile: lookback must be an integer >= 2, got ${lookback}`);
  }
  if (!(levels[0] < levels[1] && levels[1] < levels[2] && levels[0] > 0 && levels[2] < 1)) {
    throw new InvalidArgumentError("levels", `classifyVolRegimesByPercentile: levels must increase strictly inside (0, 1), got ${levels.join(", ")}`);
  }
  const out = new Int8Array(vol.length).fill(-1);
  for (let t = 0; t < vol.length; t++) {
    const v = vol[t] as number;
    if (Number.isNaN(v)) continue;
    let below = 0;
    let count = 0;
    for (let k = Math.max(0, t - lookback); k < t; k++) {
      const q = vol[k] as number;
      if (Number.isNaN(q)) continue;
      count++;
      if (q < v) below++;
    }
    if (count < minHistory) continue;
    const rank = below / count;
    out[t] = rank < levels[0] ? 0 : rank < levels[1] ? 1 : rank < levels[2] ? 2 : 3;
  }
  return out;
}

/**
 * The service's `regime_floor` rule: the reported regime is never calmer than
 * the floor (the live service reports floor "high", so only high and extreme appear).
 * @example applyRegimeFloor("normal", "high") // "high"
 */
export function applyRegimeFloor(regime: VolRegime, floor: VolRegime): VolRegime {
  return VOL_REGIMES.indexOf(regime) < VOL_REGIMES.indexOf(floor) ? floor : regime;
}
