import type { Coin } from "../../domain/coins.js";
import { InvalidArgumentError } from "../../errors/InvalidArgumentError.js";
import { barsFromMinutes, type MinuteSeries } from "../../paper/barsFromMinutes.js";
import { COIN_METRICS, GAS_METRIC, type StudyData } from "./loadStudyData.js";

/**
 * One coin's bars for a `--strategy` module, laid out as `milab paper` gives them to the same
 * module (barsFromMinutes, the paper trader's one bar rule): `time` (bar open, epoch ms),
 * `open`, `high`, `low`, `close` from the coin's one-minute price, and one column per metric
 * of the coin (`<coin>_funding_rate`, `<coin>_imbalance`, `<coin>_basis_bps`,
 * `<coin>_momentum_5m_pct`) and `eth_basefee_live`, each its value at the bar's last minute.
 * Bars start at the first whole bar of the history and end at the last closed one.
 * @throws InvalidArgumentError when the history spans fewer than three bars
 */
export function strategyBars(data: StudyData, coin: Coin, barMinutes: number): Record<string, Float64Array> {
  const barMs = barMinutes * 60_000;
  const t = data.time;
  const p = coin.toLowerCase();
  const series: Record<string, MinuteSeries> = {};
  for (const id of [...COIN_METRICS.map((m) => `${p}_${m}`), GAS_METRIC]) {
    const col = data.columns[id];
    if (col === undefined) continue;
    const time: number[] = [];
    const value: number[] = [];
    for (let i = 0; i < t.length; i++) {
      const x = col[i] as number;
      if (x === x) {
        time.push(t[i] as number);
        value.push(x);
      }
    }
    series[id] = { time, value };
  }
  const from = t.length > 0 ? Math.ceil((t[0] as number) / barMs) * barMs : Number.NaN;
  const bars = barsFromMinutes(series, `${p}_price`, barMs, from);
  if (!(bars.length >= 3)) throw new InvalidArgumentError("hours", `strategy bars: the history spans fewer than three ${barMinutes}-minute bars of ${coin}; ask for more hours or smaller bars`);
  return bars.columns;
}
