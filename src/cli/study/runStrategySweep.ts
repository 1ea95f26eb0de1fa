import { fundingPerBar } from "../../backtest/fundingPerBar.js";
import type { Coin } from "../../domain/coins.js";
import { InvalidArgumentError } from "../../errors/InvalidArgumentError.js";
import type { PaperBacktestOptions, PaperStrategy } from "../../paper/paperStrategy.js";
import type { Shard } from "../../research/shardRange.js";
import type { SweepProgress } from "../../research/sweepComposite.js";
import type { SweepGrid } from "../../research/sweepGrid.js";
import { sweepStrategy, type SweepableStrategy } from "../../research/sweepStrategy.js";
import type { StudyData } from "./loadStudyData.js";
import type { CoinSweep } from "./runSweepStudy.js";
import { strategyFor } from "./runStrategyBacktest.js";
import { strategyBars } from "./strategyBars.js";

/** How `milab sweep --strategy` sweeps a module's strategy. */
export interface StrategySweepOptions {
  readonly coins: readonly Coin[];
  readonly barMinutes: number;
  readonly grid: SweepGrid;
  /** Backtest options every variant shares (engineOptions of the flags). */
  readonly engine: PaperBacktestOptions;
  readonly funding: boolean;
  readonly workers?: number | undefined;
  readonly shard?: Shard | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((coin: Coin, progress: SweepProgress) => void) | undefined;
}

/** A paper composite's regime filters (functions of the columns) as the 0/1 columns a sweep takes. */
function sweepable(strategy: PaperStrategy, columns: Readonly<Record<string, Float64Array>>): SweepableStrategy {
  if (typeof strategy === "function") return strategy;
  const { regimes, ...rest } = strategy;
  if (regimes === undefined) return rest;
  const masks: Record<string, ArrayLike<number | boolean>> = {};
  for (const [name, f] of Object.entries(regimes)) {
    if (typeof f !== "function") throw new InvalidArgumentError("regimes", `milab sweep: regime filter ${name} must be a function of the bars' columns (as milab paper runs it), got ${typeof f}`);
    masks[name] = f(columns);
  }
  return { ...rest, regimes: masks };
}

/**
 * Sweep a `--strategy` module's grid on each coin's bars (strategyBars: the bars `milab paper`
 * gives the same module) with sweepStrategy, one coin after the other; a stop keeps the
 * coins done and the variants finished.
 * @throws InvalidArgumentError on a bad grid, strategy or option (sweepStrategy's checks)
 */
export async function runStrategySweep(data: StudyData, o: StrategySweepOptions, strategy: PaperStrategy): Promise<CoinSweep[]> {
  const out: CoinSweep[] = [];
  const periodsPerYear = (365 * 1440) / o.barMinutes;
  for (const coin of o.coins) {
    if (o.signal?.aborted) break;
    const columns = strategyBars(data, coin, o.barMinutes);
    const time = columns["time"] as Float64Array;
    const rate = columns[`${coin.toLowerCase()}_funding_rate`];
    const sweep = await sweepStrategy(sweepable(strategyFor(strategy, coin), columns), {
      ...o.engine,
      data: columns,
      grid: o.grid,
      periodsPerYear,
      ...(o.funding && rate !== undefined ? { funding: fundingPerBar(time, rate) } : {}),
      ...(o.workers !== undefined ? { workers: o.workers } : {}),
      ...(o.shard !== undefined ? { shard: o.shard } : {}),
      ...(o.signal !== undefined ? { signal: o.signal } : {}),
      ...(o.onProgress !== undefined ? { onProgress: (p: SweepProgress) => o.onProgress?.(coin, p) } : {}),
    });
    out.push({ coin, time, periodsPerYear, sweep });
  }
  return out;
}
