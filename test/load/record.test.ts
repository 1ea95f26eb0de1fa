/**
 * The recorder against the replay server: writes, skips what it has, resumes
 * after a torn write, and loadRecording's rules for torn, corrupt and
 * overlapping data. That it survives SIGKILL without losing or duplicating a
 * completed record is test/reliability/recorder.test.ts (50 kills of the same
 * child, test/load/helpers/recordChild.ts, in 5 folders; it also checks what
 * this file's 5-kill test did: no corrupt line, at most one torn line before
 * the next start, no duplicate line in the files).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/index.js";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { loadRecording, record, type RecordLog } from "../../src/load/index.js";
import { startReplayServer, type ReplayServer } from "../../src/server/index.js";
import { replayComposite } from "../../src/signals/index.js";

const BASE = Date.UTC(2026, 10, 22, 12, 0, 30);
const T0 = Date.now();
/** Simulated time runs 600x faster than the wall clock: a new minute (a new response) every 100 ms. */
const fast = (): number => BASE + (Date.now() - T0) * 600;

let fixed: ReplayServer;
let moving: ReplayServer;
const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), "milab-rec-"));
  dirs.push(d);
  return d;
};

beforeAll(async () => {
  fixed = await startReplayServer({ clock: () => BASE, rateLimitPerMinute: 0 });
  moving = await startReplayServer({ clock: fast, rateLimitPerMinute: 0 });
});
afterAll(async () => {
  await fixed.close();
  await moving.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const lines = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => readdirSync(join(dir, e.name)).map((f) => readFileSync(join(dir, e.name, f), "utf8")))
    .flatMap((text) => text.split("\n").filter((l) => l !== ""));

describe("record", () => {
  it("appends one JSON line per new response into <endpoint>/<day>.jsonl and skips what it already has", async () => {
    const dir = tmp();
    const client = createClient({ baseUrl: fixed.url, rateLimitPerMinute: 100_000 });
    const logs: RecordLog[] = [];
    const stats = await record(client, { dir, endpoints: ["composite", "snapshot"], everyMs: 10, maxPolls: 3, onLog: (l) => logs.push(l), clock: () => BASE }).done;
    // Fixed clock: the same composite and snapshot each poll (and the client's 45 s cache serves polls 2 and 3).
    expect(stats).toEqual({ polls: 3, written: 2, unchanged: 4, errors: 0, repaired: 0 });
    expect(readdirSync(join(dir, "composite"))).toEqual(["2026-11-22.jsonl"]);
    const line = JSON.parse(readFileSync(join(dir, "composite", "2026-11-22.jsonl"), "utf8").split("\n")[0]!);
    expect(line.key).toBe("2026-11-22T12:00:00.000Z");
    expect(line.body).toEqual(await client.raw("/v1/signals/composite")); // the body exactly as sent
    expect(logs.map((l) => l.event)).toEqual(["start", "write", "write", "unchanged", "unchanged", "unchanged", "unchanged", "stop"]);
    expect(existsSync(join(dir, ".lock"))).toBe(false);
    // A restart with a fresh client (empty cache) asks the server again and still writes nothing new.
    const again = await record(createClient({ baseUrl: fixed.url, cacheTtlMs: 0 }), { dir, endpoints: ["composite", "snapshot"], maxPolls: 1 }).done;
    expect(again).toMatchObject({ written: 0, unchanged: 2 });
    expect(lines(dir).length).toBe(2);
  });

  it("records a moving market over time; loadRecording gives each coin's composite components, ready for replay", async () => {
    const dir = tmp();
    const client = createClient({ baseUrl: moving.url, cacheTtlMs: 0, rateLimitPerMinute: 100_000 });
    const stats = await record(client, { dir, endpoints: ["composite", "volatility"], everyMs: 100, maxPolls: 6 }).done;
    expect(stats.written).toBeGreaterThanOrEqual(8);
    const rec = loadRecording(dir);
    expect(rec.stats).toMatchObject({ torn: 0, corrupt: 0, duplicates: 0, invalid: 0 });
    const byCoin = rec.compositeByCoin();
    expect(Object.keys(byCoin)).toEqual(["BTC", "ETH", "SOL", "HYPE"]);
    const btc = byCoin.BTC!;
    expect(btc.time.length).toBe(rec.responses.composite!.length);
    for (const name of ["imbalance", "funding", "basis_spread", "momentum_5m", "gas", "composite_score", "imbalance_score"]) {
      expect(btc.columns[name], name).toBeInstanceOf(Float64Array);
    }
    // Values equal the recorded bodies.
    const first = rec.responses.composite![0]!.body as { signals: { coin: string; components: Record<string, { value: number }> }[] };
    expect(btc.columns.funding![0]).toBe(first.signals.find((s) => s.coin === "BTC")!.components.funding!.value);
    for (let i = 1; i < btc.time.length; i++) expect(btc.time[i]!).toBeGreaterThan(btc.time[i - 1]!);
    // Replaying the recorded components with the default weights gives the recorded composite.
    const replay = replayComposite(btc);
    for (let i = 0; i < btc.time.length; i++) expect(replay.composite[i]!).toBeCloseTo(btc.columns.composite_score![i]!, 12);
    const vol = rec.toDataFrame("volatility");
    expect(vol.columns.slice(0, 3)).toEqual(["time", "coin", "mark_price"]);
    expect(vol.shape[0]).toBe(4 * rec.responses.volatility!.length);
  });

  it("a torn last line is ignored on read, cut off on the next start, and the recording resumes without duplicates", async () => {
    const dir = tmp();
    const client = () => createClient({ baseUrl: moving.url, cacheTtlMs: 0 });
    await record(client(), { dir, endpoints: ["composite"], maxPolls: 1 }).done;
    const file = join(dir, "composite", readdirSync(join(dir, "composite"))[0]!);
    const complete = readFileSync(file, "utf8");
    appendFileSync(file, complete.slice(0, 200)); // a write cut short by a kill
    const torn = loadRecording(dir);
    expect(torn.stats).toMatchObject({ records: 1, torn: 1, corrupt: 0 });
    const logs: RecordLog[] = [];
    await new Promise((r) => setTimeout(r, 150)); // the market moves on
    const stats = await record(client(), { dir, endpoints: ["composite"], maxPolls: 1, onLog: (l) => logs.push(l) }).done;
    expect(stats).toMatchObject({ repaired: 1, written: 1 });
    expect(logs.find((l) => l.event === "repair")?.message).toMatch(/cut a torn last line \(200 chars\)/);
    expect(readFileSync(file, "utf8").startsWith(complete)).toBe(true);
    const after = loadRecording(dir);
    expect(after.stats).toMatchObject({ records: 2, torn: 0, corrupt: 0, duplicates: 0 });
  });

  it("loadRecording: corrupt lines are counted and skipped; overlapping recordings keep each record once", async () => {
    const a = tmp();
    const client = createClient({ baseUrl: fixed.url, cacheTtlMs: 0 });
    await record(client, { dir: a, endpoints: ["composite", "regime"], maxPolls: 1, clock: () => BASE }).done;
    const b = tmp();
    await record(client, { dir: b, endpoints: ["composite"], maxPolls: 1, clock: () => BASE }).done;
    appendFileSync(join(b, "composite", "2026-11-22.jsonl"), "not json\n");
    const both = loadRecording([a, b]);
    expect(both.stats).toMatchObject({ files: 3, records: 2, duplicates: 1, conflicts: 0, corrupt: 1, torn: 0 });
    expect(both.responses.composite!.length).toBe(1);
    expect(both.table("regime")["coin"]).toEqual(["BTC", "ETH", "SOL", "HYPE"]);
    expect(both.table("depth")).toEqual({});
    expect(() => loadRecording(join(a, "nope"))).toThrow("loadRecording:");
    // Parts of a recording: by endpoint and by time (inclusive bounds, on the responses' own time).
    expect(Object.keys(loadRecording(a, { endpoints: ["regime"] }).responses)).toEqual(["regime"]);
    const noon = Date.UTC(2026, 10, 22, 12, 0);
    expect(loadRecording(a, { start: noon, end: noon }).stats.records).toBe(2);
    expect(loadRecording(a, { start: noon + 1 }).stats.records).toBe(0);
    expect(loadRecording(a, { end: "2026-11-21T23:59:59Z" }).stats.records).toBe(0);
    expect(() => loadRecording(a, { start: "soon" })).toThrow('loadRecording: start must be epoch ms, an ISO 8601 time or a Date, got "soon"');
    // An empty directory is an empty recording.
    expect(loadRecording(tmp()).stats.records).toBe(0);
  });

  it("request failures are logged and the recorder carries on", async () => {
    const dir = tmp();
    const flaky = await startReplayServer({ clock: () => BASE, rateLimitPerMinute: 0, faults: { errorRate: 1 } });
    try {
      const logs: RecordLog[] = [];
      const stats = await record(createClient({ baseUrl: flaky.url, retries: 0, cacheTtlMs: 0 }), {
        dir,
        endpoints: ["composite"],
        everyMs: 10,
        maxPolls: 2,
        onLog: (l) => logs.push(l),
      }).done;
      expect(stats).toMatchObject({ polls: 2, written: 0, errors: 2 });
      expect(logs.filter((l) => l.level === "error").length).toBe(2);
    } finally {
      await flaky.close();
    }
  });

  it("a response stamped outside the API's time range (1e20) is counted and logged as an error, never written, and polling goes on", async () => {
    // Before the fix the recorder died on toISOString() of a 1e20 stamp (issue 13, defect 3).
    const dir = tmp();
    const bad = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"timestamp":1e20,"signals":[]}');
    });
    await new Promise<void>((resolve) => bad.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = bad.address() as AddressInfo;
      const logs: RecordLog[] = [];
      const stats = await record(createClient({ baseUrl: `http://127.0.0.1:${port}`, retries: 0, cacheTtlMs: 0 }), {
        dir,
        endpoints: ["composite"],
        everyMs: 10,
        maxPolls: 2,
        onLog: (l) => logs.push(l),
      }).done;
      expect(stats).toMatchObject({ polls: 2, written: 0, errors: 2 });
      expect(logs.filter((l) => l.level === "error").every((l) => /timestamp/.test(l.message))).toBe(true);
      expect(loadRecording(dir).stats.records).toBe(0);
    } finally {
      await new Promise<void>((resolve) => bad.close(() => resolve()));
    }
  });

  it("stop() and an AbortSignal end it; one live recorder per directory", async () => {
    const dir = tmp();
    const client = createClient({ baseUrl: fixed.url });
    const rec = record(client, { dir, endpoints: ["composite"], everyMs: 3_600_000 });
    expect(() => record(client, { dir, endpoints: ["composite"] })).toThrow(/another recorder of this process \(pid \d+\) is writing to/);
    const stats = await rec.stop();
    expect(stats.polls).toBe(1);
    const controller = new AbortController();
    const second = record(client, { dir, endpoints: ["composite"], everyMs: 3_600_000, signal: controller.signal });
    controller.abort();
    expect((await second.done).polls).toBe(1);
    // A lock left by a dead process is taken over.
    writeFileSync(join(dir, ".lock"), "999999999");
    expect((await record(client, { dir, endpoints: ["composite"], maxPolls: 1 }).done).polls).toBe(1);
  });

  it("rejects bad options before doing anything", () => {
    const client = createClient({ baseUrl: fixed.url });
    expect(() => record(client, { dir: "" })).toThrow('record: dir must be a non-empty path, e.g. record(client, { dir: "recordings/mi" })');
    expect(() => record(client, { dir: tmp(), endpoints: ["history" as never] })).toThrow("record: endpoints must be a non-empty list of snapshot, volatility");
    expect(() => record(client, { dir: tmp(), endpoints: [] })).toThrow(InvalidArgumentError);
    expect(() => record(client, { dir: tmp(), everyMs: 0 })).toThrow("record: everyMs must be a number of milliseconds >= 10, got 0");
    // Renamed in 0.2: the old name is refused with the new one (not silently ignored).
    expect(() => record(client, { dir: tmp(), everySeconds: 60 } as never)).toThrow(
      'record: option "everySeconds" is now everyMs, in milliseconds (everySeconds: 60 -> everyMs: 60_000)',
    );
    expect(() => record(client, { dir: tmp(), maxPolls: 0 })).toThrow("record: maxPolls must be a positive integer, got 0");
  });
});
