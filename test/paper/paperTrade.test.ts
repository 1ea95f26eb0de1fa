import { readFileSync, appendFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

// live servers and child processes: slow on a busy machine, never failed by it
vi.setConfig({ testTimeout: 600_000 });
import { backtest, InvalidArgumentError, LedgerMismatchError, paperTrade, readLedger, StoreLockedError, type PaperFeed, type PaperTrader } from "../../src/index.js";
import { liveServer, peeking, START, tempStore, trend } from "./helpers.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function run(paper: PaperTrader, live: { advance(n?: number): void }, steps: number, every = 1): Promise<void> {
  for (let k = 0; k < steps; k++) {
    live.advance(every);
    await paper.poll();
  }
}

describe("paperTrade against the replay server in live mode (clock on demand)", () => {
  it("books one-minute bars that a backtest of the recorded bars reproduces bit for bit (trend strategy, stop-loss, funding)", async () => {
    const s = await liveServer();
    cleanups.push(s.close);
    const store = tempStore();
    const paper = await paperTrade(trend, { coin: "BTC", client: s.client, store, start: START - 30 * 60_000, params: { n: 10 }, feeBps: 5, slippageBps: 2, stopLoss: 0.002, chargeFunding: true });
    cleanups.push(() => paper.close());
    await run(paper, s.live, 150);
    expect(paper.rows.length).toBe(181); // 30 minutes of history, the current minute, 150 more
    const r = paper.reconcile();
    expect(r).toMatchObject({ equal: true, bars: 181 });
    expect(r.compared).toBeGreaterThan(1400);
    // the run traded, paid fees and funding, and was stopped out at least once
    expect(paper.rows.filter((x) => x.traded !== 0).length).toBeGreaterThan(5);
    expect(paper.rows.some((x) => x.fees > 0)).toBe(true);
    expect(paper.rows.some((x) => x.fundingPaid !== 0)).toBe(true);
    // bar times are consecutive minutes from start
    paper.rows.forEach((x, i) => expect(x.time).toBe(START - 30 * 60_000 + i * 60_000));
  });

  it("a constant long with no costs earns the price change exactly (hand rule: equity_i = cash x close_i / close_0)", async () => {
    const s = await liveServer();
    cleanups.push(s.close);
    const paper = await paperTrade((c) => new Float64Array((c["close"] as Float64Array).length).fill(1), { coin: "ETH", client: s.client, store: tempStore(), start: START - 5 * 60_000, initialCash: 1000 });
    cleanups.push(() => paper.close());
    await run(paper, s.live, 5);
    const c0 = paper.rows[0]!.close;
    for (const row of paper.rows) expect(row.equity).toBeCloseTo((1000 * row.close) / c0, 9);
    expect(paper.rows[0]!.traded).toBeCloseTo(1000 / c0, 12);
    for (const x of paper.rows.slice(1)) expect(Math.abs(x.traded)).toBeLessThan(1e-12); // a 100% long never drifts
  });

  it("hourly bars: the composite with a regime filter equals its backtest", async () => {
    const s = await liveServer({ stepMs: 3_600_000 });
    cleanups.push(s.close);
    const composite = {
      kind: "composite" as const,
      threshold: 0.05,
      regimes: { wild: (c: Readonly<Record<string, Float64Array>>) => Float64Array.from(c["btc_momentum_5m_pct"] as Float64Array, (m) => (Math.abs(m) > 0.3 ? 1 : 0)) },
    };
    const paper = await paperTrade(composite, { coin: "BTC", client: s.client, store: tempStore(), intervalMs: 3_600_000, start: START - 24 * 3_600_000, params: { regime: "wild" }, feeBps: 4 });
    cleanups.push(() => paper.close());
    await run(paper, s.live, 24);
    expect(paper.rows.length).toBe(48);
    expect(paper.reconcile()).toMatchObject({ equal: true, bars: 48 });
    // hourly OHLC from the minutes: high >= open, close >= low
    for (const r of paper.rows) expect(r.high >= Math.max(r.open, r.close) && r.low <= Math.min(r.open, r.close)).toBe(true);
    expect(new Set(paper.rows.map((r) => r.target)).size).toBeGreaterThan(1);
  });

  it("fill next_open with latency and whole units equals its backtest", async () => {
    const s = await liveServer();
    cleanups.push(s.close);
    const paper = await paperTrade(trend, { coin: "SOL", client: s.client, store: tempStore(), start: START - 20 * 60_000, params: { n: 5 }, fill: "next_open", delayBars: 2, units: "whole", feeBps: 3, takeProfit: 0.004 });
    cleanups.push(() => paper.close());
    await run(paper, s.live, 60);
    expect(paper.reconcile()).toMatchObject({ equal: true, bars: 81 });
  });

  it("a strategy that peeks one bar ahead differs from its backtest, at the first bar it traded on the future", async () => {
    const s = await liveServer();
    cleanups.push(s.close);
    const paper = await paperTrade(peeking, { coin: "BTC", client: s.client, store: tempStore(), start: START - 10 * 60_000 });
    cleanups.push(() => paper.close());
    await run(paper, s.live, 20);
    const r = paper.reconcile();
    expect(r.equal).toBe(false);
    // on the prefix the last bar never sees a next close: target 0 where the whole data says 1
    const full = backtest({ close: paper.rows.map((x) => x.close), position: peeking({ close: Float64Array.from(paper.rows, (x) => x.close) }) });
    const firstUp = Array.from(full.positions).findIndex((w) => w === 1);
    expect(r.first).toMatchObject({ bar: firstUp, field: "target", ledger: 0, backtest: 1 });
    expect(paper.events.some((e) => e.kind === "reconcile" && e.bar === firstUp)).toBe(true);
  });
});

