import { fundingPerBar } from "../../backtest/fundingPerBar.js";
import type { Coin } from "../../domain/coins.js";
import { simplexGrid } from "../../research/simplexGrid.js";
import type { Shard } from "../../research/shardRange.js";
import { sweepComposite, type SweepProgress } from "../../research/sweepComposite.js";
import type { SweepResult } from "../../research/SweepResult.js";
import { COMPONENT_NAMES } from "../../signals/weights.js";
import type { StudyData } from "./loadStudyData.js";
import { coinBars, studyGrid } from "./studyBars.js";

/** What `milab sweep` (and the demo's what-if table) sweeps, and how it trades. */
export interface SweepStudyOptions {
  readonly coins: readonly Coin[];
  readonly barMinutes: number;
  /** Step of the simplex grid of weight vectors over the five components (0.1: 1,001 vectors). */
  readonly grid: number;
  readonly thresholds: readonly number[];
  readonly feeBps: number;
  readonly slippageBps: number;
  /** Charge perpetual funding on positions. */
  readonly funding: boolean;
  readonly workers?: number | undefined;
  readonly shard?: Shard | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Called per coin as its variants finish. */
  readonly onProgress?: ((coin: Coin, progress: SweepProgress) => void) | undefined;
}

/** One coin's sweep. */
export interface CoinSweep {
  readonly coin: Coin;
  readonly time: Float64Array;
  readonly periodsPerYear: number;
  readonly sweep: SweepResult;
}

/**
 * Sweep every weight vector of the simplex grid x every threshold on each coin's bars
 * (the study's bars: the same close, components and per-bar funding as `milab backtest`,
 * without its regime filter: sweeps run the backtest's default mode), one coin after the
 * other. A stop (the signal) ends the sweep early: the coins done and the variants
 * finished are kept, the coins not started are left out.
 * @throws InvalidArgumentError on a bad grid, thresholds or history too short for three bars
 */
export async function runSweepStudy(data: StudyData, o: SweepStudyOptions): Promise<CoinSweep[]> {
  const grid = studyGrid(data, o.barMinutes);
  const weights = simplexGrid(COMPONENT_NAMES, o.grid);
  const out: CoinSweep[] = [];
  for (const coin of o.coins) {
    if (o.signal?.aborted) break;
    const c = coinBars(data, coin, grid);
    const sweep = await sweepComposite(
      { close: c["close"] as Float64Array, imbalance: c["imbalance"] as Float64Array, funding: c["funding"] as Float64Array, basis_spread: c["basis_spread"] as Float64Array, momentum_5m: c["momentum_5m"] as Float64Array, gas: c["gas"] as Float64Array },
      {
        weights,
        thresholds: o.thresholds,
        feeBps: o.feeBps,
        slippageBps: o.slippageBps,
        ...(o.funding ? { barFunding: fundingPerBar(grid.time, c["fundingRate"] as Float64Array) } : {}),
        time: grid.time,
        periodsPerYear: grid.periodsPerYear,
        ...(o.workers !== undefined ? { workers: o.workers } : {}),
        ...(o.shard !== undefined ? { shard: o.shard } : {}),
        ...(o.signal !== undefined ? { signal: o.signal } : {}),
        ...(o.onProgress !== undefined ? { onProgress: (p: SweepProgress) => o.onProgress?.(coin, p) } : {}),
      },
    );
    out.push({ coin, time: grid.time, periodsPerYear: grid.periodsPerYear, sweep });
  }
  return out;
}

/** Every coin's sweep as one table with a `coin` column first (`milab sweep --out`, `milab export sweep`). */
export function sweepTable(sweeps: readonly { readonly coin: Coin; readonly sweep: SweepResult }[]): Record<string, string[] | Float64Array> {
  const total = sweeps.reduce((k, s) => k + s.sweep.length, 0);
  const first = sweeps[0]?.sweep;
  const out: Record<string, string[] | Float64Array> = { coin: sweeps.flatMap((s) => Array<string>(s.sweep.length).fill(s.coin)) };
  for (const name of Object.keys(first?.columns ?? {})) {
    const col = new Float64Array(total);
    let at = 0;
    for (const s of sweeps) {
      col.set(s.sweep.columns[name] as Float64Array, at);
      at += s.sweep.length;
    }
    out[name] = col;
  }
  return out;
}
