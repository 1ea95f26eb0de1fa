import { checkOptionsObject } from "../errors/checkOptionsObject.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { forwardReturns } from "./forwardReturns.js";
import { horizonBars, type Horizon } from "./horizonBars.js";
import { informationCoefficient, type InformationCoefficientOptions } from "./informationCoefficient.js";
import { metricsTable, type MetricsTable } from "./MetricsTable.js";

/** Options of `icDecay` and `icByCoin`. */
export interface IcDecayOptions {
  /** Horizons: bars (positive integers) or durations ("5m", "1h", ...) with `time`. */
  readonly horizons: readonly Horizon[];
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
 * @throws InvalidArgumentError on different lengths, bad horizons, or options that are not an object
 * @example icDecay(replay.composite, close, { horizons: ["5m", "1h", "4h", "24h"], time }).columns.ic
 */
export function icDecay(
  signal: ArrayLike<number>,
  close: ArrayLike<number>,
  options: IcDecayOptions,
): MetricsTable<{ horizon: string[]; bars: Float64Array; ic: Float64Array; ciLow: Float64Array; ciHigh: Float64Array; zScore: Float64Array; n: Float64Array; effectiveN: Float64Array }> {
  checkOptionsObject(options, "icDecay", 'icDecay(signal, close, { horizons: ["1h", "4h"], time })');
  const horizons = options?.horizons;
  if (signal?.length !== close?.length) {
    throw new InvalidArgumentError("close", `icDecay: signal and close must have the same length (one value per bar), got ${signal?.length} and ${close?.length}`);
  }
  const bars = horizonBars(horizons, options?.time, "icDecay");
  const fwd = forwardReturns(close, { horizons, ...(options.time !== undefined ? { time: options.time } : {}) });
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