describe("paperTrade restarts and the ledger lock", () => {
  it("refuses a second trader on the same ledger, then resumes after close without booking a bar twice", async () => {
    const s = await liveServer();
    cleanups.push(s.close);
    const store = tempStore();
    const opts = { coin: "BTC", client: s.client, store, start: START - 10 * 60_000, params: { n: 4 }, feeBps: 5, stopLoss: 0.003 } as const;
    const a = await paperTrade(trend, opts);
    await run(a, s.live, 10);
    await expect(paperTrade(trend, opts)).rejects.toBeInstanceOf(StoreLockedError);
    a.close();
    s.live.advance(7); // missed while stopped
    const b = await paperTrade(trend, opts);
    cleanups.push(() => b.close());
    expect(b.atStart.equal).toBe(true);
    expect(b.rows.length).toBe(21); // the booked bars, before any poll
    await b.poll();
    expect(b.rows.length).toBe(28);
    expect(b.rows.slice(21, 27).every((r) => r.late)).toBe(true);
    expect(b.rows[27]!.late).toBe(false);
    expect(b.events.filter((e) => e.kind === "restart")).toHaveLength(1);
    // the uninterrupted ledger
    const u = await paperTrade(trend, { ...opts, store: tempStore() });
    cleanups.push(() => u.close());
    await u.poll();
    expect(u.rows.length).toBe(28);
    const strip = (rows: readonly object[]) => rows.map(({ bookedAt: _b, late: _l, ...r }: any) => r);
    expect(strip(b.rows)).toEqual(strip(u.rows));
  });

  it("cuts a torn last line and books that bar again; refuses a ledger of another strategy or an edited one", async () => {
    const s = await liveServer();
    cleanups.push(s.close);
    const store = tempStore();
    const opts = { coin: "BTC", client: s.client, store, start: START - 5 * 60_000, params: { n: 3 } } as const;
    const a = await paperTrade(trend, opts);
    await a.poll();
    a.close();
    const path = join(a.dir, "ledger.jsonl");
    const lines = readFileSync(path, "utf8");
    appendFileSync(path, '{"bar":6,"time":17');
    const b = await paperTrade(trend, opts);
    expect(b.rows.length).toBe(6);
    expect(readFileSync(path, "utf8")).toBe(lines);
    b.close();
    await expect(paperTrade(trend, { ...opts, params: { n: 5 } })).rejects.toBeInstanceOf(InvalidArgumentError);
    appendFileSync(path, lines.split("\n")[6]!.replace('"equity":', '"equity":1+') + "\n");
    await expect(paperTrade(trend, opts)).rejects.toThrow();
    // a booked number that the engine does not replay
    const edited = lines.replace(/"fees":0,/, '"fees":1e-9,');
    const store2 = tempStore();
    const c = await paperTrade(trend, { ...opts, store: store2 });
    await c.poll();
    c.close();
    const p2 = join(c.dir, "ledger.jsonl");
    const text2 = readFileSync(p2, "utf8");
    const lines2 = text2.split("\n");
    lines2[3] = lines2[3]!.replace(/"equity":([0-9.e+-]+)/, (_m, v: string) => `"equity":${Number(v) + 1}`);
    require("node:fs").writeFileSync(p2, lines2.join("\n"));
    await expect(paperTrade(trend, { ...opts, store: store2 })).rejects.toBeInstanceOf(LedgerMismatchError);
    expect(edited).not.toBe(lines);
  });
});

