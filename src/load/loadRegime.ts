import type { MarketIntelClient } from "../api/createClient.js";
import type { QueryParams } from "../api/checkQueryParams.js";
import type { Regime } from "../api/schemas/regime.js";
import type { DataFrame } from "../data/danfo.js";
import { toDataFrame } from "../data/toDataFrame.js";
import { ENDPOINTS } from "../api/endpoints.js";
import { responseTimeMs } from "../api/responseTimeMs.js";
import { recordsToColumns, type RecordColumns } from "./recordsToColumns.js";

/**
 * A normalised `/v3/signals/regime` as columns, one row per coin of
 * `regimes[]` (fields as the service names them, flattened by
 * {@link recordsToColumns}), with `time` (the response timestamp, epoch ms)
 * first. The documented single-regime form (`{regime, confidence, ...}`,
 * no `regimes`) gives one row of those fields.
 * @example regimeColumns(await client.regime()).regime_label // ["Mean-Reverting", ...]
 */
export function regimeColumns(regime: Regime): RecordColumns {
  const time = responseTimeMs(regime.timestamp, ENDPOINTS.regime, "timestamp");
  if (regime.regimes.length === 0 && regime.regime !== undefined) {
    const { regime: label, confidence, duration_hours, transition_probs } = regime;
    return { time: [time], ...recordsToColumns([{ regime: label, confidence, duration_hours, transition_probs }]) };
  }
  const cols = recordsToColumns(regime.regimes);
  return { time: regime.regimes.map(() => time), ...cols };
}

/**
 * `/v3/signals/regime` as a danfo DataFrame, one row per coin (see {@link regimeColumns}).
 * @example (await loadRegime(client)).column("regime_label").values // ["Mean-Reverting", ...]
 */
export async function loadRegime(client: MarketIntelClient, params?: QueryParams): Promise<DataFrame> {
  return toDataFrame(regimeColumns(await client.regime(params)));
}
