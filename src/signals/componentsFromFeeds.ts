import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { refuseRenamedOptions } from "../errors/refuseRenamedOptions.js";
import { readColumns, type ColumnInput } from "./readColumns.js";
import type { ComponentName } from "./weights.js";

/**
 * Raw feeds a component can be derived from (all optional, one value per row;
 * names as columns of the input table):
 * - `bidDepth`, `askDepth`: resting size near mid on each side (any one unit) -> `imbalance`;
 *   or `bidShare` (0..1) directly;
 * - `fundingRate`: funding rate per funding interval, decimal -> `funding` (hourly);
 * - `perpPrice`, `spotPrice`: -> `basis_spread` in bps;
 * - `price` (or `spotPrice` when `price` is absent): -> `momentum_5m` in percent;
 * - `baseFeeGwei` (or `baseFeeWei`): Ethereum base fee -> `gas` in gwei;
 * - `time`: epoch ms, strictly ascending (makes momentum look back by time, not rows).
 */
export const FEED_NAMES = [
  "time",
  "bidDepth",
  "askDepth",
  "bidShare",
  "fundingRate",
  "perpPrice",
  "spotPrice",
  "price",
  "baseFeeGwei",
  "baseFeeWei",
] as const;

/** Options of {@link componentsFromFeeds}. */
export interface ComponentsFromFeedsOptions {
  /**
   * The period `fundingRate` is quoted for, in ms: 3 600 000 (hourly, Hyperliquid; the default) or
   * 28 800 000 (8-hourly, most CEXs); the rate is turned into an hourly one. (`fundingIntervalHours` before 0.2.)
   */
  readonly fundingPeriodMs?: number;
  /** Momentum look-back in rows when there is no `time` column. Default 5 (five one-minute bars). */
  readonly momentumBars?: number;
  /** Momentum look-back in milliseconds when there is a `time` column. Default 300 000 (5 minutes). */
  readonly momentumMs?: number;
}

/** Component values derived from raw feeds: only the derivable ones, plus `time` when given. */
export type FeedComponents = Partial<Record<ComponentName, Float64Array>> & { time?: Float64Array };

/**
 * Derive the composite's component values from raw feeds, one output row per
 * input row (causal: row t uses rows <= t only):
 * - imbalance = bidDepth / (bidDepth + askDepth) (bid share, 0..1; NaN when both are 0);
 * - funding = fundingRate * 3 600 000 / fundingPeriodMs (hourly decimal rate);
 * - basis_spread = 1e4 * (perpPrice - spotPrice) / spotPrice (bps);
 * - momentum_5m = 100 * (price_t / price_{t-lag} - 1) (percent), where price_{t-lag} is
 *   the last price at or before time t - momentumMs (with `time`), else `momentumBars`
 *   rows back; NaN while no such price exists (warm-up);
 * - gas = baseFeeGwei (or baseFeeWei / 1e9), in gwei.
 * A feed that is absent leaves its component out; a NaN in a feed gives NaN there.
 * The feeds must share one time grid: align feeds sampled at other times (funding
 * is set hourly or 8-hourly, prices every minute) with `alignAsOf` (src/data) first.
 * With bars coarser than 5 minutes, "the last price at or before t - 5 min" is the
 * previous bar's: the component is then the one-bar return; set `momentumMs` to say so.
 * @param feeds columns keyed by the names of {@link FEED_NAMES}, a Panel or a DataFrame
 * @throws InvalidArgumentError on unequal lengths, an unordered time, bad options
 *   or when no component can be derived
 * @example componentsFromFeeds({ bidDepth: [3], askDepth: [1], perpPrice: [100.1], spotPrice: [100] })
 *   // { imbalance: [0.75], basis_spread: [≈10] }
 */
