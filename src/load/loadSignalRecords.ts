import type { MarketIntelClient } from "../api/createClient.js";
import type { QueryParams } from "../api/checkQueryParams.js";
import { firstRecordArray } from "../api/firstRecordArray.js";
import type { DataFrame } from "../data/danfo.js";
import { toDataFrame } from "../data/toDataFrame.js";
import { responseTimeMs } from "../api/responseTimeMs.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { recordsToColumns, type RecordColumns } from "./recordsToColumns.js";

/** The endpoints whose fields the spec does not show, returned whole by the client. */
export const RECORD_ENDPOINTS = [
  "liquidations",
  "safety",
  "spreads",
  "correlation",
  "depth",
  "imbalance",
  "priorityGas",
  "squeeze",
  "arbitrage",
  "smartMoney",
] as const;

/** One of {@link RECORD_ENDPOINTS}. */
export type RecordEndpoint = (typeof RECORD_ENDPOINTS)[number];

/**
 * The record array of any endpoint body as columns: the first array of
 * records in it (`alerts`, `spreads`, `wallets`, `checks`, ...; see
 * `firstRecordArray`), flattened by {@link recordsToColumns}, with `time`
 * first: the record's own `timestamp` when it has one, else the body's. A body
 * with no non-empty record array (e.g. priority-gas, or liquidations with no
 * alerts) is one row of its own flattened fields.
 * @example signalRecordColumns({ timestamp: "2026-11-22T12:00:00Z", alerts: [{ coin: "BTC", level: "none" }] })
 * // { time: [1795348800000], coin: ["BTC"], level: ["none"] }
 */
export function signalRecordColumns(body: Readonly<Record<string, unknown>>): RecordColumns {
  const bodyTime = responseTimeMs(body["timestamp"] ?? body["time"], "signalRecordColumns", body["timestamp"] === undefined ? "time" : "timestamp");
  const records = firstRecordArray(body);
  if (records === undefined) {
    const cols = recordsToColumns([body]);
    delete cols["timestamp"];
    return { time: [bodyTime], ...cols };
  }
  const cols = recordsToColumns(records);
  const own = cols["timestamp"];
  const time = records.map((_, i) => {
    const t = own?.[i];
    return typeof t === "number" && Number.isFinite(t) ? t : bodyTime;
  });
  delete cols["timestamp"];
  return { time, ...cols };
}

/**
 * Load the record array of one of the other signal endpoints (liquidations,
 * spreads, depth, squeeze, ...) as a danfo DataFrame (see {@link signalRecordColumns}).
 * @throws InvalidArgumentError for an endpoint not in {@link RECORD_ENDPOINTS}
 * @example (await loadSignalRecords(client, "liquidations")).columns // ["time", "coin", "level", ...]
 */
export async function loadSignalRecords(client: MarketIntelClient, endpoint: RecordEndpoint, params?: QueryParams): Promise<DataFrame> {
  if (!(RECORD_ENDPOINTS as readonly string[]).includes(endpoint)) {
    throw new InvalidArgumentError("endpoint", `loadSignalRecords: endpoint must be one of ${RECORD_ENDPOINTS.join(", ")}, got ${JSON.stringify(endpoint)}`);
  }
  return toDataFrame(signalRecordColumns(await client[endpoint](params)));
}
