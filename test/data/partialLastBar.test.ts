/**
 * One partial-bar rule (lastBarComplete), followed end to end (issue 30, item 4): the replay
 * server's last hour candle, opened at 12:00 with the clock at 12:30:30, is flagged by the loader;
 * fromDataFrame keeps the flag with the rows; resampleOHLC of those bars drops the day holding it;
 * the backtest keeps every bar (outputs have the input's length) and flags the run. Expected values
 * are counted by hand from the clock and the retention (31 days before the clock's minute).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspect } from "node:util";
import { lastBarComplete } from "../../src/data/lastBarComplete.js";
import { partialLastBarOf } from "../../src/data/partialLastBarOf.js";
import { backtest, createClient, fromDataFrame, loadAnalyticsQuery, resample, resampleOHLC, toDataFrame } from "../../src/index.js";
import { startReplayServer, type ReplayServer } from "../../src/server/index.js";

const NOW = Date.parse("2026-11-01T12:30:30Z");
let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer({ clock: () => NOW, seed: 42, rateLimitPerMinute: 0 });
}, 0);
afterAll(async () => {
  await server?.close();
}, 0);

describe("lastBarComplete, the rule", () => {
  const t = (h: number, m: number) => Date.UTC(2026, 0, 1, h, m);
  it("left-closed: the last input plus its spacing must reach the bar's end", () => {
    expect(lastBarComplete(t(0, 59), 60_000, t(1, 0), "left")).toBe(true);
    expect(lastBarComplete(t(0, 58), 60_000, t(1, 0), "left")).toBe(false);
    expect(lastBarComplete(t(0, 59), Number.NaN, t(1, 0), "left")).toBe(false); // one point: spacing unknown
  });
  it("right-closed: the last time must reach the end", () => {
    expect(lastBarComplete(t(1, 0), 0, t(1, 0), "right")).toBe(true);
    expect(lastBarComplete(t(0, 59), 60_000, t(1, 0), "right")).toBe(false);
  });
  it("an input flagged partial makes the bar holding it partial, either way", () => {
    expect(lastBarComplete(t(0, 59), 60_000, t(1, 0), "left", { lastInputPartial: true })).toBe(false);
    expect(lastBarComplete(t(1, 0), 0, t(1, 0), "right", { lastInputPartial: true })).toBe(false);
  });
});

describe("resample with a partial last input", () => {
  // minutes 00:00..00:59 of one hour: complete by spacing; flagged, the 00:59 minute was still open
  const time = Float64Array.from({ length: 60 }, (_, i) => i * 60_000);
  const x = Float64Array.from({ length: 60 }, (_, i) => i + 1);
  it("drops the bar holding it by default, keeps it on request; unflagged the hour is complete", () => {
    expect(Array.from(resample(time, { x }, { interval: "1h", how: "sum" }).columns.x!)).toEqual([1830]); // 1 + ... + 60
    expect(resample(time, { x }, { interval: "1h", how: "sum", lastInputPartial: true }).time.length).toBe(0);
    expect(Array.from(resample(time, { x }, { interval: "1h", how: "sum", lastInputPartial: true, partialLastBar: "keep" }).columns.x!)).toEqual([1830]);
  });
  it("refuses a lastInputPartial that is not a boolean", () => {
    expect(() => resample(time, { x }, { interval: "1h", lastInputPartial: "yes" as never })).toThrow(/resample: lastInputPartial must be false or true, got "yes"/);
  });
  it("does not mutate its input", () => {
    const before = Array.from(x);
    resample(time, { x }, { interval: "1h", lastInputPartial: true });
    expect(Array.from(x)).toEqual(before);
  });
});

describe("loader -> fromDataFrame -> resampleOHLC and backtest", () => {
  it("the flag travels with the rows; the day holding the open candle is dropped; the backtest keeps and flags it", { timeout: 0 }, async () => {
    const client = createClient({ baseUrl: server.url, rateLimitPerMinute: 100_000, retryDelayMs: 1 });
    const df = await loadAnalyticsQuery(client, { dataset: "candles", coin: "BTC", interval: "1h", start: "2026-10-29T00:00:00Z", end: "2026-11-01T12:30:30Z" });
    expect(df.coverage.partialLastBar).toBe(true);
    expect(partialLastBarOf(df)).toBe(true);
    const panel = fromDataFrame(df);
    expect(partialLastBarOf(panel)).toBe(true);
    expect(Object.keys(panel)).toEqual(["time", "columns"]); // not enumerable: spreads and JSON do not carry it
    // hours 2026-10-29 00:00 .. 2026-11-01 12:00: 3 days x 24 + 13 = 85 rows
    expect(panel.time.length).toBe(85);
    expect(panel.time.at(-1)).toBe(Date.parse("2026-11-01T12:00:00Z"));
    // daily bars: Oct 29, 30, 31 complete; Nov 1 (13 hours, the last still open) partial by both counts
    const daily = resampleOHLC(panel, { interval: "1d" });
    expect(Array.from(daily.time)).toEqual([Date.parse("2026-10-29"), Date.parse("2026-10-30"), Date.parse("2026-10-31")]);
    // 4-hour bars: 12:00-16:00 holds only the open 12:00 candle: dropped because of the flag, not the spacing alone
    const fourHours = resampleOHLC(panel, { interval: "4h" });
    expect(fourHours.time.at(-1)).toBe(Date.parse("2026-11-01T08:00:00Z"));
    const unflagged = resampleOHLC({ time: panel.time, columns: panel.columns }, { interval: "4h" });
    expect(unflagged.time.at(-1)).toBe(Date.parse("2026-11-01T08:00:00Z")); // 12:00 + 1h < 16:00: partial by spacing too
    const hourly = resampleOHLC(panel, { interval: "1h" });
    expect(hourly.time.length).toBe(84); // the open 12:00 candle itself
    expect(resampleOHLC({ time: panel.time, columns: panel.columns }, { interval: "1h" }).time.length).toBe(85); // unflagged: complete by spacing
    expect(resampleOHLC(panel, { interval: "1h", lastInputPartial: false }).time.length).toBe(85); // the caller's word wins

    const position = new Float64Array(85).fill(1);
    const bt = backtest({ data: df, position });
    expect(bt.partialLastBar).toBe(true);
    expect(bt.equity.length).toBe(85); // kept: outputs have the input's length
    expect(inspect(bt)).toMatch(/last bar was still open when loaded/);
    const plain = backtest({ close: panel.columns.close!, position });
    expect(plain.partialLastBar).toBe(false);
    expect(Array.from(plain.equity)).toEqual(Array.from(bt.equity)); // a flag, not another number
    expect(inspect(plain)).not.toMatch(/still open/);
  });

  it("a frame that says nothing is not partial", () => {
    expect(partialLastBarOf(toDataFrame({ time: [0, 60_000], close: [1, 2] }))).toBe(false);
    expect(partialLastBarOf(undefined)).toBe(false);
    expect(partialLastBarOf({ coverage: { partialLastBar: "yes" } })).toBe(false);
  });
});
