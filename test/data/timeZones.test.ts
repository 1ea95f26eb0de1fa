/**
 * Results never depend on the machine's time zone. `npm test` runs this file
 * in four zones (vitest projects in vitest.config.ts: UTC, America/New_York,
 * Asia/Kolkata, Australia/Lord_Howe); in each, offset-less time strings, read
 * through every path that takes time strings (toEpochMs, fromDataFrame, the
 * signals' readColumns, the backtest's price table, the loaders'
 * recordsToColumns and analyticsToColumns, parseHistory), must give the
 * hand-computed UTC epoch ms below, and the same results as the same strings
 * with `Z`. The stamps sit on a New York DST gap (2024-03-10 02:00-03:00 does
 * not exist there) and on Lord Howe's half-hour change (2024-04-07, 02:00
 * local back to 01:30), where a local-time reading would throw, shift or
 * duplicate a stamp.
 */
import { describe, expect, it } from "vitest";
import { parseHistory } from "../../src/api/parseHistory.js";
import { backtest } from "../../src/backtest/backtest.js";
import { fromDataFrame } from "../../src/data/fromDataFrame.js";
import { toEpochMs } from "../../src/data/toEpochMs.js";
import { analyticsToColumns } from "../../src/load/analyticsToColumns.js";
import { recordsToColumns } from "../../src/load/recordsToColumns.js";
import { readColumns } from "../../src/signals/readColumns.js";

/** Offsets on 1 January and 1 July (minutes, as getTimezoneOffset gives them) in each zone the suite runs in. */
const OFFSETS: Record<string, [number, number]> = {
  UTC: [0, 0],
  "America/New_York": [300, 240], // EST UTC-5, EDT UTC-4
  "Asia/Kolkata": [-330, -330], // IST UTC+5:30, no DST
  "Australia/Lord_Howe": [-660, -630], // LHDT UTC+11 (southern summer), LHST UTC+10:30
};

const LOCAL = [
  "2024-03-10T00:30:00",
  "2024-03-10T01:30:00",
  "2024-03-10T02:30:00",
  "2024-03-10T03:30:00",
  "2024-04-07T01:30:00",
  "2024-04-07T02:30:00",
  "2024-04-07T03:30:00",
];
const ZULU = LOCAL.map((s) => `${s}Z`);
// python3: int(datetime(2024,3,10,0,30,tzinfo=timezone.utc).timestamp()*1000) = 1710030600000, then + 1 h;
// int(datetime(2024,4,7,1,30,tzinfo=timezone.utc).timestamp()*1000) = 1712453400000, then + 1 h.
const H = 3_600_000;
const EXPECTED = [1_710_030_600_000, 1_710_030_600_000 + H, 1_710_030_600_000 + 2 * H, 1_710_030_600_000 + 3 * H, 1_712_453_400_000, 1_712_453_400_000 + H, 1_712_453_400_000 + 2 * H];
const CLOSE = [100, 101, 99, 102, 103, 101, 104];

/** Everything each path makes of one set of time strings. */
function results(times: readonly string[]): unknown {
  const frame = { columns: ["time", "close"], column: (n: string) => ({ values: n === "time" ? times : CLOSE }) };
  const bt = backtest({ data: { time: times as unknown as number[], close: CLOSE }, position: [1, 1, 0, -1, -1, 0, 0], feeBps: 10 });
  const analytics = analyticsToColumns({
    columns: ["time", "coin", "metric_id", "value"],
    rows: times.map((t, i) => [t, "BTC", "btc_price", CLOSE[i]]),
    variant: "columns",
  });
  return {
    toEpochMs: times.map((t) => toEpochMs(t)),
    fromDataFrame: Array.from(fromDataFrame(frame).time),
    readColumns: Array.from(readColumns({ time: times, close: CLOSE }, "test").time ?? []),
    backtest: {
      time: Array.from(bt.time),
      equity: Array.from(bt.equity),
      trades: bt.trades.map((t) => [t.entryTime, t.exitTime, t.pnl]),
    },
    recordsToColumns: recordsToColumns(times.map((t, i) => ({ time: t, updated_at: t, value: CLOSE[i] })))["updated_at"],
    analyticsToColumns: analytics["time"],
    parseHistory: Array.from(parseHistory(times.map((t, i) => ({ time_chain: t, value: CLOSE[i] }))).time),
  };
}

describe(`time zone independence (TZ=${process.env["TZ"] ?? "unset"})`, () => {
  it("the process really runs in the zone its project asked for", () => {
    const zone = process.env["TZ"] ?? "";
    expect(Object.keys(OFFSETS)).toContain(zone);
    // The local-time constructor on purpose: it is what reads the process's zone.
    expect([new Date(2024, 0, 1).getTimezoneOffset(), new Date(2024, 6, 1).getTimezoneOffset()]).toEqual(OFFSETS[zone]);
  });

  it("offset-less strings are UTC on every path: the hand-computed epoch ms", () => {
    const r = results(LOCAL) as Record<string, unknown>;
    for (const path of ["toEpochMs", "fromDataFrame", "readColumns", "recordsToColumns", "analyticsToColumns", "parseHistory"]) {
      expect(r[path], path).toEqual(EXPECTED);
    }
    expect((r["backtest"] as { time: number[] }).time).toEqual(EXPECTED);
  });

  it("and everything computed from them equals the same strings with Z", () => {
    expect(results(LOCAL)).toEqual(results(ZULU));
  });
});
