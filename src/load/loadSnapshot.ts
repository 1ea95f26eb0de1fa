import type { MarketIntelClient } from "../api/createClient.js";
import type { Snapshot } from "../api/schemas/snapshot.js";
import type { DataFrame } from "../data/danfo.js";
import { toDataFrame } from "../data/toDataFrame.js";
import { ENDPOINTS } from "../api/endpoints.js";
import { responseTimeMs } from "../api/responseTimeMs.js";
import type { RecordColumns } from "./recordsToColumns.js";

/**
 * A normalised `/v1/snapshot` as columns, one row per catalog metric in the
 * service's order: `metric_id`, `value` (NaN when null), `time` (the chain
 * time the value refers to, epoch ms) and `time_local` (when the service
 * read it, epoch ms).
 * @example snapshotColumns(await client.snapshot()).metric_id[0] // "btc_price"
 */
export function snapshotColumns(snapshot: Pick<Snapshot, "metrics">): RecordColumns {
  const m = snapshot.metrics;
  return {
    metric_id: m.map((x) => x.metric_id),
    value: m.map((x) => x.value ?? Number.NaN),
    time: m.map((x, i) => responseTimeMs(x.time_chain, ENDPOINTS.snapshot, "metrics.time_chain", i)),
    time_local: m.map((x, i) => responseTimeMs(x.time_local, ENDPOINTS.snapshot, "metrics.time_local", i)),
  };
}

/**
 * `/v1/snapshot` as a danfo DataFrame, one row per metric (see {@link snapshotColumns}).
 * @example (await loadSnapshot(client)).columns // ["metric_id", "value", "time", "time_local"]
 */
export async function loadSnapshot(client: MarketIntelClient): Promise<DataFrame> {
  return toDataFrame(snapshotColumns(await client.snapshot()));
}
