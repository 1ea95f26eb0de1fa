/**
 * Issue 13 defects of the recorder and the history loader, each a behaviour
 * that failed before its fix: 2 the folder lock (typed error naming the
 * folder and the holder; stale locks by PID and host), 4 recordings never
 * hold the key even when a response echoes it, 7 disk errors typed and
 * logged, polling stops when the lock is lost, 8 loadHistory checks every
 * argument before its first request.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/index.js";
import { InvalidArgumentError, RecorderLockedError, RecordingWriteError } from "../../src/errors/index.js";
import { loadHistory, loadRecording, record, type RecordLog } from "../../src/load/index.js";
import { fixture, startFixtureServer } from "../api/helpers/fixtureServer.js";

const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), "milab-rech-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A client whose every request fails at once with HTTP 503 (the lock tests need no answers). */
const idle = createClient({ baseUrl: "http://127.0.0.1:9", retries: 0, fetch: (async () => new Response("{}", { status: 503 })) as unknown as typeof fetch });
/** The pid of a process that has exited. */
const deadPid = (): number => spawnSync(process.execPath, ["-e", "0"]).pid as number;

describe("defect 2: one recorder per folder", () => {
  it("a folder held by a live recorder on another host: RecorderLockedError naming the folder and the holder; the lock is left alone", () => {
    const dir = tmp();
    const holder = { pid: process.ppid, host: "other-host.example", startedAt: Date.UTC(2026, 10, 23, 8) };
    writeFileSync(join(dir, ".lock"), JSON.stringify(holder));
    let err: unknown;
    try {
      record(idle, { dir, maxPolls: 1 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RecorderLockedError);
    const e = err as RecorderLockedError;
    expect(e.dir).toBe(dir);
    expect(e.holder).toEqual(holder);
    expect(e.message).toContain(dir);
    expect(e.message).toContain(`pid ${process.ppid} on other-host.example`);
    expect(JSON.parse(readFileSync(join(dir, ".lock"), "utf8"))).toEqual(holder);
  });

  it("a lock of a dead process on another host is NOT taken over (its PID means nothing here)", () => {
    const dir = tmp();
    writeFileSync(join(dir, ".lock"), JSON.stringify({ pid: deadPid(), host: "other-host.example", startedAt: 0 }));
    expect(() => record(idle, { dir, maxPolls: 1 })).toThrow(RecorderLockedError);
  });

  it("a live process on this host holds it: refused", () => {
    const dir = tmp();
    writeFileSync(join(dir, ".lock"), JSON.stringify({ pid: process.ppid, host: hostname(), startedAt: Date.now() }));
    expect(() => record(idle, { dir, maxPolls: 1 })).toThrow(/another recorder \(pid \d+ on/);
  });

  it.each([
    ["JSON", (pid: number) => JSON.stringify({ pid, host: hostname(), startedAt: Date.now() - 1000 })],
    ["a bare pid (older recorders)", (pid: number) => String(pid)],
  ])("a lock (%s) left by a dead process on this host is taken over, with a warning", async (_name, content) => {
    const dir = tmp();
    writeFileSync(join(dir, ".lock"), content(deadPid()));
    const logs: RecordLog[] = [];
    const rec = record(idle, { dir, maxPolls: 1, onLog: (l) => logs.push(l) });
    const lock = JSON.parse(readFileSync(join(dir, ".lock"), "utf8")) as { pid: number; host: string };
    expect(lock).toMatchObject({ pid: process.pid, host: hostname() });
    expect(logs.find((l) => l.event === "stale-lock")?.message).toMatch(/took over a stale lock/);
    await rec.done;
    expect(existsSync(join(dir, ".lock"))).toBe(false);
  });

  it("a second recorder in the same process is refused with the typed error", async () => {
    const dir = tmp();
    const first = record(idle, { dir });
    expect(() => record(idle, { dir })).toThrow(RecorderLockedError);
    await first.stop();
    expect(existsSync(join(dir, ".lock"))).toBe(false);
  });
});

describe("defect 7: lock lost, disk errors", () => {
  it("polling stops at once when the lock is taken from it; the other holder's lock is left in place", async () => {
    const ts = Date.UTC(2026, 10, 23, 12);
    let n = 0;
    // A new composite each request (a new minute), so every poll writes.
    const s = await startFixtureServer(() => ({ body: { timestamp: new Date(ts + 60_000 * n++).toISOString(), signals: [] } }));
    try {
      const dir = tmp();
      const client = createClient({ baseUrl: s.url, cacheTtlMs: 0, rateLimitPerMinute: 100_000 });
      const logs: RecordLog[] = [];
      const rec = record(client, { dir, endpoints: ["composite"], everySeconds: 0.02, onLog: (l) => logs.push(l) });
      while (logs.filter((l) => l.event === "write").length < 2) await new Promise((r) => setTimeout(r, 10));
      const thief = JSON.stringify({ pid: process.ppid, host: hostname(), startedAt: Date.now() });
      writeFileSync(join(dir, ".lock"), thief);
      const err = await rec.done.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RecorderLockedError);
      expect((err as Error).message).toMatch(/lost its lock/);
      const written = logs.filter((l) => l.event === "write").length;
      const requests = n;
      await new Promise((r) => setTimeout(r, 100));
      expect(n).toBe(requests); // no poll after the stop
      expect(loadRecording(dir).stats.records).toBe(written);
      expect(readFileSync(join(dir, ".lock"), "utf8")).toBe(thief);
      expect(logs.at(-1)?.level).toBe("error");
    } finally {
      await s.close();
    }
  });

  it("a folder that cannot be created (a file is in the way): RecordingWriteError naming the path and errno", () => {
    const base = tmp();
    writeFileSync(join(base, "file"), "x");
    let err: unknown;
    try {
      record(idle, { dir: join(base, "file", "rec") });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RecordingWriteError);
    expect((err as RecordingWriteError).errno).toBe("ENOTDIR");
    expect((err as Error).message).toContain(join(base, "file", "rec"));
  });
});

describe("defect 4: recordings never contain the key", () => {
  it("a response that echoes the key (in a value and a field name) is stored with the key redacted", async () => {
    const KEY = "sk-live-0123456789abcdef";
    const s = await startFixtureServer((r) => ({
      body: { timestamp: "2026-11-23T12:00:00Z", signals: [], echo: `you sent ${String(r.headers["x-api-key"])}`, [KEY]: 1 },
    }));
    try {
      const dir = tmp();
      const client = createClient({ baseUrl: s.url, apiKey: KEY, rateLimitPerMinute: 100_000 });
      const stats = await record(client, { dir, endpoints: ["composite"], maxPolls: 1 }).done;
      expect(stats.written).toBe(1);
      const text = readdirSync(join(dir, "composite")).map((f) => readFileSync(join(dir, "composite", f), "utf8")).join("");
      expect(text).not.toContain(KEY);
      expect(text).toContain("you sent REDACTED");
      expect(loadRecording(dir).stats.records).toBe(1);
    } finally {
      await s.close();
    }
  });
});

describe("defect 8: loadHistory checks every argument before its first request", () => {
  let requests = 0;
  const counting = createClient({
    baseUrl: "http://127.0.0.1:9",
    fetch: (async () => {
      requests++;
      return new Response(JSON.stringify(fixture("history", "wrapped")), { headers: { "content-type": "application/json" } });
    }) as unknown as typeof fetch,
  });

  it.each([
    [{ coin: ["BTC", "ETH", "DOGE"], metricIds: ["price"] }, "coin"],
    [{ metricIds: ["btc_price", "eth price"] }, "metricIds"],
    [{ metricIds: ["btc_price", "../v1/snapshot"] }, "metricIds"],
    [{ metricIds: ["btc_price", "btc.price"] }, "metricIds"],
    [{ metricId: "btc_price", hours: 721 }, "hours"],
    [{ metricId: "btc_price", hours: 1.5 }, "hours"],
  ])("%j: InvalidArgumentError(%s), no request sent", async (params, argument) => {
    requests = 0;
    const err = await loadHistory(counting, params).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as InvalidArgumentError).argument).toBe(argument);
    expect(requests).toBe(0);
  });
});
