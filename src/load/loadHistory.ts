import type { MarketIntelClient } from "../api/createClient.js";
import type { DataFrame } from "../data/danfo.js";
import { toDataFrame } from "../data/toDataFrame.js";
import { loadHistoryPanel, type LoadHistoryParams } from "./loadHistoryPanel.js";

/**
 * `/v1/history` of one or more metrics (and coins) as one wide danfo
 * DataFrame: a `time` column (epoch ms UTC, ascending, unique) and one column
 * per series. See {@link loadHistoryPanel} for the rules (names, join, fill);
 * use that one to keep Float64Array columns for the kernels.
 * @example
 * const df = await loadHistory(client, { coin: "BTC", metricId: ["price", "funding_rate"], hours: 48 });
 * df.columns // ["time", "btc_price", "btc_funding_rate"]
 */
export async function loadHistory(client: MarketIntelClient, params: LoadHistoryParams): Promise<DataFrame> {
  return toDataFrame((await loadHistoryPanel(client, params)).panel);
}
