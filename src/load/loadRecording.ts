import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { checkOptions, type OptionsCheck } from "../options/checkOptions.js";
import { LOAD_RECORDING_OPTION_SPECS } from "./loaderOptionSpecs.js";
import { join } from "node:path";
import type { DataFrame } from "../data/danfo.js";
import type { Panel } from "../data/Panel.js";
import { toEpochMs } from "../data/toEpochMs.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { createRecording } from "./createRecording.js";
import { parseRecordingLine, type RecordedResponse } from "./recordingLine.js";
import type { RecordColumns } from "./recordsToColumns.js";

/** Counts of what `loadRecording` read and left out. */
export interface RecordingStats {
  readonly files: number;
  /** Complete records kept (after removing duplicates). */
  readonly records: number;
  /** Unterminated last lines (a recorder killed mid-write), ignored. */
  readonly torn: number;
  /** Complete lines that are not valid records, ignored. */
  readonly corrupt: number;
  /** Records seen again with the same endpoint and key (overlapping recordings), dropped. */
  readonly duplicates: number;
  /** Of those, how many had a different body than the record kept (the earliest fetched is kept). */
  readonly conflicts: number;
  /** Records whose body no longer matches the endpoint's schema, left out of tables (kept in `responses`). */
  readonly invalid: number;
}

/** A recording, read back. */
export interface Recording {
  /** Per endpoint, the recorded responses in time order, each once. */
  readonly responses: Readonly<Record<string, readonly RecordedResponse[]>>;
  readonly stats: RecordingStats;
  /**
   * The endpoint's responses as one long table: each response's rows (one
   * per coin for composite, volatility, regime, whale flow; one per metric
   * for snapshot; the record array for the others, see the loaders), stacked
   * in time order, with `time` = the service's own time stamp of the row.
   */
  table(endpoint: string): RecordColumns;
  /** {@link Recording.table} as a danfo DataFrame. */
  toDataFrame(endpoint: string): DataFrame;
  /**
   * The recorded composite of each coin over time, ready for `replayComposite`:
   * per coin a {@link Panel} with `composite_score`, `confidence`, each
   * component's value under its bare name (`imbalance, funding, basis_spread,
   * momentum_5m, gas`) and `<name>_score`. Times are the signals' own stamps,
   * ascending and unique (a repeat keeps the later record).
   */
  compositeByCoin(): Record<string, Panel>;
}

/** Options of {@link loadRecording}: read only part of a long recording. */
export interface LoadRecordingOptions {
  /** Endpoints to read (subfolder names, e.g. `["composite"]`) [all]. */
  readonly endpoints?: readonly string[];
  /** Earliest response time to keep, epoch ms, ISO string or Date (inclusive) [none]. */
  readonly start?: number | string | Date;
  /** Latest response time to keep (inclusive) [none]. */
  readonly end?: number | string | Date;
}

/** How loadRecording's options are checked where they enter (checkOptions). */
const LOAD_RECORDING_CHECK: OptionsCheck = { where: "loadRecording", specs: LOAD_RECORDING_OPTION_SPECS, example: 'loadRecording("rec", { endpoints: ["composite"] })' };

function bound(value: number | string | Date | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const ms = toEpochMs(value, { invalid: "nan" });
  if (Number.isNaN(ms)) {
    throw new InvalidArgumentError(name, `loadRecording: ${name} must be epoch ms, an ISO 8601 time or a Date, got ${JSON.stringify(value)}`);
  }
  return ms;
}

/**
 * Read a recording made by `record` (or several directories of one, e.g.
 * overlapping runs on two machines) into frames. Rules: a last line without
 * its newline is a torn write and is ignored (`stats.torn`); another line that
 * is not a valid record is ignored (`stats.corrupt`); a record whose endpoint
 * and key (its own time stamp) were already read is dropped
 * (`stats.duplicates`), keeping the one fetched first. Nothing is re-timed:
 * rows carry the service's own time stamps. For long recordings, read a part:
 * `{ endpoints: ["composite"], start, end }` skips other folders and day files.
 * Memory: every kept body is held (a month of one endpoint polled each
 * minute is 43 200 bodies).
 * @throws InvalidArgumentError when a directory does not exist or start/end is unreadable
 * @example
 * const rec = loadRecording("rec");
 * const btc = rec.compositeByCoin().BTC; // Panel: time, composite_score, imbalance, funding, ...
 * rec.toDataFrame("volatility").head().print();
 */
export function loadRecording(dir: string | readonly string[], options: LoadRecordingOptions = {}): Recording {
  options = checkOptions(options, LOAD_RECORDING_CHECK);
  const dirs = typeof dir === "string" ? [dir] : [...dir];
  const start = bound(options.start, "start", -Infinity);
  const end = bound(options.end, "end", Infinity);
  const only = options.endpoints === undefined ? undefined : new Set(options.endpoints);
  const startDay = Number.isFinite(start) ? new Date(start).toISOString().slice(0, 10) : "";
  const endDay = Number.isFinite(end) ? new Date(end).toISOString().slice(0, 10) : "9999";
  const records: RecordedResponse[] = [];
  let files = 0;
  let torn = 0;
  let corrupt = 0;
  for (const d of dirs) {
    if (typeof d !== "string" || !existsSync(d) || !statSync(d).isDirectory()) {
      throw new InvalidArgumentError("dir", `loadRecording: ${JSON.stringify(d)} is not a directory (a recording made by record(client, { dir }))`);
    }
    for (const endpoint of readdirSync(d).sort()) {
      const sub = join(d, endpoint);
      if (endpoint.startsWith(".") || (only !== undefined && !only.has(endpoint)) || !statSync(sub).isDirectory()) continue;
      for (const name of readdirSync(sub).filter((f) => f.endsWith(".jsonl") && !f.startsWith(".")).sort()) {
        const day = name.slice(0, 10); // a late file (<day>.late-<today>.jsonl) too: files are named by their responses' day
        if (day < startDay || day > endDay) continue; // files are per UTC day of the response time
        files++;
        const text = readFileSync(join(sub, name), "utf8");
        const lines = text.split("\n");
        const last = lines.pop() as string; // "" when the file ends with a newline
        if (last !== "") torn++;
        for (const line of lines) {
          if (line === "") continue;
          const r = parseRecordingLine(line);
          if (r === undefined || r.endpoint !== endpoint) {
            corrupt++;
            continue;
          }
          if (r.time < start || r.time > end) continue;
          records.push(r);
        }
      }
    }
  }
  return createRecording(records, { files, torn, corrupt });
}
