import type { CoinParams, MarketIntelClient } from "../api/createClient.js";
import type { WhaleFlow } from "../api/schemas/whaleFlow.js";
import type { DataFrame } from "../data/danfo.js";
import { toDataFrame } from "../data/toDataFrame.js";
import { recordsToColumns, type RecordColumns } from "./recordsToColumns.js";

/**
 * A normalised `/v1/signals/whale-flow` as columns, one row per coin (fields
 * as the service names them, flattened by {@link recordsToColumns}:
 * `timestamp` in epoch ms, the list of orders as `whale_orders_count`), led
 * by a `time` column (the entry's timestamp, epoch ms) like every other loader.
 * The documented variant gives `net_flow, large_buy_count, ...` instead, and
 * no time (the service sends none there).
 * @example whaleFlowColumns(await client.whaleFlow()).whale_imbalance // [1, -0.32, ...]
 */
export function whaleFlowColumns(flow: WhaleFlow): RecordColumns {
  const cols = recordsToColumns(flow.whale_flow);
  const stamp = cols["timestamp"];
  return stamp === undefined ? cols : { time: stamp, ...cols };
}

/**
 * `/v1/signals/whale-flow` as a danfo DataFrame, one row per coin (see {@link whaleFlowColumns}).
 * @example (await loadWhaleFlow(client, { coin: "BTC" })).shape[0] // 1
 */
export async function loadWhaleFlow(client: MarketIntelClient, params?: CoinParams): Promise<DataFrame> {
  return toDataFrame(whaleFlowColumns(await client.whaleFlow(params)));
}
