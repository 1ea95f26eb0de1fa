import type { MarketIntelClient } from "../../api/createClient.js";
import type { Coin } from "../../domain/coins.js";
import { loadHistoryPanel } from "../../load/loadHistoryPanel.js";

/** The per-coin history metrics the study reads (suffixes of `<coin>_...` catalog ids). */
export const COIN_METRICS = ["price", "funding_rate", "imbalance", "basis_bps", "momentum_5m_pct"] as const;
/** The gas metric (Ethereum base fee, gwei) feeding the composite's gas component. */
export const GAS_METRIC = "eth_basefee_live";

/** One-minute history of every coin of a study, on one time axis. */
export interface StudyData {
  /** Epoch ms, ascending, unique (the union of every series' stamps). */
  readonly time: Float64Array;
  /** Columns named by catalog id, e.g. `btc_price`, `eth_funding_rate`, `eth_basefee_live`. */
  readonly columns: Readonly<Record<string, Float64Array>>;
  /** Requests made. */
  readonly requests: number;
}

/** The catalog ids {@link loadStudyData} requests for these coins. */
export function studyMetricIds(coins: readonly Coin[]): string[] {
  return [...coins.flatMap((c) => COIN_METRICS.map((m) => `${c.toLowerCase()}_${m}`)), GAS_METRIC];
}

/**
 * Load what the composite study needs from `/v1/history`: for each coin its
 * price, hourly funding rate, book imbalance, basis (bps) and 5-minute momentum
 * (percent), plus the Ethereum base fee, over the last `hours` hours, as-of
 * aligned on the union of their time stamps (each value carried until the next
 * one of its own series). Requests go out concurrently under the client's rate
 * limit (count its `response` events for progress).
 */
export async function loadStudyData(client: MarketIntelClient, coins: readonly Coin[], hours: number): Promise<StudyData> {
  const ids = studyMetricIds(coins);
  const { panel } = await loadHistoryPanel(client, { metricIds: ids, hours, fill: "last" });
  return { time: panel.time, columns: panel.columns, requests: ids.length };
}
