import type { CoinParams, MarketIntelClient } from "../api/createClient.js";
import type { Composite } from "../api/schemas/composite.js";
import type { DataFrame } from "../data/danfo.js";
import { toDataFrame } from "../data/toDataFrame.js";
import { ENDPOINTS } from "../api/endpoints.js";
import { responseTimeMs } from "../api/responseTimeMs.js";
import type { RecordColumns } from "./recordsToColumns.js";

/**
 * A normalised `/v1/signals/composite` response as columns, one row per coin:
 * `time` (the signal's timestamp, epoch ms), `coin`, `composite_score`,
 * `regime`, `vol_regime`, `confidence`, `risk_warnings` (joined with "; "),
 * then per component `<name>` (its raw value) and `<name>_score`, in the
 * order the service lists them (`imbalance, funding, basis_spread,
 * momentum_5m, gas`). Components a coin lacks are NaN. The value columns use
 * the bare component names so the table feeds `replayComposite` directly.
 * @example compositeColumns(await client.composite()).imbalance // [0.72, 0.46, ...]
 */
export function compositeColumns(composite: Pick<Composite, "signals">): RecordColumns {
  const signals = composite.signals;
  const names: string[] = [];
  for (const s of signals) for (const k of Object.keys(s.components)) if (!names.includes(k)) names.push(k);
  const out: RecordColumns = {
    time: signals.map((s, i) => responseTimeMs(s.timestamp, ENDPOINTS.composite, "signals.timestamp", i)),
    coin: signals.map((s) => s.coin),
    composite_score: signals.map((s) => s.composite_score ?? Number.NaN),
    regime: signals.map((s) => s.regime),
    vol_regime: signals.map((s) => s.vol_regime),
    confidence: signals.map((s) => s.confidence ?? Number.NaN),
    risk_warnings: signals.map((s) => s.risk_warnings.join("; ")),
  };
  for (const name of names) {
    out[name] = signals.map((s) => s.components[name]?.value ?? Number.NaN);
    out[`${name}_score`] = signals.map((s) => s.components[name]?.score ?? Number.NaN);
  }
  return out;
}

/**
 * `/v1/signals/composite` as a danfo DataFrame, one row per coin, one column
 * per component value and score (see {@link compositeColumns}).
 * @example (await loadComposite(client, { coin: "BTC" })).columns.slice(0, 3) // ["time", "coin", "composite_score"]
 */
export async function loadComposite(client: MarketIntelClient, params?: CoinParams): Promise<DataFrame> {
  return toDataFrame(compositeColumns(await client.composite(params)));
}
