import { createHash } from "node:crypto";
import { join } from "node:path";
import { responseTimestamp } from "./responseTimestamp.js";

/** One recorded response, as a line of a recording file. */
export interface RecordedResponse {
  /** Client method name of the endpoint, e.g. `"composite"`. */
  readonly endpoint: string;
  /** Dedupe key: the response's own time stamp (ISO) or, when it has none, `sha1:<hash of the body>`. */
  readonly key: string;
  /** The response's own time (epoch ms), or the fetch time when it has none. */
  readonly time: number;
  /** When the recorder received it (epoch ms). */
  readonly fetchedAt: number;
  /** The body exactly as the service sent it (parsed JSON). */
  readonly body: unknown;
}

/** The dedupe key and time of a response body (see {@link RecordedResponse}). @internal */
export function recordingKey(body: unknown, fetchedAt: number): { key: string; time: number } {
  const t = responseTimestamp(body);
  if (Number.isFinite(t)) return { key: new Date(t).toISOString(), time: t };
  return { key: `sha1:${createHash("sha1").update(JSON.stringify(body)).digest("hex")}`, time: fetchedAt };
}

const DAY_MS = 86_400_000;

/**
 * The file a response is appended to, the one rule shared by the recorder
 * and compaction: `<dir>/<endpoint>/<D>.jsonl`, D the UTC day of the
 * response's own time, while D is today or yesterday by the recorder's clock
 * (`appendedAt`); an older response (late data, a replayed period, clock
 * skew) goes to `<D>.late-<today>.jsonl` instead. So the recorder appends
 * only to files named after today or yesterday, and compaction, which
 * removes only files whose append day ended over a day ago (see
 * {@link recordingFileDays}), never removes a file still being appended to.
 * @internal
 */
export function recordingPath(dir: string, endpoint: string, time: number, appendedAt: number): string {
  const day = new Date(time).toISOString().slice(0, 10);
  const today = new Date(appendedAt).toISOString().slice(0, 10);
  const yesterday = new Date(appendedAt - DAY_MS).toISOString().slice(0, 10);
  return join(dir, endpoint, day >= yesterday ? `${day}.jsonl` : `${day}.late-${today}.jsonl`);
}

/**
 * The days of a recording file's name (see {@link recordingPath}): `day`, the
 * UTC day of its responses' time, and `appended`, the last day the recorder
 * may append to it (the name's day, or a late file's `late-` day); undefined
 * for a name the recorder does not write. A compaction's kept file (see
 * {@link keptFileName}) has the days of the file it came from.
 * @internal
 */
export function recordingFileDays(name: string): { readonly day: string; readonly appended: string } | undefined {
  const m = /^(\d{4}-\d\d-\d\d)(?:\.late-(\d{4}-\d\d-\d\d))?(?:\.kept-[0-9a-z-]+)?\.jsonl$/.exec(name);
  if (m === null) return undefined;
  const day = m[1] as string;
  return { day, appended: m[2] ?? day };
}

/**
 * The name under which compaction keeps lines of a recording file `name` it
 * claimed but had not compacted: `<day>[.late-<d>].kept-<id>.jsonl`, `id`
 * unique (lowercase letters, digits, `-`). The recorder never appends to
 * such a file; it is written whole, and read and compacted like its source.
 * @example keptFileName("2026-11-20.late-2026-11-23.jsonl", "4242-a1b2") // "2026-11-20.late-2026-11-23.kept-4242-a1b2.jsonl"
 * @internal
 */
export function keptFileName(name: string, id: string): string {
  const base = name.replace(/(?:\.kept-[0-9a-z-]+)?\.jsonl$/, "");
  return `${base}.kept-${id}.jsonl`;
}

/** One JSON line, newline-terminated; the key comes first so a resume can read keys without parsing bodies. @internal */
export function formatRecordingLine(r: RecordedResponse): string {
  return `{"key":${JSON.stringify(r.key)},"endpoint":${JSON.stringify(r.endpoint)},"time":${r.time},"fetched_at":${r.fetchedAt},"body":${JSON.stringify(r.body)}}\n`;
}

/** The key of a line without parsing the rest; undefined for a line not written by the recorder. @internal */
export function lineKey(line: string): string | undefined {
  const m = /^\{"key":("(?:[^"\\]|\\.)*")/.exec(line);
  if (m === null) return undefined;
  try {
    return JSON.parse(m[1] as string) as string;
  } catch {
    return undefined; // a bad escape or a raw control character: not a line the recorder wrote
  }
}

/** Parse a complete line; undefined when it is not a valid record (torn or corrupt). @internal */
export function parseRecordingLine(line: string): RecordedResponse | undefined {
  let o: unknown;
  try {
    o = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof o !== "object" || o === null) return undefined;
  const r = o as Record<string, unknown>;
  if (typeof r["key"] !== "string" || typeof r["endpoint"] !== "string" || typeof r["time"] !== "number" || !("body" in r)) return undefined;
  return { key: r["key"], endpoint: r["endpoint"], time: r["time"], fetchedAt: typeof r["fetched_at"] === "number" ? r["fetched_at"] : Number.NaN, body: r["body"] };
}
