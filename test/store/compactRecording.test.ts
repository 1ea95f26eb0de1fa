import { spawn } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { compactRecording, openStore } from "../../src/store/index.js";
import { duck, lit } from "./helpers/duckdb.js";
import { bundleChild } from "../support/bundleChild.js";
import { scaledMs } from "../support/timeScale.js";

const here = dirname(fileURLToPath(import.meta.url));
// Recording of 1..6 Nov 2026; "now" is 6 Nov 12:00 UTC, so 1..4 Nov are closed (ended a day or more ago).
const NOW = Date.UTC(2026, 10, 6, 12);
const DAYS = ["2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05", "2026-11-06"];
const ENDPOINTS = ["composite", "regime"];
const PER_DAY = 150;

/** A recording written line by line the way the recorder writes them (key first), with every hazard: a repeated line, a torn tail. */
function makeRecording(dir: string): void {
  for (const endpoint of ENDPOINTS) {
    mkdirSync(join(dir, endpoint), { recursive: true });
    DAYS.forEach((day, d) => {
      const lines: string[] = [];
      for (let i = 0; i < PER_DAY; i++) {
        const time = Date.parse(`${day}T00:00:00Z`) + i * 60_000;
        const key = new Date(time).toISOString();
        lines.push(`{"key":"${key}","endpoint":"${endpoint}","time":${time},"fetched_at":${time + 500},"body":{"timestamp":"${key}","i":${i},"d":${d},"text":"a \\"quoted\\" \\u00e9 value"}}`);
      }
      lines.push(lines[7] as string); // the same response recorded twice
      writeFileSync(join(dir, endpoint, `${day}.jsonl`), `${lines.join("\n")}\n`);
    });
  }
  appendFileSync(join(dir, "regime", "2026-11-06.jsonl"), '{"key":"2026-11-06T23:00:00.000Z","endpoint":"reg'); // torn: recorder killed mid-write
}

/** Every complete line's endpoint|key, read independently of the library (plain JSON.parse). */
function linesIn(dir: string): string[] {
  const out: string[] = [];
  for (const endpoint of ENDPOINTS) {
    const sub = join(dir, endpoint);
    if (!existsSync(sub)) continue;
    for (const f of readdirSync(sub).filter((x) => x.endsWith(".jsonl"))) {
      const text = readFileSync(join(sub, f), "utf8");
      for (const line of text.slice(0, text.lastIndexOf("\n") + 1).split("\n")) {
        if (line === "") continue;
        const o = JSON.parse(line) as { endpoint: string; key: string };
        out.push(`${o.endpoint}|${o.key}`);
      }
    }
  }
  return out;
}

/** endpoint|key of every row in the store, read by DuckDB (an independent Parquet reader). */
async function storeKeys(storeDir: string): Promise<string[]> {
  if (!existsSync(storeDir) || readdirSync(storeDir).length === 0) return [];
  const rows = await duck(`select endpoint, key from read_parquet(${lit(join(storeDir, "**", "*.parquet"))}, hive_partitioning = true)`);
  return rows.map((r) => `${String(r.endpoint)}|${String(r.key)}`);
}

/** Run the compaction child; killAt > 0: it kills itself after that step; else `killAfter`: killed by this process `ms` after it reported step `step` (a moment between steps, mid-write). */
function runChild(dir: string, killAt: number, killAfter?: { step: number; ms: number }): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundleChild(join(here, "helpers", "compactChild.ts")), dir, String(NOW), String(killAt)], { stdio: ["ignore", "pipe", "ignore"] });
    let timer: NodeJS.Timeout | undefined;
    let steps = 0;
    child.stdout.on("data", (d: Buffer) => {
      steps += d.toString().split("step").length - 1;
      if (killAfter !== undefined && timer === undefined && steps >= killAfter.step) timer = setTimeout(() => child.kill("SIGKILL"), killAfter.ms);
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (timer !== undefined) clearTimeout(timer);
      resolve(code);
    });
  });
}

let original: string[];
let template: string;
beforeAll(() => {
  template = mkdtempSync(join(tmpdir(), "milab-compact-template-"));
  makeRecording(template);
  original = [...new Set(linesIn(template))].sort();
  expect(original.length).toBe(ENDPOINTS.length * DAYS.length * PER_DAY); // 1800 distinct responses
});