export function componentsFromFeeds(feeds: ColumnInput, options: ComponentsFromFeedsOptions = {}): FeedComponents {
  const where = "componentsFromFeeds";
  refuseRenamedOptions(options, where, { fundingIntervalHours: "fundingPeriodMs, in milliseconds (fundingIntervalHours: 8 -> fundingPeriodMs: 8 * 3_600_000)" });
  const fundingPeriodMs = options.fundingPeriodMs ?? 3_600_000;
  const bars = options.momentumBars ?? 5;
  const ms = options.momentumMs ?? 300_000;
  if (!(Number.isFinite(fundingPeriodMs) && fundingPeriodMs > 0)) {
    throw new InvalidArgumentError("fundingPeriodMs", `${where}: fundingPeriodMs must be a positive number of milliseconds (3600000 for an hourly rate), got ${fundingPeriodMs}`);
  }
  const fundingHours = fundingPeriodMs / 3_600_000;
  if (!Number.isInteger(bars) || bars < 1) {
    throw new InvalidArgumentError("momentumBars", `${where}: momentumBars must be a positive integer, got ${bars}`);
  }
  if (!(Number.isFinite(ms) && ms > 0)) {
    throw new InvalidArgumentError("momentumMs", `${where}: momentumMs must be a positive number of milliseconds, got ${ms}`);
  }
  const { length: n, time, columns } = readColumns(feeds, where);
  const col = (name: string): Float64Array | undefined => columns.get(name);
  const out: FeedComponents = {};
  if (time !== undefined) out.time = time;

  const bid = col("bidDepth");
  const ask = col("askDepth");
  const share = col("bidShare");
  if ((bid === undefined) !== (ask === undefined)) {
    throw new InvalidArgumentError("feeds", `${where}: bidDepth and askDepth go together, got only ${bid !== undefined ? "bidDepth" : "askDepth"}`);
  }
  if (bid !== undefined && ask !== undefined) {
    const v = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const b = bid[i] as number;
      const a = ask[i] as number;
      const total = b + a;
      v[i] = b >= 0 && a >= 0 && total > 0 ? b / total : Number.NaN;
    }
    out.imbalance = v;
  } else if (share !== undefined) {
    out.imbalance = Float64Array.from(share);
  }

  const funding = col("fundingRate");
  if (funding !== undefined) {
    const v = new Float64Array(n);
    for (let i = 0; i < n; i++) v[i] = fundingHours === 1 ? (funding[i] as number) : (funding[i] as number) / fundingHours;
    out.funding = v;
  }

  const perp = col("perpPrice");
  const spot = col("spotPrice");
  if (perp !== undefined && spot !== undefined) {
    const v = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const s = spot[i] as number;
      v[i] = s > 0 ? (1e4 * ((perp[i] as number) - s)) / s : Number.NaN;
    }
    out.basis_spread = v;
  } else if ((perp === undefined) !== (spot === undefined)) {
    throw new InvalidArgumentError("feeds", `${where}: perpPrice and spotPrice go together, got only ${perp !== undefined ? "perpPrice" : "spotPrice"}`);
  }

  const price = col("price") ?? spot;
  if (price !== undefined) {
    const v = new Float64Array(n).fill(Number.NaN);
    if (time === undefined) {
      for (let i = bars; i < n; i++) v[i] = 100 * ((price[i] as number) / (price[i - bars] as number) - 1);
    } else {
      let j = -1; // last row with time <= time[i] - ms
      for (let i = 0; i < n; i++) {
        const target = (time[i] as number) - ms;
        while (j + 1 < i && (time[j + 1] as number) <= target) j++;
        if (j >= 0) v[i] = 100 * ((price[i] as number) / (price[j] as number) - 1);
      }
    }
    out.momentum_5m = v;
  }

  const gwei = col("baseFeeGwei");
  const wei = col("baseFeeWei");
  if (gwei !== undefined) out.gas = Float64Array.from(gwei);
  else if (wei !== undefined) out.gas = Float64Array.from(wei, (x) => x / 1e9);

  if (Object.keys(out).filter((k) => k !== "time").length === 0) {
    throw new InvalidArgumentError(
      "feeds",
      `${where}: no component can be derived from columns ${[...columns.keys()].join(", ") || "(none)"}; expected some of ${FEED_NAMES.join(", ")}`,
    );
  }
  return out;
}
