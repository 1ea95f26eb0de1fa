import type { MarketIntelClient } from "../../api/createClient.js";
import { alignAsOf } from "../../data/alignAsOf.js";
import { unionTimes } from "../../data/unionTimes.js";
import type { Coin } from "../../domain/coins.js";
import { HttpError } from "../../errors/HttpError.js";
import { MarketIntelError } from "../../errors/MarketIntelError.js";
import { loadHistoryPanel } from "../../load/loadHistoryPanel.js";

/** The per-coin history metrics the study reads (suffixes of `<coin>_...` catalog ids); `price` is required, the others feed composite components. */
export const COIN_METRICS = ["price", "funding_rate", "imbalance", "basis_bps", "momentum_5m_pct"] as const;
/** The gas metric (Ethereum base fee, gwei) feeding the composite's gas component. */
export const GAS_METRIC = "eth_basefee_live";

/** One-minute history of every coin of a study, on one time axis. */
export interface StudyData {
  /** Epoch ms, ascending, unique (the union of every series' stamps). */
  readonly time: Float64Array;
  /** Columns named by catalog id, e.g. `btc_price`, `eth_funding_rate`, `eth_basefee_live`; a series the service did not have is absent. */
  readonly columns: Readonly<Record<string, Float64Array>>;
  /** Requests made. */
  readonly requests: number;
  /** One line per series that could not be loaded (its component is then missing and renormalised away). */
  readonly warnings?: readonly string[];
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
 * limit (count its `response` events for progress). A component series the
 * service does not have (e.g. a live catalog without `btc_imbalance`) becomes
 * a warning and the composite renormalises without it; a missing price fails.
 * @throws MarketIntelError (the loader's) when a coin's price cannot be loaded
 */
export async function loadStudyData(client: MarketIntelClient, coins: readonly Coin[], hours: number): Promise<StudyData> {
  const ids = studyMetricIds(coins);
  const settled = await Promise.allSettled(ids.map((id) => loadHistoryPanel(client, { metricId: id, hours })));
  const feeds: { time: Float64Array; columns: Record<string, Float64Array>; fill: "last" }[] = [];
  const warnings: string[] = [];
  settled.forEach((s, i) => {
    const id = ids[i] as string;
    if (s.status === "fulfilled") {
      const col = Object.values(s.value.panel.columns)[0];
      if (col !== undefined) feeds.push({ time: s.value.panel.time, columns: { [id]: col }, fill: "last" });
      return;
    }
    const reason: unknown = s.reason;
    if (id.endsWith("_price") || !(reason instanceof MarketIntelError)) {
      // the hint fits a service that answered without this series, not one that did not answer at all
      if (reason instanceof HttpError && reason.status >= 400 && reason.status < 500 && id.endsWith("_price")) {
        reason.message = `${reason.message} (no price history for ${id}: leave that coin out with --coins)`;
      }
      throw reason;
    }
    warnings.push(`no history for ${id} (${reason.message}); its component is left out and the weights renormalised`);
  });
  const time = unionTimes(...feeds.map((f) => f.time));
  const { columns } = alignAsOf(time, feeds);
  return { time, columns, requests: ids.length, warnings };
}
