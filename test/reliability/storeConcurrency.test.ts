/**
 * Reliability of the store under concurrent writers (issue 22, defect 1):
 * - three saveHistory calls of one process at once (Promise.all), three
 *   metrics over the same 3 days: every one of the 3 x 4,320 points reads back;
 * - loadHistory({ store }) fetching 6 metrics at a time (its default
 *   concurrency): every column equals a direct fetch, in the first result and
 *   when a fresh store object reads the store again (no request);
 * - two processes saving different metrics to the same days at the same
 *   instant, hour by hour: every point of both reads back;
 * - a store lock left by a dead process does not stop saving (stale lock taken
 *   over), one held by a live process makes a save wait for it.
 * Reference values are the inputs themselves (value i at minute i) and the
 * replay server's answer without a store.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/index.js";
import { fromDataFrame } from "../../src/data/index.js";
import { loadHistory } from "../../src/load/index.js";
import { startReplayServer, type ReplayServer } from "../../src/server/index.js";
import { StoreLockedError } from "../../src/errors/index.js";
import { openStore } from "../../src/store/index.js";
import { scaledMs } from "../support/timeScale.js";
import { bundleChild } from "../support/bundleChild.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = mkdtempSync(join(tmpdir(), "milab-rel-store-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// 2026-11-01T00:00:00Z
const T0 = Date.UTC(2026, 10, 1);
const POINTS = 3 * 1440;
const minutes = (n: number, from = T0): number[] => Array.from({ length: n }, (_, i) => from + i * 60_000);
const figures: string[] = [];
afterAll(() => console.log(`reliability: store writers:\n${figures.map((f) => `  ${f}`).join("\n")}`));

describe("saves of one process at once", () => {
  it("Promise.all of three saveHistory calls over the same 3 days keeps all 3 x 4,320 points", async () => {
    const dir = join(root, "three");
    const store = openStore(dir);
    const time = minutes(POINTS);
    const ids = ["btc_price", "btc_volume", "btc_funding_rate"];
    await Promise.all(ids.map((metricId, k) => store.saveHistory({ metricId, time, value: time.map((_, i) => i + 1000 * k) })));
    const p = await openStore(dir).readHistory({ metricId: ids });
    expect(Array.from(p.time)).toEqual(time);
    const kept = ids.map((id) => p.columns[id]!.filter((v) => v === v).length);
    figures.push(`Promise.all of 3 saves x ${POINTS} points: ${kept.join(", ")} read back`);
    expect(kept).toEqual([POINTS, POINTS, POINTS]);
    ids.forEach((id, k) => expect(Array.from(p.columns[id]!)).toEqual(time.map((_, i) => i + 1000 * k)));
    store.close();
  });

  it("two store objects on one folder in one process are serialised too", async () => {
    const dir = join(root, "two-objects");
    const [a, b] = [openStore(dir), openStore(dir)];
    const time = minutes(POINTS);
    await Promise.all([a.saveHistory({ metricId: "eth_price", time, value: time.map((_, i) => i) }), b.saveHistory({ metricId: "eth_volume", time, value: time.map((_, i) => -i) })]);
    const p = await a.readHistory({ metricId: ["eth_price", "eth_volume"] });
    expect(Array.from(p.columns.eth_price!)).toEqual(time.map((_, i) => i));
    expect(Array.from(p.columns.eth_volume!)).toEqual(time.map((_, i) => -i));
    a.close();
    b.close();
  });
});

describe("loadHistory with a store, 6 metrics at a time", () => {
  let server: ReplayServer;
  const now = Date.UTC(2026, 10, 22, 12, 0, 30);
  beforeAll(async () => {
    server = await startReplayServer({ clock: () => now, seed: 11, rateLimitPerMinute: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  it("every column of 6 has all 1,440 points (24 h from 12:00:30 UTC: two days of the store, as 48 h were three), first and when read again from the store", async () => {
    const client = createClient({ baseUrl: server.url, rateLimitPerMinute: 100_000, cacheTtlMs: 0 });
    const params = { coin: "BTC", metricId: ["price", "perp_price", "basis_bps", "funding_rate", "imbalance", "volume"], hours: 24 } as const;
    const dir = join(root, "loader");
    const store = openStore(dir, { clock: () => now });
    const first = fromDataFrame(await loadHistory(client, { ...params, store }));
    const direct = fromDataFrame(await loadHistory(client, params));
    const again = fromDataFrame(await loadHistory(createClient({ baseUrl: "http://127.0.0.1:9", retries: 0 }), { ...params, store: openStore(dir, { clock: () => now }) }));
    const counts = Object.keys(direct.columns).map((c) => again.columns[c]?.filter((v) => v === v).length ?? 0);
    figures.push(`loadHistory of 6 metrics x 24 h through a store: ${counts.join(", ")} of 1440 points read back`);
    expect(direct.time.length).toBe(1440);
    for (const got of [first, again]) {
      expect(got.time).toEqual(direct.time);
      for (const c of Object.keys(direct.columns)) expect(got.columns[c]).toEqual(direct.columns[c]);
    }
    store.close();
  });
});

/** Start the saver child: `ready` resolves when it has opened the store, `go(at)` starts it, `done` resolves with its stdout after `ready` when it exits 0. */
function saver(args: readonly (string | number)[]): { ready: Promise<void>; go: (at: number) => void; done: Promise<string> } {
  const child = spawn(process.execPath, [bundleChild(join(here, "helpers", "storeSaver.ts")), ...args.map(String)], { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    if (out.startsWith("ready\n")) onReady();
  });
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const done = new Promise<string>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(out.replace(/^ready\n/, "")) : reject(new Error(`saver exited ${String(code)}: ${err}`))));
  });
  return { ready: Promise.race([ready, done.then(() => undefined)]), go: (at) => child.stdin.end(`go ${at}\n`), done };
}

