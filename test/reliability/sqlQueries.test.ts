/**
 * SQL queries beside writers and queries that never end (issue 31, defects 1
 * and 6):
 * - two writer processes rewrite the same three day files while this process
 *   queries the store (counted, not timed: at least 10 queries and 10 saves a
 *   writer, however fast or busy the machine): no query fails and every row equals
 *   what the writers saved, every point acknowledged before a query began is
 *   in it (before the fix: DuckDB's "TProtocolException: Invalid data" on a
 *   file replaced mid-query, 730 of 4,992 queries; the 60 s version is
 *   `npx tsx test/reliability/helpers/sqlBesideWriters.ts 60 2`);
 * - a query that would run for hours ends on its timeoutMs, on its signal, and
 *   on store.close() with QueryCancelledError, and the engine answers the
 *   next query; a process that closes its store under such a query exits.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidArgumentError, QueryCancelledError } from "../../src/errors/index.js";
import { openStore } from "../../src/store/index.js";
import { sqlBesideWriters } from "./helpers/sqlBesideWriters.js";
import { scaledMs } from "../support/timeScale.js";
import { bundleChild } from "../support/bundleChild.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = mkdtempSync(join(tmpdir(), "milab-rel-sql-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const T0 = Date.UTC(2026, 10, 1);
const RUNAWAY = "select count(*) as n from range(100000000000) a where a.range % 7 = 3";

describe("SQL beside writing processes", () => {
  // Failed in 1 run of 7 before pinFile retried a link that failed with ENOENT while the name still existed (a writer's
  // rename over the file at that instant): the query saw no history file (test/store/pinFile.test.ts reproduces it).
  it("2 writers, at least 10 queries and 10 saves a writer: 0 failed queries, 0 wrong rows, no acknowledged point missing", { timeout: scaledMs(600_000) }, async () => {
    const r = await sqlBesideWriters(0, 2, 10, 10);
    console.log(`reliability: SQL beside 2 writers: ${r.queries} queries, ${r.saves} saves, ${r.failed} failed, ${r.wrongRows} wrong rows, ${r.missing} acknowledged points missing${r.firstError === undefined ? "" : `; first error: ${r.firstError}`}`);
    expect(r.queries).toBeGreaterThanOrEqual(10);
    expect(r.saves).toBeGreaterThanOrEqual(20);
    expect(r.firstError).toBeUndefined();
    expect([r.failed, r.wrongRows, r.missing]).toEqual([0, 0, 0]);
  });
});

describe("queries that never end", () => {
  const storeWithData = async (name: string) => {
    const store = openStore(join(root, name));
    await store.saveHistory({ metricId: "btc_price", time: [T0, T0 + 60_000], value: [1, 2] });
    return store;
  };

  it("timeoutMs ends a runaway query with QueryCancelledError (reason timeout); the next query works", { timeout: scaledMs(60_000) }, async () => {
    const store = await storeWithData("timeout");
    const err = await store.queryColumns(RUNAWAY, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QueryCancelledError);
    expect((err as QueryCancelledError).reason).toBe("timeout");
    expect((err as Error).message).toMatch(/timeoutMs \(300 ms\)/);
    expect(Array.from((await store.queryColumns("select price from history order by time"))["price"] as Float64Array)).toEqual([1, 2]);
    store.close();
  });

  it("a cancel that lands between a query's steps still stops DuckDB: timeoutMs of 1..20 ms, each followed by a query that answers", { timeout: scaledMs(120_000) }, async () => {
    // DuckDB clears a connection's interrupt when a statement begins: a single interrupt during the views, the
    // statement's extraction or its prepare was lost and the runaway query held the engine (the next query never
    // answered; the CI run of 2026-11-28 21:59 hung in the 'closes its store' test below for the same reason).
    const store = await storeWithData("between-steps");
    await store.queryColumns("select 1 as x"); // the engine started: only the query's own steps are left to land in
    for (let ms = 1; ms <= 20; ms++) {
      const err = await store.queryColumns(RUNAWAY, { timeoutMs: ms }).catch((e: unknown) => e);
      expect(err, `timeoutMs ${ms}`).toBeInstanceOf(QueryCancelledError);
      let watchdog: ReturnType<typeof setTimeout> | undefined;
      const next = await Promise.race([
        store.queryColumns("select 41 + 1 as x").then((c) => Array.from(c["x"] as Float64Array)),
        new Promise<string>((res) => (watchdog = setTimeout(() => res("the runaway query still holds the engine"), scaledMs(10_000)))),
      ]);
      clearTimeout(watchdog);
      expect(next, `after timeoutMs ${ms}`).toEqual([42]);
    }
    store.close();
  });

  it("an aborted signal ends it (reason aborted), before or while it runs; trusted SQL too", { timeout: scaledMs(60_000) }, async () => {
    const store = await storeWithData("signal");
    const ac = new AbortController();
    const pending = store.queryColumns(RUNAWAY, { signal: ac.signal });
    setTimeout(() => ac.abort(), 300);
    await expect(pending).rejects.toMatchObject({ reason: "aborted" });
    await expect(store.queryColumns("select 1 as x", { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(QueryCancelledError);
    const ac2 = new AbortController();
    const trusted = store.queryColumns(RUNAWAY, { signal: ac2.signal, trusted: true });
    setTimeout(() => ac2.abort(), 300);
    await expect(trusted).rejects.toMatchObject({ reason: "aborted" });
    expect(Array.from((await store.queryColumns("select price from history order by time", { trusted: true }))["price"] as Float64Array)).toEqual([1, 2]);
    store.close();
  });

  it("close() ends the running query and the ones waiting behind it (reason closed)", { timeout: scaledMs(60_000) }, async () => {
    const store = await storeWithData("close");
    const running = store.queryColumns(RUNAWAY).catch((e: unknown) => e);
    const waiting = store.queryColumns("select count(*) from history").catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 300));
    store.close();
    for (const e of [await running, await waiting]) {
      expect(e).toBeInstanceOf(QueryCancelledError);
      expect((e as QueryCancelledError).reason).toBe("closed");
    }
  });

  it("a process that closes its store under a runaway query prints 'cancelled closed' and exits by itself", { timeout: scaledMs(120_000) }, async () => {
    const store = await storeWithData("exit");
    store.close();
    const child = spawnSync(process.execPath, [bundleChild(join(here, "helpers", "runawayQuery.ts")), join(root, "exit")], { encoding: "utf8", timeout: scaledMs(100_000) });
    expect(child.signal).toBeNull();
    expect(child.stdout.trim()).toBe("cancelled closed");
    expect(child.status).toBe(0);
  });

  it("bad timeoutMs and signal are refused before any query", async () => {
    const store = openStore(join(root, "bad"));
    for (const timeoutMs of [0, -1, Number.NaN, "5" as unknown as number, 2 ** 31]) {
      await expect(store.queryColumns("select 1", { timeoutMs })).rejects.toBeInstanceOf(InvalidArgumentError);
    }
    await expect(store.queryColumns("select 1", { signal: {} as AbortSignal })).rejects.toBeInstanceOf(InvalidArgumentError);
    store.close();
  });
});

describe("a store that cannot be written", () => {
  it("is queried in place (no snapshot folder can be made there), its files still verified", { timeout: scaledMs(60_000) }, async () => {
    if (process.getuid?.() === 0) return; // root writes anywhere: nothing to check
    const { chmodSync } = await import("node:fs");
    const dir = join(root, "read-only");
    const writer = openStore(dir);
    await writer.saveHistory({ metricId: "btc_price", time: [T0, T0 + 60_000], value: [1, 2] });
    writer.close();
    chmodSync(dir, 0o555);
    try {
      const store = openStore(dir);
      expect(Array.from((await store.queryColumns("select price from history order by time"))["price"] as Float64Array)).toEqual([1, 2]);
      store.close();
    } finally {
      chmodSync(dir, 0o755);
    }
  });
});
