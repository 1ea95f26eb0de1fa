import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { forwardReturns } from "./forwardReturns.js";
import { horizonBars, type Horizon } from "./horizonBars.js";
import { informationCoefficient, type InformationCoefficientOptions } from "./informationCoefficient.js";
import { metricsTable, type MetricsTable } from "./MetricsTable.js";

/** Options of `icDecay` and `icByCoin`. */
export interface IcDecayOptions {
  /** Bar times (epoch ms), for duration horizons like "1h". */
  readonly time?: ArrayLike<number>;
  /** See `informationCoefficient`: "all" (default, effective n = n / h) or "nonOverlapping". */
  readonly sample?: InformationCoefficientOptions["sample"];
  /** Confidence level of the intervals, default 0.95. */
  readonly confidence?: number;
}

/**
 * IC decay: the rank IC of one signal against forward returns at several
 * horizons (how fast the signal's information fades). One row per horizon:
 * `horizon` (label), `bars`, `ic`, `ciLow`, `ciHigh`, `zScore`, `n`, `effectiveN`.
 * Forward returns are `close[t + h] / close[t] - 1`; see `informationCoefficient`
 * for the interval and the overlap correction.
 * @throws InvalidArgumentError on different lengths or bad horizons
 * @example icDecay(replay.composite, close, ["5m", "1h", "4h", "24h"], { time }).columns.ic
 */
export function icDecay(
  signal: ArrayLike<number>,
  close: ArrayLike<number>,
  horizons: readonly Horizon[],
  options: IcDecayOptions = {},
): MetricsTable {
  if (signal?.length !== close?.length) {
    throw new InvalidArgumentError("close", `icDecay: signal and close must have the same length (one value per bar), got ${signal?.length} and ${close?.length}`);
  }
  const bars = horizonBars(horizons, options.time, "icDecay");
  const fwd = forwardReturns(close, horizons, options.time !== undefined ? { time: options.time } : {});
  const rows = bars.map(([label, h]) =>
    informationCoefficient(signal, fwd[label] as Float64Array, {
      horizon: h,
      ...(options.sample !== undefined ? { sample: options.sample } : {}),
      ...(options.confidence !== undefined ? { confidence: options.confidence } : {}),
    }),
  );
  return metricsTable({
    horizon: bars.map(([label]) => label),
    bars: Float64Array.from(bars, ([, h]) => h),
    ic: Float64Array.from(rows, (r) => r.ic),
    ciLow: Float64Array.from(rows, (r) => r.ciLow),
    ciHigh: Float64Array.from(rows, (r) => r.ciHigh),
    zScore: Float64Array.from(rows, (r) => r.zScore),
    n: Float64Array.from(rows, (r) => r.n),
    effectiveN: Float64Array.from(rows, (r) => r.effectiveN),
  });
}

/** One coin's series for `icByCoin`. */
export interface CoinSignal {
  readonly signal: ArrayLike<number>;
  readonly close: ArrayLike<number>;
  /** Bar times, for duration horizons (falls back to `options.time`). */
  readonly time?: ArrayLike<number>;
}

/**
 * Time-series rank IC per coin and horizon, with confidence intervals: the
 * `icDecay` table of every coin stacked, with a `coin` column first. Coins
 * are evaluated separately (time series), not cross-sectionally.
 * @example icByCoin({ BTC: { signal: btc.composite, close: btcClose }, ETH: {...} }, [12, 48], {}).toDataFrame()
 */
export function icByCoin(coins: Readonly<Record<string, CoinSignal>>, horizons: readonly Horizon[], options: IcDecayOptions = {}): MetricsTable {
  const names = coins && typeof coins === "object" ? Object.keys(coins) : [];
  if (names.length === 0) {
    throw new InvalidArgumentError("coins", `icByCoin: coins must map at least one coin to { signal, close }, got ${String(coins)}`);
  }
  const parts = names.map((coin) => {
    const c = coins[coin] as CoinSignal;
    const time = c.time ?? options.time;
    return icDecay(c.signal, c.close, horizons, { ...options, ...(time !== undefined ? { time } : {}) });
  });
  const out: Record<string, Float64Array | string[]> = { coin: [] };
  for (const [k, p] of parts.entries()) {
    for (let i = 0; i < p.rows; i++) (out["coin"] as string[]).push(names[k] as string);
  }
  const first = parts[0] as MetricsTable;
  for (const col of Object.keys(first.columns)) {
    const cols = parts.map((p) => p.columns[col] as Float64Array | readonly string[]);
    out[col] = typeof cols[0]?.[0] === "string" ? cols.flatMap((c) => Array.from(c as readonly string[])) : Float64Array.from(cols.flatMap((c) => Array.from(c as Float64Array)));
  }
  return metricsTable(out);
}
