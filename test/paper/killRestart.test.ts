import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

// live servers and child processes: slow on a busy machine, never failed by it
vi.setConfig({ testTimeout: 600_000 });
import { paperTrade, readLedger, type LedgerRow } from "../../src/index.js";
import { killAndRestart } from "./killAndRestart.js";
import { liveServer, tempStore } from "./helpers.js";
import { paperCase } from "./paperCases.js";
import { scaledMs } from "../support/timeScale.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The ledger's numbers, without when each row was booked. */
const booked = (rows: readonly LedgerRow[]): object[] => rows.map(({ bookedAt: _b, late: _l, ...r }) => r);

describe("kill -9 at random points, restarted each time", () => {
  it("4 kills (10 in scripts/paperLive.ts) give the uninterrupted ledger, bar for bar, and it reconciles with backtest", async () => {
    const bars = 80;
    const s = await liveServer({ everyMs: 60 });
    cleanups.push(s.close);
    const name = "stops-1m";
    const store = tempStore();
    const { rows, code, stderr } = await killAndRestart(s.server.url, store, name, bars, 4, 29);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(rows).toHaveLength(bars);
    rows.forEach((r, i) => expect(r.bar).toBe(i));
    const restarts = readLedger(join(store, `paper=${name}`)).events.filter((e) => e.kind === "restart").length;
    expect(restarts).toBe(4);
    // the uninterrupted ledger, in this process, over the same (now published) bars
    const c = paperCase(name);
    const u = await paperTrade(c.strategy, { ...c.options, client: s.client, store: tempStore(), bars });
    cleanups.push(() => u.close());
    await u.run();
    expect(booked(rows)).toEqual(booked(u.rows));
    expect(u.reconcile()).toMatchObject({ equal: true, bars });
  }, scaledMs(600_000));
});
