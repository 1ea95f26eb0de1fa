import { normaliseComposite } from "../api/schemas/composite.js";
import { normaliseJsonObject } from "../api/schemas/jsonObject.js";
import { normaliseRegime } from "../api/schemas/regime.js";
import { normaliseSnapshot } from "../api/schemas/snapshot.js";
import { normaliseVolatility } from "../api/schemas/volatility.js";
import { normaliseWhaleFlow } from "../api/schemas/whaleFlow.js";
import type { Panel } from "../data/Panel.js";
import { sortDedupe } from "../data/sortDedupe.js";
import { toDataFrame } from "../data/toDataFrame.js";
import { concatColumns } from "./concatColumns.js";
import { compositeColumns } from "./loadComposite.js";
import { regimeColumns } from "./loadRegime.js";
import type { Recording, RecordingStats } from "./loadRecording.js";
import { signalRecordColumns } from "./loadSignalRecords.js";
import { snapshotColumns } from "./loadSnapshot.js";
import { volatilityColumns } from "./loadVolatility.js";
import { whaleFlowColumns } from "./loadWhaleFlow.js";
import { dedupeRecords } from "./dedupeRecords.js";
import type { RecordedResponse } from "./recordingLine.js";
import type { RecordColumns } from "./recordsToColumns.js";

function tableOf(endpoint: string, body: unknown): RecordColumns {
  switch (endpoint) {
    case "composite":
      return compositeColumns(normaliseComposite(body));
    case "volatility":
      return volatilityColumns(normaliseVolatility(body));
    case "snapshot":
      return snapshotColumns(normaliseSnapshot(body));
    case "regime":
      return regimeColumns(normaliseRegime(body));
    case "whaleFlow":
      return whaleFlowColumns(normaliseWhaleFlow(body));
    default:
      return signalRecordColumns(normaliseJsonObject(body, endpoint));
  }
}

/**
 * A {@link Recording} from records read by any source (the recorder's JSON
 * lines, or the Parquet store they were compacted into), with one rule: a
 * record whose endpoint and key were already seen is dropped
 * (`stats.duplicates`), keeping the one fetched first; `counts` are what the
 * source read and skipped.
 * @example createRecording([], { files: 0, torn: 0, corrupt: 0 }).stats.records // 0
 * @internal
 */
export function createRecording(all: Iterable<RecordedResponse>, counts: Pick<RecordingStats, "files" | "torn" | "corrupt">): Recording {
  const { files, torn, corrupt } = counts;
  const { byEndpoint, duplicates, conflicts } = dedupeRecords(all);
  const responses: Record<string, RecordedResponse[]> = {};
  let records = 0;
  for (const [endpoint, list] of byEndpoint) {
    responses[endpoint] = list;
    records += list.length;
  }
  let invalid = 0;
  const tables = new Map<string, RecordColumns>();
  const table = (endpoint: string): RecordColumns => {
    const cached = tables.get(endpoint);
    if (cached !== undefined) return cached;
    const parts: RecordColumns[] = [];
    for (const r of responses[endpoint] ?? []) {
      try {
        parts.push(tableOf(endpoint, r.body));
      } catch {
        invalid++;
      }
    }
    const t = concatColumns(parts);
    tables.set(endpoint, t);
    return t;
  };
  for (const endpoint of Object.keys(responses)) table(endpoint);
  const stats: RecordingStats = { files, records, torn, corrupt, duplicates, conflicts, invalid };
  return {
    responses,
    stats,
    table,
    toDataFrame: (endpoint) => toDataFrame(table(endpoint)),
    compositeByCoin: () => {
      const t = table("composite");
      const coins = (t["coin"] ?? []) as string[];
      const out: Record<string, Panel> = {};
      for (const coin of [...new Set(coins)]) {
        const rows = coins.flatMap((c, i) => (c === coin ? [i] : []));
        const cols: Record<string, number[]> = {};
        for (const [name, col] of Object.entries(t)) {
          if (name === "time" || col.length === 0 || typeof col[0] === "string") continue;
          cols[name] = rows.map((i) => col[i] as number);
        }
        out[coin] = sortDedupe(rows.map((i) => (t["time"] as number[])[i] as number), cols).panel;
      }
      return out;
    },
  };
}
