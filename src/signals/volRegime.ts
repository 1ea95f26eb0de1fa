import { checkOptionsObject } from "../errors/checkOptionsObject.js";
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
 * @param options.cutoffs regime bounds [DEFAULT_VOL_CUTOFFS, the service's 25 / 50 / 90 %]
 * @throws InvalidArgumentError on bad cutoffs, or options that are not an object
 * @example classifyVolRegime(62) // "high"
 * @example classifyVolRegime(62, { cutoffs: { low: 30, normal: 70, high: 120 } }) // "normal"
 */
export function classifyVolRegime(volPct: number, options?: { readonly cutoffs?: VolCutoffs }): VolRegime | undefined {
  checkOptionsObject(options, "classifyVolRegime", "classifyVolRegime(62, { cutoffs: { low: 30, normal: 70, high: 120 } })");
  const cutoffs = options?.cutoffs ?? DEFAULT_VOL_CUTOFFS;
  checkCutoffs(cutoffs);
  return regimeOf(volPct, cutoffs);
}

function regimeOf(v: number, c: VolCutoffs): VolRegime | undefined {
  if (Number.isNaN(v)) return undefined;
  return v < c.low ? "low" : v < c.normal ? "normal" : v < c.high ? "high" : "extreme";
}

/**
 * Regime codes for a series: 0 low, 1 normal, 2 high, 3 extreme, -1 unknown
 * (NaN input). With `floor`, known regimes calmer than the floor are raised to
 * it (the service's `regime_floor` rule, see {@link applyRegimeFloor}).
 * @param options.cutoffs regime bounds [DEFAULT_VOL_CUTOFFS]
 * @param options.floor lowest regime reported [none]
 * @throws InvalidArgumentError on bad cutoffs, an unknown floor, or options that are not an object
 * @example classifyVolRegimes([10, 30, 60, 120, NaN]) // Int8Array [0, 1, 2, 3, -1]
 * @example classifyVolRegimes([10, 30, 60, 120, NaN], { floor: "high" }) // Int8Array [2, 2, 2, 3, -1]
 */
export function classifyVolRegimes(
  vol: ArrayLike<number>,
  options: { readonly cutoffs?: VolCutoffs; readonly floor?: VolRegime } = {},
): Int8Array {
  checkOptionsObject(options, "classifyVolRegimes", 'classifyVolRegimes(vol, { cutoffs, floor: "high" })');
  const cutoffs = options.cutoffs ?? DEFAULT_VOL_CUTOFFS;
  checkCutoffs(cutoffs);
  const floor = options.floor === undefined ? 0 : VOL_REGIMES.indexOf(options.floor);
  if (floor < 0) {
    throw new InvalidArgumentError("floor", `classifyVolRegimes: floor must be one of ${VOL_REGIMES.join(", ")}, got ${JSON.stringify(options.floor)}`);
  }
  const out = new Int8Array(vol.length);
  for (let i = 0; i < vol.length; i++) {
    const r = regimeOf(vol[i] as number, cutoffs);
    out[i] = r === undefined ? -1 : Math.max(floor, VOL_REGIMES.indexOf(r));
  }
  return out;
}

/**
 * Percentile-based regimes, causal: bar t is ranked against the previous
 * `lookback` non-NaN readings only (bar t itself excluded). Its mid-rank
 * (share of earlier readings below it, plus half the share equal to it) picks
 * the regime: below levels[0] (default 0.25) low, below levels[1] (0.75)
 * normal, below levels[2] (0.95) high, else extreme. A constant series is
 * therefore `normal` (mid-rank 0.5). -1 (unknown) for a NaN reading and until
 * `minHistory` (default min(lookback, 100)) earlier readings exist.
 * O(n log n): a Fenwick tree over the readings' ranks.
 * @param vol volatility readings, any unit (e.g. realizedVol's percent)
 * @param options.lookback earlier bars considered (integer >= 2), e.g. 43200 = 30 days of minutes
 * @throws InvalidArgumentError on a bad lookback, minHistory or levels
 * @example classifyVolRegimesByPercentile([1, 2, 3, 4, 100], { lookback: 4, minHistory: 4 }) // Int8Array [-1, -1, -1, -1, 3]
 */
export function classifyVolRegimesByPercentile(
  vol: ArrayLike<number>,
  options: { lookback: number; minHistory?: number; levels?: readonly [number, number, number] },
): Int8Array {
  const where = "classifyVolRegimesByPercentile";
  const { lookback } = options;
  const levels = options.levels ?? [0.25, 0.75, 0.95];
  if (!Number.isInteger(lookback) || lookback < 2) {
    throw new InvalidArgumentError("lookback", `${where}: lookback must be an integer >= 2, got ${lookback}`);
  }
  const minHistory = options.minHistory ?? Math.min(lookback, 100);
  if (!Number.isInteger(minHistory) || minHistory < 1 || minHistory > lookback) {
    throw new InvalidArgumentError("minHistory", `${where}: minHistory must be an integer in [1, lookback = ${lookback}], got ${minHistory}`);
  }
  if (
    levels.length !== 3 ||
    !(levels[0] < levels[1] && levels[1] < levels[2] && levels[0] > 0 && levels[2] < 1)
  ) {
    throw new InvalidArgumentError("levels", `${where}: levels must be three numbers increasing strictly inside (0, 1), got ${levels.join(", ")}`);
  }
  const n = vol.length;
  const out = new Int8Array(n).fill(-1);
  // Ranks of the readings (equal readings share a rank). Ranking uses all readings,
  // but a bar's output only counts readings before it: the ranks are just an index.
  const order: number[] = [];
  for (let i = 0; i < n; i++) if (!Number.isNaN(vol[i] as number)) order.push(i);
  order.sort((a, b) => {
    const x = vol[a] as number;
    const y = vol[b] as number;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const rank = new Int32Array(n).fill(-1);
  let r = 0;
  for (let k = 0; k < order.length; k++) {
    if (k > 0 && (vol[order[k] as number] as number) !== (vol[order[k - 1] as number] as number)) r++;
    rank[order[k] as number] = r;
  }
  const size = r + 1;
  const tree = new Int32Array(size + 1);
  const add = (pos: number, d: number): void => {
    for (let x = pos + 1; x <= size; x += x & -x) tree[x] = (tree[x] as number) + d;
  };
  const below = (pos: number): number => {
    let s = 0;
    for (let x = pos; x > 0; x -= x & -x) s += tree[x] as number;
    return s;
  };
  let count = 0;
  for (let t = 0; t < n; t++) {
    const leaving = t - lookback - 1;
    if (leaving >= 0 && (rank[leaving] as number) >= 0) {
      add(rank[leaving] as number, -1);
      count--;
    }
    if (t > 0 && (rank[t - 1] as number) >= 0) {
      add(rank[t - 1] as number, 1);
      count++;
    }
    const rt = rank[t] as number;
    if (rt < 0 || count < minHistory) continue;
    const less = below(rt);
    const equal = below(rt + 1) - less;
    const mid = (less + 0.5 * equal) / count;
    out[t] = mid < levels[0] ? 0 : mid < levels[1] ? 1 : mid < levels[2] ? 2 : 3;
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
