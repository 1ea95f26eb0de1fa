import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { cumReturns } from "./cumReturns.js";
import { decileReturns } from "./decileReturns.js";
import { forwardReturns } from "./forwardReturns.js";
import { informationCoefficient, type InformationCoefficient } from "./informationCoefficient.js";
import { metricsTable, type MetricsTable } from "./MetricsTable.js";
import { quantileBuckets } from "./quantileBuckets.js";
import { quantileSpread, type QuantileSpread } from "./quantileSpread.js";
import { rollingIc } from "./rollingIc.js";
import { spearmanCorrelation } from "./spearmanCorrelation.js";

/** Options of {@link signalTearsheet}. */
export interface SignalTearsheetOptions {
  /** Bar times, epoch ms UTC, ascending, one per bar. */
  readonly time: ArrayLike<number>;
  /** Forward horizon in bars (default 1). */
  readonly horizon?: number;
  /** Signal quantile buckets (default 5). */
  readonly buckets?: number;
  /** Window of the rolling IC in ms (default 30 days). */
  readonly windowMs?: number;
  /** Lags (bars) of the signal's rank autocorrelation (default [1, horizon] without duplicates). */
  readonly lags?: readonly number[];
}

/** Everything the signal tearsheet shows (alphalens for one time series). */
export interface SignalTearsheet {
  /** Forward horizon in bars. */
  readonly horizon: number;
  /** Rank IC over the whole sample with its overlap-corrected interval. */
  readonly ic: InformationCoefficient;
  /** IC per non-overlapping window (see `rollingIc`). */
  readonly rollingIc: ReturnType<typeof rollingIc>;
  /** Mean forward return by signal quantile (see `decileReturns`). */
  readonly quantiles: ReturnType<typeof decileReturns>;
  /** Top-minus-bottom spread and its t-statistic (see `quantileSpread`). */
  readonly spread: QuantileSpread;
  /**
   * Wealth (from 1) of holding the coin for one bar whenever the signal sits in
   * a bucket, flat otherwise, one curve per bucket ("Q1" lowest), no costs:
   * at bar t+1 the curve earns close[t+1] / close[t] - 1 when bucket[t] is its own.
   */
  readonly cumulative: { readonly time: ArrayLike<number>; readonly series: Readonly<Record<string, Float64Array>> };
  /**
   * Per bucket: `bucket`, `turnover` = share of the bars in the bucket whose
   * previous bar (with a signal) was in another bucket (alphalens' quantile turnover for one asset).
   */
  readonly turnover: MetricsTable;
  /** `lag` (bars) and `autocorrelation`: Spearman correlation of signal[t] with signal[t - lag]. */
  readonly autocorrelation: MetricsTable<{ lag: Float64Array; autocorrelation: Float64Array }>;
}

/**
 * The signal tearsheet of one coin: IC with its interval, rolling IC, mean
 * forward return by quantile with the top-minus-bottom spread and its
 * t-statistic, cumulative return by quantile, quantile turnover and the
 * signal's rank autocorrelation. Built from `forwardReturns`,
 * `informationCoefficient`, `rollingIc`, `decileReturns`, `quantileSpread`,
 * `quantileBuckets` and `spearmanCorrelation`; render it with the report's
 * `signalTearsheetSection`. Buckets are ranked over the whole sample: a
 * description of the signal, not a tradeable rule.
 * Reference: quantopian/alphalens `create_full_tear_sheet` (cross-sectional
 * there; here one time series).
 * @param signal signal per bar, known at the close of bar t
 * @param close close price per bar
 * @throws InvalidArgumentError on different lengths or a bad horizon, bucket count, window or lag
 * @example const ts = signalTearsheet(replay.composite, close, { time, horizon: 6 }); ts.spread.tStat
 */
export function signalTearsheet(signal: ArrayLike<number>, close: ArrayLike<number>, options: SignalTearsheetOptions): SignalTearsheet {
  if (signal?.length !== close?.length || options?.time?.length !== signal?.length) {
    throw new InvalidArgumentError(
      "close",
      `signalTearsheet: signal, close and options.time must have one value per bar, got ${signal?.length}, ${close?.length} and ${options?.time?.length}`,
    );
  }
  const { time, horizon = 1, buckets = 5, windowMs = 30 * 86_400_000 } = options;
  if (!Number.isInteger(horizon) || horizon < 1) {
    throw new InvalidArgumentError("horizon", `signalTearsheet: horizon must be a positive integer (bars), got ${String(horizon)}`);
  }
  const lags = options.lags ?? [...new Set([1, horizon])];
  for (const lag of lags) {
    if (!Number.isInteger(lag) || lag < 1) throw new InvalidArgumentError("lags", `signalTearsheet: lags must be positive integers (bars), got ${String(lag)}`);
  }
  const fwd = forwardReturns(close, { horizons: [1, horizon] });
  const next = fwd["1 bar"] as Float64Array;
  const forward = fwd[horizon === 1 ? "1 bar" : `${horizon} bars`] as Float64Array;
  const n = signal.length;
  const bucket = quantileBuckets(signal, { buckets });
  const used: number[] = [];
  for (let b = 1; b <= buckets; b++) if (bucket.includes(b)) used.push(b);
  const series: Record<string, Float64Array> = {};
  for (const b of used) {
    const held = new Float64Array(n);
    for (let t = 0; t + 1 < n; t++) if (bucket[t] === b && !Number.isNaN(next[t] as number)) held[t + 1] = next[t] as number;
    series[`Q${b}`] = Float64Array.from(cumReturns(held), (c) => c + 1);
  }
  const changed = new Float64Array(buckets + 1);
  const stayedOrChanged = new Float64Array(buckets + 1);
  let prev = Number.NaN;
  for (let t = 0; t < n; t++) {
    const b = bucket[t] as number;
    if (Number.isNaN(b)) continue;
    if (!Number.isNaN(prev)) {
      stayedOrChanged[b]! += 1;
      if (prev !== b) changed[b]! += 1;
    }
    prev = b;
  }
  const lagged = (lag: number): number => spearmanCorrelation(Array.prototype.slice.call(signal, lag), Array.prototype.slice.call(signal, 0, Math.max(0, n - lag)));
  return {
    horizon,
    ic: informationCoefficient(signal, forward, { horizon }),
    rollingIc: rollingIc(signal, forward, { time, windowMs, horizon }),
    quantiles: decileReturns(signal, forward, { buckets }),
    spread: quantileSpread(signal, forward, { buckets, horizon }),
    cumulative: { time, series },
    turnover: metricsTable({
      bucket: Float64Array.from(used),
      turnover: Float64Array.from(used, (b) => (stayedOrChanged[b] as number) > 0 ? (changed[b] as number) / (stayedOrChanged[b] as number) : Number.NaN),
    }),
    autocorrelation: metricsTable({ lag: Float64Array.from(lags), autocorrelation: Float64Array.from(lags, (lag) => (lag < n ? lagged(lag) : Number.NaN)) }),
  };
}
