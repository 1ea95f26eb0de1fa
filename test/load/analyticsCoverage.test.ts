/**
 * Loaders say what they did not get (issue 30 item 3): loadAnalyticsQuery's `coverage` against
 * the replay server (real HTTP, fixed clock): a start before the service's retention is clamped
 * and the server echoes the clamped start; the last candle, opened at 12:00 with the clock at
 * 12:30:30, is partial; one `coverage` event says both. analyticsCoverage itself on hand-made
 * answers: gaps counted by hand, no shortfall, no rows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyticsCoverage } from "../../src/api/analyticsCoverage.js";
import { createClient, loadAnalyticsQuery, type ClientEvent } from "../../src/index.js";
import { startReplayServer, type ReplayServer } from "../../src/server/index.js";

const NOW = Date.parse("2026-11-01T12:30:30Z");
let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer({ clock: () => NOW, seed: 42, rateLimitPerMinute: 0 });
}, 0);
afterAll(async () => {
  await server?.close();
}, 0);

describe("loadAnalyticsQuery's coverage", () => {
  it("reports the start the service clamped (as it echoed it) and the partial last candle, with one coverage event", { timeout: 0 }, async () => {
    const events: ClientEvent[] = [];
    const client = createClient({ baseUrl: server.url, rateLimitPerMinute: 100_000, retryDelayMs: 1, onEvent: (e) => events.push(e) });
    const df = await loadAnalyticsQuery(client, { dataset: "candles", coin: "BTC", interval: "1h", start: "2026-05-01", end: "2026-11-01T12:30:30Z" });
    const c = df.coverage;
    // retention: the replay market starts 31 days before the clock's minute, 2026-10-01T12:30Z; the first hour bar after it opens at 13:00
    expect(c.asked.start).toBe(Date.parse("2026-05-01T00:00:00Z"));
    expect(c.served.start).toBe(Date.parse("2026-10-01T12:30:00Z"));
    expect(c.first).toBe(Date.parse("2026-10-01T13:00:00Z"));
    expect(c.last).toBe(Date.parse("2026-11-01T12:00:00Z"));
    expect(c.barMs).toBe(3_600_000);
    expect(c.gaps).toBe(0);
    expect(c.partialLastBar).toBe(true);
    expect(c.missing).toEqual([
      "start clamped: asked 2026-05-01T00:00:00Z, served from 2026-10-01T12:30:00Z",
      "the last bar (2026-11-01T12:00:00Z, 1h) was still open at 2026-11-01T12:30:00Z: its values are partial",
    ]);
    const warnings = events.filter((e) => e.type === "coverage");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ type: "coverage", message: c.missing.join("; ") });
    expect(df.columns).not.toContain("coverage"); // on the frame, not a column
  });

  it("reports nothing missing for a window inside the service's range, and no event", { timeout: 0 }, async () => {
    const events: ClientEvent[] = [];
    const client = createClient({ baseUrl: server.url, rateLimitPerMinute: 100_000, retryDelayMs: 1, onEvent: (e) => events.push(e) });
    const df = await loadAnalyticsQuery(client, { dataset: "metrics", metricId: "btc_price", interval: "1h", start: "2026-10-20T00:00Z", end: "2026-10-21T00:00Z" });
    expect(df.coverage.missing).toEqual([]);
    expect(df.coverage.partialLastBar).toBe(false); // metric rows are point-in-time values, not bars
    expect(events.filter((e) => e.type === "coverage")).toEqual([]);
  });
});

describe("analyticsCoverage", () => {
  const cols = ["time", "close"];
  const at = (iso: string): unknown[] => [iso, 1];
  it("counts the bars missing between rows (hand count: 02:00, 03:00 and 06:00 absent = 3)", () => {
    const rows = ["00:00", "01:00", "04:00", "05:00", "07:00"].map((h) => at(`2026-10-01T${h}:00Z`));
    const c = analyticsCoverage({ dataset: "candles", interval: "1h", end: "2026-10-01T08:00:00Z" }, {}, cols, rows);
    expect(c.gaps).toBe(3);
    expect(c.partialLastBar).toBe(false); // 07:00 + 1h = 08:00, not after the end
    expect(c.missing).toEqual(["3 bars of 1h missing between 2026-10-01T00:00:00Z and 2026-10-01T07:00:00Z"]);
  });
  it("reports a clamped end, and nothing for no rows or no window", () => {
    expect(analyticsCoverage({ end: "2026-10-02T00:00Z" }, { end: "2026-10-01T12:00:00.000Z" }, cols, []).missing).toEqual(["end clamped: asked 2026-10-02T00:00:00Z, served to 2026-10-01T12:00:00Z"]);
    const none = analyticsCoverage({}, {}, cols, []);
    expect(none.missing).toEqual([]);
    expect(none.first).toBeNaN();
    expect(none.gaps).toBe(0);
    // moved by less than a bar: the service reads its clock to the minute
    expect(analyticsCoverage({ interval: "1h", end: "2026-10-01T12:30:30Z" }, { end: "2026-10-01T12:30:00Z" }, cols, []).missing).toEqual([]);
  });
});