describe("two processes on one store", () => {
  it("saving different metrics to the same 3 days at once, an hour per save: every point of both reads back", { timeout: scaledMs(120_000) }, async () => {
    const dir = join(root, "two-processes");
    mkdirSync(dir, { recursive: true });
    // Both start once both are ready (store open), spinning until the same instant 50 ms after.
    const savers = [saver([dir, "sol_price", T0, POINTS, 60, 0]), saver([dir, "sol_volume", T0, POINTS, 60, 100_000])];
    await Promise.all(savers.map((s) => s.ready));
    const at = Date.now() + 50;
    for (const s of savers) s.go(at);
    const outs = await Promise.all(savers.map((s) => s.done));
    expect(outs).toEqual(["done 72\n", "done 72\n"]);
    const p = await openStore(dir).readHistory({ metricId: ["sol_price", "sol_volume"] });
    const kept = ["sol_price", "sol_volume"].map((id) => p.columns[id]!.filter((v) => v === v).length);
    figures.push(`two processes x 72 saves x 60 points: ${kept.join(", ")} of ${POINTS} read back`);
    expect(Array.from(p.time)).toEqual(minutes(POINTS));
    expect(Array.from(p.columns.sol_price!)).toEqual(minutes(POINTS).map((_, i) => i));
    expect(Array.from(p.columns.sol_volume!)).toEqual(minutes(POINTS).map((_, i) => i + 100_000));
    expect(existsSync(join(dir, ".store.lock"))).toBe(false);
  });

  it("a lock left by a dead process is taken over; the save goes through and releases it", async () => {
    const dir = join(root, "stale");
    mkdirSync(dir, { recursive: true });
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid as number;
    writeFileSync(join(dir, ".store.lock"), JSON.stringify({ pid: dead, host: hostname(), startedAt: Date.now() - 5000 }));
    const store = openStore(dir);
    await store.saveHistory({ metricId: "btc_price", time: [T0], value: [1] });
    expect(Array.from((await store.readHistory({ metricId: "btc_price" })).columns.btc_price!)).toEqual([1]);
    expect(existsSync(join(dir, ".store.lock"))).toBe(false);
    store.close();
  });

  it("a lock held by a live process is waited for (StoreLockedError naming it after lockTimeoutMs), and taken once that process is gone", async () => {
    const dir = join(root, "live");
    mkdirSync(dir, { recursive: true });
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    const pid = holder.pid as number;
    writeFileSync(join(dir, ".store.lock"), JSON.stringify({ pid, host: hostname(), startedAt: Date.now() }));
    const store = openStore(dir, { lockTimeoutMs: 300 });
    const t = Date.now();
    const err = await store.saveHistory({ metricId: "btc_price", time: [T0], value: [1] }).catch((e: unknown) => e);
    expect(Date.now() - t).toBeGreaterThanOrEqual(250);
    expect(err).toBeInstanceOf(StoreLockedError);
    expect((err as StoreLockedError).holder?.pid).toBe(pid);
    expect((err as Error).message).toContain(`pid ${pid} on ${hostname()}`);
    expect((await store.readHistory({ metricId: "btc_price" })).time.length).toBe(0); // nothing written without the lock
    // The holder finishes while a save waits: the save then goes through.
    const waiting = openStore(dir, { lockTimeoutMs: scaledMs(30_000) }).saveHistory({ metricId: "btc_price", time: [T0], value: [2] });
    setTimeout(() => holder.kill("SIGKILL"), 200);
    await waiting;
    expect(Array.from((await store.readHistory({ metricId: "btc_price" })).columns.btc_price!)).toEqual([2]);
    expect(existsSync(join(dir, ".store.lock"))).toBe(false);
    store.close();
  });

  it("rejects a bad lockTimeoutMs", () => {
    expect(() => openStore(join(root, "args"), { lockTimeoutMs: -1 })).toThrow("openStore: lockTimeoutMs must be a number >= 0, got -1");
  });
});
