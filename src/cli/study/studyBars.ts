import { alignAsOf } from "../../data/alignAsOf.js";
import type { Coin } from "../../domain/coins.js";
import { InvalidArgumentError } from "../../errors/InvalidArgumentError.js";
import { realizedVol } from "../../signals/realizedVol.js";
import { GAS_METRIC, type StudyData } from "./loadStudyData.js";

/** The study's bar grid: bar close times and the bars per year. */
export interface StudyGrid {
  readonly time: Float64Array;
  readonly barMs: number;
  readonly periodsPerYear: number;
}

/**
 * The bar closes of a study: every multiple of the bar size between the first and the
 * last one-minute stamp of the history.
 * @throws InvalidArgumentError when the history holds fewer than two points or spans fewer than three bars
 */
export function studyGrid(data: StudyData, barMinutes: number): StudyGrid {
  const barMs = barMinutes * 60_000;
  const t = data.time;
  if (t.length < 2) throw new InvalidArgumentError("hours", "study: the history holds fewer than two points; ask for more hours");
  const first = Math.ceil((t[0] as number) / barMs) * barMs;
  const last = Math.floor((t[t.length - 1] as number) / barMs) * barMs;
  const n = Math.floor((last - first) / barMs) + 1;
  if (!(n >= 3)) throw new InvalidArgumentError("hours", `study: the history spans fewer than three ${barMinutes}-minute bars; ask for more hours or smaller bars`);
  return { time: Float64Array.from({ length: n }, (_, i) => first + i * barMs), barMs, periodsPerYear: (365 * 1440) / barMinutes };
}

/**
 * One coin's columns sampled at the bar closes (each the last value known at the close,
 * at most one bar old): `close`, `vol` (24h realized volatility of the one-minute prices),
 * `fundingRate` and the composite's components `imbalance`, `funding`, `basis_spread`,
 * `momentum_5m`, `gas`. A series the history lacks is all NaN.
 */
export function coinBars(data: StudyData, coin: Coin, grid: StudyGrid): Record<string, Float64Array> {
  const t = data.time;
  const col = (name: string): Float64Array => data.columns[name] ?? new Float64Array(t.length).fill(Number.NaN);
  const p = coin.toLowerCase();
  const price1m = col(`${p}_price`);
  const bars = alignAsOf(grid.time, [
    {
      time: t,
      columns: {
        close: price1m,
        vol: realizedVol(price1m, { window: "24h" }),
        fundingRate: col(`${p}_funding_rate`),
        imbalance: col(`${p}_imbalance`),
        funding: col(`${p}_funding_rate`),
        basis_spread: col(`${p}_basis_bps`),
        momentum_5m: col(`${p}_momentum_5m_pct`),
        gas: col(GAS_METRIC),
      },
      fill: "last",
      maxStalenessMs: grid.barMs,
    },
  ]);
  return bars.columns as Record<string, Float64Array>;
}
