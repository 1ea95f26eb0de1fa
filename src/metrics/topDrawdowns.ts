import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { metricsTable, type MetricsTable } from "./MetricsTable.js";
import { checkTimes } from "./checkTimes.js";

/** Options of {@link topDrawdowns}. */
export interface TopDrawdownsOptions {
  /** Bar times, epoch ms UTC, one per return. */
  readonly time: ArrayLike<number>;
  /** Most episodes returned, deepest first (integer >= 1, default 5). */
  readonly top?: number;
}

const MS_PER_DAY = 86_400_000;

/** One drawdown episode as indices into the returns. @internal */
export interface DrawdownEpisode {
  /** Index of the last bar at the high-water mark, -1 when it is the starting equity. */
  readonly peak: number;
  /** Index of the first bar at the episode's low. */
  readonly valley: number;
  /** Index of the first bar back at or above the mark, -1 if never. */
  readonly recovery: number;
  /** valley equity / peak equity - 1 (negative). */
  readonly depth: number;
}

/**
 * Every drawdown episode of the wealth curve `W_t = prod_{k<=t}(1 + r_k)`
 * (W = 1 before the first return, NaN returns count as 0), in time order. @internal
 */
export function drawdownEpisodes(returns: ArrayLike<number>): DrawdownEpisode[] {
  const episodes: DrawdownEpisode[] = [];
  let wealth = 1;
  let mark = 1;
  let peak = -1;
  let low = Infinity;
  let valley = -1;
  for (let i = 0; i < returns.length; i++) {
    const r = returns[i] as number;
    if (!Number.isNaN(r)) wealth *= 1 + r;
    if (wealth >= mark) {
      if (valley >= 0) episodes.push({ peak, valley, recovery: i, depth: low / mark - 1 });
      mark = wealth;
      peak = i;
      low = Infinity;
      valley = -1;
    } else if (wealth < low) {
      low = wealth;
      valley = i;
    }
  }
  if (valley >= 0) episodes.push({ peak, valley, recovery: -1, depth: low / mark - 1 });
  return episodes;
}

/**
 * The deepest drawdown episodes, deepest first (ties: the earlier first).
 *
 * Definition: equity starts at 1 before the first return and compounds
 * (`W_t = prod_{k<=t}(1 + r_k)`, NaN returns count as 0). An episode runs from
 * a high-water mark until equity is back at or above it; episodes are
 * disjoint (a recovery bar can be the next episode's peak). Columns, times in
 * epoch ms UTC:
 * - `peak`: the last time equity stood at the mark (`time[0]` when the mark is
 *   the starting equity, before the first return);
 * - `valley`: the first time equity stood at the episode's low;
 * - `recovery`: the first time equity was back at or above the mark, NaN if never;
 * - `depth`: valley equity / peak equity − 1 (a negative decimal);
 * - `days`: (recovery, or the last time when unrecovered, − peak) / 86 400 000, unrounded:
 *   calendar days from the peak to the recovery.
 * No episode (never under water, or empty input) gives an empty table.
 * Reference: pyfolio `gen_drawdown_table` / quantstats `drawdown_details` for the
 * episodes (peak at the last bar at the mark, valley at the first bar at the low);
 * the day count differs from both:
 * - quantstats (stats.py `drawdown_details`, since 0.0.60) counts the days under water:
 *   `(end − start).days + 1`, start the first bar under water, end the last one (the bar
 *   before the recovery; the last bar when unrecovered), in whole days. On daily bars a
 *   recovered episode is one day shorter there (it leaves out the peak's day); an
 *   unrecovered one counts the same; intraday episodes are floored to whole days there.
 * - pyfolio (timeseries.py `gen_drawdown_table`, "Duration") counts business days (Mon–Fri)
 *   from peak to recovery, both included: `len(pd.date_range(peak, recovery, freq="B"))`,
 *   one more than the days elapsed on a weekday-only calendar, weekends left out (crypto
 *   trades them), and NaN when unrecovered.
 * Example, daily returns [0.1, −0.1, −0.05, 0.2, 0] from Monday 2024-01-01: equity 1.1, 0.99,
 * 0.9405, 1.1286, 1.1286; peak Jan 1, valley Jan 3, recovery Jan 4. Here `days` = 3;
 * quantstats 2 (Jan 2 – Jan 3 under water); pyfolio 4 (Mon – Thu).
 * @throws InvalidArgumentError when time is missing, not one per return or not ascending, or top is not an integer >= 1
 * @example topDrawdowns([0.1, -0.2, 0.5], { time: [0, 86_400_000, 172_800_000] }).columns.depth // [-0.2]
 */
export function topDrawdowns(returns: ArrayLike<number>, options: TopDrawdownsOptions): MetricsTable<{ peak: Float64Array; valley: Float64Array; recovery: Float64Array; depth: Float64Array; days: Float64Array }> {
  const time = checkTimes(returns, options?.time, "topDrawdowns");
  const top = options.top ?? 5;
  if (!Number.isInteger(top) || top < 1) {
    throw new InvalidArgumentError("top", `topDrawdowns: top must be an integer >= 1 (episodes to list), got ${String(top)}`);
  }
  const chosen = drawdownEpisodes(returns)
    .map((e, k) => ({ e, k }))
    .sort((a, b) => a.e.depth - b.e.depth || a.k - b.k)
    .slice(0, top)
    .map(({ e }) => e);
  const at = (i: number): number => time[Math.max(0, i)] as number;
  const last = time.length > 0 ? (time[time.length - 1] as number) : Number.NaN;
  return metricsTable({
    peak: Float64Array.from(chosen, (e) => at(e.peak)),
    valley: Float64Array.from(chosen, (e) => at(e.valley)),
    recovery: Float64Array.from(chosen, (e) => (e.recovery < 0 ? Number.NaN : at(e.recovery))),
    depth: Float64Array.from(chosen, (e) => e.depth),
    days: Float64Array.from(chosen, (e) => ((e.recovery < 0 ? last : at(e.recovery)) - at(e.peak)) / MS_PER_DAY),
  });
}
