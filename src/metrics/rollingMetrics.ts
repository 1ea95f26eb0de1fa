import { periodsPerYearOf } from "./ReturnsOptions.js";
import { metricsTable, type MetricsTable } from "./MetricsTable.js";
import { checkTimes } from "./checkTimes.js";
import { rollingBeta } from "./rollingBeta.js";
import { rollingSharpe } from "./rollingSharpe.js";
import { rollingVolatility } from "./rollingVolatility.js";
import { windowBars } from "./windowBars.js";

/** Options of {@link rollingMetrics}. */
export interface RollingMetricsOptions {
  /** Bar times, epoch ms UTC, one per return (at least 2). */
  readonly time: ArrayLike<number>;
  /** Window length in ms (e.g. 30 days = 30 * 86_400_000), converted to bars by the median bar spacing. */
  readonly windowMs: number;
  /** Benchmark returns (e.g. buy & hold of the coin), one per bar: adds the `beta` column. */
  readonly benchmark?: ArrayLike<number>;
  /** Bars per year to annualise [inferred from `time`]. */
  readonly periodsPerYear?: number;
}

/** The columns of {@link rollingMetrics}: `beta` only with a benchmark. */
export type RollingMetricsColumns = { time: Float64Array; sharpe: Float64Array; volatility: Float64Array; beta?: Float64Array };

/**
 * Rolling Sharpe ratio, volatility and (with a benchmark) beta over a window
 * given in time: `round(windowMs / median bar spacing)` bars ending at each bar.
 * Columns: `time`, `sharpe` ({@link rollingSharpe}), `volatility`
 * ({@link rollingVolatility}), and `beta` ({@link rollingBeta}) when a benchmark
 * is given; NaN during the first window (all NaN with fewer than 2 bars). Annualised with `periodsPerYear`, else
 * inferred from `time`.
 * @throws InvalidArgumentError when time or the benchmark is not one per return, the window holds fewer than 2 bars, or periodsPerYear is not a positive finite number
 * @example rollingMetrics(r.returns, { time: r.time, windowMs: 30 * 86_400_000, benchmark }).columns.sharpe
 */
export function rollingMetrics(returns: ArrayLike<number>, options: RollingMetricsOptions): MetricsTable<RollingMetricsColumns> {
  const time = checkTimes(returns, options?.time, "rollingMetrics");
  if (time.length < 2) {
    // No bar spacing to measure: nothing can be rolled (NaN, the input's length).
    const nan = (): Float64Array => new Float64Array(time.length).fill(Number.NaN);
    return metricsTable({ time: Float64Array.from(time), sharpe: nan(), volatility: nan(), ...(options.benchmark !== undefined ? { beta: nan() } : {}) });
  }
  const window = windowBars(time, options.windowMs, "rollingMetrics");
  // The one annualisation rule: periodsPerYear when given, else inferred from time.
  const periodsPerYear = periodsPerYearOf(options.periodsPerYear !== undefined ? { periodsPerYear: options.periodsPerYear } : { time }, "rollingMetrics");
  return metricsTable({
    time: Float64Array.from(time),
    sharpe: rollingSharpe(returns, { window, periodsPerYear }),
    volatility: rollingVolatility(returns, { window, periodsPerYear }),
    ...(options.benchmark !== undefined ? { beta: rollingBeta(returns, options.benchmark, { window }) } : {}),
  });
}