describe("paperTrade alarms on a feed with gaps and outages", () => {
  /** A feed over fixed minutes: price 100 + minute index, with chosen minutes missing and polls that fail or see nothing new. */
  function scriptedFeed(minutes: { now: number; missing: Set<number>; fail: boolean }): PaperFeed {
    return {
      source: "scripted",
      async read(ids, _coin, from) {
        if (minutes.fail) throw new Error("feed down");
        const out: Record<string, { time: Float64Array; value: Float64Array }> = {};
        for (const id of ids) {
          const t: number[] = [];
          const v: number[] = [];
          const lo = Number.isNaN(from) ? minutes.now - 59 : Math.max(0, Math.round((from - START) / 60_000));
          for (let k = lo; k <= minutes.now; k++) if (!minutes.missing.has(k)) (t.push(START + k * 60_000), v.push(100 + k));
          out[id] = { time: Float64Array.from(t), value: Float64Array.from(v) };
        }
        return out;
      },
    };
  }

  it("books a bar without its close as no price (no fill), reports the gap, and reports it filled later", async () => {
    const feed = { now: 5, missing: new Set([3]), fail: false };
    let wall = 0;
    const paper = await paperTrade((c) => Float64Array.from(c["close"] as Float64Array, (_x, i) => (i % 2 === 0 ? 1 : 0)), { coin: "BTC", feed: scriptedFeed(feed), store: tempStore(), start: START, clock: () => wall, staleAfterMs: 100 });
    cleanups.push(() => paper.close());
    await paper.poll();
    expect(paper.rows.map((r) => r.close)).toEqual([100, 101, 102, Number.NaN, 104, 105]);
    const gap = paper.rows[3]!;
    expect(gap.traded).toBe(0); // the target 0 at bar 3 is not filled: no price
    expect(gap.fees).toBe(0);
    expect(paper.rows[4]!.traded).not.toBe(0); // filled at the next bar with a price
    expect(paper.events.filter((e) => e.kind === "gap").map((e) => e.bar)).toEqual([3]);
    // outage: polls fail, then see nothing new; the stale alarm fires once after staleAfterMs
    feed.fail = true;
    wall = 50;
    await paper.poll();
    wall = 150;
    await paper.poll();
    wall = 200;
    await paper.poll();
    expect(paper.events.filter((e) => e.kind === "feedError")).toHaveLength(3);
    expect(paper.events.filter((e) => e.kind === "stale")).toHaveLength(1);
    // back, with the missing minute published meanwhile and 3 new bars
    feed.fail = false;
    feed.missing.clear();
    feed.now = 8;
    await paper.poll();
    expect(paper.rows).toHaveLength(9);
    expect(paper.rows[3]!.close).toBeNaN(); // the ledger keeps what the decision saw
    expect(paper.events.filter((e) => e.kind === "gapFilled").map((e) => e.bar)).toEqual([3]);
    expect(paper.events.filter((e) => e.kind === "resumed")).toHaveLength(1);
    expect(paper.reconcile().equal).toBe(true);
    // events are in the ledger's event table
    expect(readLedger(paper.dir).events.map((e) => e.kind)).toEqual(paper.events.map((e) => e.kind));
  });

  it("checks its options", async () => {
    const base = { coin: "BTC", store: tempStore(), feed: scriptedFeed({ now: 1, missing: new Set(), fail: false }) };
    await expect(paperTrade(trend, { ...base, intervalMs: 90_000 })).rejects.toThrow(/intervalMs must be a whole number of minutes/);
    await expect(paperTrade(trend, { ...base, store: "" })).rejects.toThrow(/store must be a folder/);
    await expect(paperTrade(trend, { coin: "BTC", store: tempStore() })).rejects.toThrow(/give client/);
    await expect(paperTrade(trend, { ...base, feeBps: -1 })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(paperTrade(42 as never, base)).rejects.toThrow(/strategy must be a function/);
    await expect(paperTrade(trend, { ...base, name: "../x" })).rejects.toThrow(/name must be/);
  });
});
