import type { RecordedResponse } from "./recordingLine.js";

/**
 * The recording rule for repeated records: a record whose endpoint and key
 * (its own time stamp) were already seen is a duplicate; of the copies, the
 * one fetched first is kept (`conflicts` counts duplicates whose body
 * differs). Returns, per endpoint, the kept records sorted by time (then
 * fetch time). Inputs are not modified.
 * @example dedupeRecords([a, aAgain]).duplicates // 1
 * @internal
 */
export function dedupeRecords(all: Iterable<RecordedResponse>): { byEndpoint: Map<string, RecordedResponse[]>; duplicates: number; conflicts: number } {
  const seen = new Map<string, Map<string, RecordedResponse>>();
  let duplicates = 0;
  let conflicts = 0;
  for (const r of all) {
    let m = seen.get(r.endpoint);
    if (m === undefined) seen.set(r.endpoint, (m = new Map()));
    const prev = m.get(r.key);
    if (prev === undefined) {
      m.set(r.key, r);
      continue;
    }
    duplicates++;
    if (JSON.stringify(prev.body) !== JSON.stringify(r.body)) conflicts++;
    if (r.fetchedAt < prev.fetchedAt) m.set(r.key, r);
  }
  const byEndpoint = new Map<string, RecordedResponse[]>();
  for (const [endpoint, m] of seen) byEndpoint.set(endpoint, [...m.values()].sort((a, b) => a.time - b.time || a.fetchedAt - b.fetchedAt));
  return { byEndpoint, duplicates, conflicts };
}
