import type { CoinParams, MarketIntelClient } from "../api/createClient.js";
import type { Volatility } from "../api/schemas/volatility.js";
import type { DataFrame } from "../data/danfo.js";
import { toDataFrame } from "../data/toDataFrame.js";
import { ENDPOINTS } from "../api/endpoints.js";
import { responseTimeMs } from "../api/responseTimeMs.js";
import type { RecordColumns } from "./recordsToColumns.js";

/**
 * A normalised `/v1/signals/volatility` response as columns, one row per
 * coin: `time` (epoch ms), `coin`, `mark_price`, `realized_vol_<w>` (annualised
 * percent, as the service sends it) and `atr_<w>` (price units) for each
 * window w the service sends (`5m, 1h, 4h, 24h`), `regime`.
 * @example volatilityColumns(await client.volatility()).realized_vol_1h // [54.9, 73.4, ...]
 */
export function volatilityColumns(vol: Pick<Volatility, "volatility" | "timestamp">): RecordColumns {
  const entries = vol.volatility;
  const windows: string[] = [];
  for (const e of entries) for (const w of [...Object.keys(e.realized_vol), ...Object.keys(e.atr)]) if (!windows.includes(w)) windows.push(w);
  const out: RecordColumns = {
    time: entries.map((e, i) => responseTimeMs(e.timestamp || vol.timestamp, ENDPOINTS.volatility, "volatility.timestamp", i)),
    coin: entries.map((e) => e.coin),
    mark_price: entries.map((e) => e.mark_price),
  };
  for (const w of windows) out[`realized_vol_${w}`] = entries.map((e) => e.realized_vol[w] ?? Number.NaN);
  for (const w of windows) out[`atr_${w}`] = entries.map((e) => e.atr[w] ?? Number.NaN);
  out["regime"] = entries.map((e) => e.regime ?? "");
  return out;
}

/**
 * `/v1/signals/volatility` as a danfo DataFrame, one row per coin (see {@link volatilityColumns}).
 * @example (await loadVolatility(client)).shape // [4, 12]
 */
export async function loadVolatility(client: MarketIntelClient, params?: CoinParams): Promise<DataFrame> {
  return toDataFrame(volatilityColumns(await client.volatility(params)));
}
