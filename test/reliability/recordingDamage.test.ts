/**
 * Damaged recording partitions (issue 31, "verifies on every read"): 60
 * days of a recording, each compacted into the store (one store and one
 * DuckDB for all, each day's partition removed after its reads; seeded: 1-40
 * responses with JSON bodies of 1-12 signals and text fields), then 1-3 bytes
 * flipped at seeded positions in the first 90% of the file (the column data,
 * mostly the `key` and `body` text). Read back with store.loadRecording and
 * through SQL (`select key, body`): each read gives exactly the records
 * written or a typed error, never another text. Before text columns carried
 * checksums, such flips gave changed bodies without an error. Reference
 * values are the recorded lines themselves.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { scaledMs } from "../support/timeScale.js";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MarketIntelError } from "../../src/errors/index.js";
import { formatRecordingLine } from "../../src/load/recordingLine.js";
import { compactRecording, openStore } from "../../src/store/index.js";
import { mulberry32 } from "../support/mulberry32.js";

const root = mkdtempSync(join(tmpdir(), "milab-rel-recdamage-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const T0 = Date.UTC(2026, 10, 1);
const WORDS = ["alpha", "beta", "gamma", "delta", "épsilon", "ζeta", "eta", "theta"];

describe("bytes flipped in recording partitions", () => {
  it("60 damaged day files: loadRecording and SQL give the records written or a typed error, never changed text", { timeout: scaledMs(300_000) }, async () => {
    const rng = mulberry32(20261128);
    const outcome = { same: 0, typed: 0, changed: 0, untyped: 0 };
    const changed: string[] = [];
    const check = async (name: string, read: () => Promise<boolean>): Promise<void> => {
      try {
        if (await read()) outcome.same++;
        else {
          outcome.changed++;
          changed.push(name);
        }
      } catch (e) {
        if (e instanceof MarketIntelError) outcome.typed++;
        else outcome.untyped++;
      }
    };
    // One recording folder, one store and one DuckDB for all 60: file f is day f, its partition removed after its reads.
    const dir = join(root, "rec");
    mkdirSync(join(dir, "composite"), { recursive: true });
    const store = openStore(join(dir, "store"));
    for (let f = 0; f < 60; f++) {
      const day0 = T0 + f * 86_400_000;
      const day = new Date(day0).toISOString().slice(0, 10);
      const n = 1 + Math.floor(rng() * 40);
      const written = new Map<string, string>();
      let text = "";
      for (let i = 0; i < n; i++) {
        const time = day0 + i * 60_000;
        const key = new Date(time).toISOString();
        const signals = Array.from({ length: 1 + Math.floor(rng() * 12) }, (_, s) => ({ coin: `C${s}`, note: WORDS[Math.floor(rng() * WORDS.length)], score: Math.round(rng() * 1e4) / 1e4 }));
        const body = { timestamp: key, signals };
        written.set(key, JSON.stringify(body));
        text += formatRecordingLine({ endpoint: "composite", key, time, fetchedAt: time + 100, body });
      }
      writeFileSync(join(dir, "composite", `${day}.jsonl`), text);
      await compactRecording(dir, { clock: () => day0 + 5 * 86_400_000 });
      const dayDir = join(dir, "store", "endpoint=composite", `day=${day}`);
      const path = join(dayDir, "part-0.parquet");
      const bytes = readFileSync(path);
      const span = Math.floor(bytes.length * 0.9);
      const flips = 1 + Math.floor(rng() * 3);
      for (let k = 0; k < flips; k++) {
        const at = 4 + Math.floor(rng() * (span - 8));
        bytes[at] = (bytes[at] as number) ^ (1 << Math.floor(rng() * 8));
      }
      writeFileSync(path, bytes);
      const same = (pairs: [string, string][]): boolean => pairs.length === written.size && pairs.every(([k, b]) => written.get(k) === b);
      try {
        await check(`r${f} loadRecording`, async () => {
          const got = await store.loadRecording();
          return same((got.responses["composite"] ?? []).map((r) => [r.key, JSON.stringify(r.body)]));
        });
        await check(`r${f} SQL`, async () => {
          const got = await store.queryColumns("select key, body from composite order by time");
          const keys = got["key"] as string[];
          const bodies = got["body"] as string[];
          return same(keys.map((k, i) => [k, bodies[i] as string]));
        });
      } finally {
        rmSync(dayDir, { recursive: true });
      }
    }
    store.close();
    console.log(`reliability: damaged recording partitions: 60 files x 2 reads, ${outcome.typed} typed errors, ${outcome.same} read as written, ${outcome.changed} changed, ${outcome.untyped} untyped errors`);
    expect(changed).toEqual([]);
    expect(outcome.untyped).toBe(0);
  });
});