function fresh(): string {
  const dir = mkdtempSync(join(tmpdir(), "milab-compact-"));
  cpSync(template, dir, { recursive: true });
  return dir;
}

describe("compactRecording", () => {
  it("moves every record into the store once; removes closed days' files only; a re-run changes nothing", async () => {
    const dir = fresh();
    const stats = await compactRecording(dir, { clock: () => NOW });
    expect(stats).toEqual({ files: 12, lines: 12 * (PER_DAY + 1), records: 1800, duplicates: 12, corrupt: 0, removed: 8 });
    const keys = await storeKeys(join(dir, "store"));
    expect(keys.length).toBe(1800);
    expect([...keys].sort()).toEqual(original);
    expect(readdirSync(join(dir, "composite")).sort()).toEqual(["2026-11-05.jsonl", "2026-11-06.jsonl"]); // open days kept
    const part = join(dir, "store", "endpoint=composite", "day=2026-11-01", "part-0.parquet");
    const mtime = statSync(part).mtimeMs;
    const again = await compactRecording(dir, { clock: () => NOW });
    expect(again.records).toBe(4 * PER_DAY); // the open days' partitions, read again
    expect(statSync(part).mtimeMs).toBe(mtime);
    expect((await storeKeys(join(dir, "store"))).length).toBe(1800);
    // Read back: the store plus the JSON lines still there, as loadRecording would give them.
    const rec = await openStore(join(dir, "store")).loadRecording({ jsonl: dir });
    expect(rec.responses.composite!.length).toBe(900);
    expect(rec.responses.regime!.length).toBe(900);
    expect(rec.responses.composite![7]!.body).toEqual({ timestamp: "2026-11-01T00:07:00.000Z", i: 7, d: 0, text: 'a "quoted" é value' });
    expect(rec.stats.torn).toBe(1);
  });

  it("a file with a corrupt line is compacted but never removed", async () => {
    const dir = fresh();
    appendFileSync(join(dir, "composite", "2026-11-01.jsonl"), "not json\n");
    const stats = await compactRecording(dir, { clock: () => NOW });
    expect(stats.corrupt).toBe(1);
    expect(stats.removed).toBe(7);
    expect(existsSync(join(dir, "composite", "2026-11-01.jsonl"))).toBe(true);
  });

  it("SIGKILLed at any step (or at a random moment) loses nothing and duplicates nothing", async () => {
    // Steps alternate: partition written, file removed (closed days), ...; kill right after several of them.
    for (const killAt of [1, 2, 5, 13]) {
      const dir = fresh();
      expect(await runChild(dir, killAt)).toBeNull(); // killed by the signal
      const inStore = await storeKeys(join(dir, "store"));
      expect(new Set(inStore).size).toBe(inStore.length); // no duplicate in the store
      expect([...new Set([...inStore, ...linesIn(dir)])].sort()).toEqual(original); // nothing lost
      await compactRecording(dir, { clock: () => NOW }); // the re-run finishes the job
      const after = await storeKeys(join(dir, "store"));
      expect(after.length).toBe(1800);
      expect([...after].sort()).toEqual(original);
    }
    // Killed by the parent 15 ms after step 3 (the child was started at plain-node speed, so a fixed time from spawn
    // would often land after it finished).
    for (const killAfter of [{ step: 3, ms: 15 }]) {
      const dir = fresh();
      expect(await runChild(dir, 0, killAfter)).toBeNull();
      const inStore = await storeKeys(join(dir, "store"));
      expect(new Set(inStore).size).toBe(inStore.length);
      expect([...new Set([...inStore, ...linesIn(dir)])].sort()).toEqual(original);
      await compactRecording(dir, { clock: () => NOW });
      expect([...(await storeKeys(join(dir, "store")))].sort()).toEqual(original);
    }
  }, scaledMs(180_000));

  it("rejects a folder that does not exist", async () => {
    await expect(compactRecording("/nonexistent/rec")).rejects.toThrow('compactRecording: "/nonexistent/rec" is not a folder');
  });
});
