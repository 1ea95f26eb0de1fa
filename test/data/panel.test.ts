import { describe, expect, it } from "vitest";
import { createPanel, fromDataFrame, isPanel, sortDedupe, toDataFrame } from "../../src/data/index.js";
import { InvalidArgumentError, InvalidTimeError } from "../../src/errors/index.js";

describe("createPanel", () => {
  it("copies time and columns into Float64Arrays (inputs untouched)", () => {
    const t = [0, 60_000];
    const close = [1.5, 2.5];
    const p = createPanel(t, { close });
    expect(p.time).toBeInstanceOf(Float64Array);
    expect(Array.from(p.columns.close!)).toEqual([1.5, 2.5]);
    p.columns.close![0] = 9;
    expect(close).toEqual([1.5, 2.5]);
    expect(isPanel(p)).toBe(true);
  });
  it("empty and one-point panels", () => {
    expect(createPanel([], { x: [] }).time.length).toBe(0);
    expect(Array.from(createPanel([5], { x: [NaN] }).columns.x!)).toEqual([NaN]);
  });
  it("rejects repeated, unsorted or non-finite times, wrong lengths and a 'time' column", () => {
    expect(() => createPanel([0, 0])).toThrow(
      "createPanel: time must be strictly ascending (unique), got 0 after 0 at index 1; use sortDedupe() to sort and drop duplicates",
    );
    expect(() => createPanel([1, 0])).toThrow(InvalidArgumentError);
    expect(() => createPanel([NaN])).toThrow("createPanel: time must be finite epoch ms, got NaN at index 0");
    expect(() => createPanel([0, 1], { x: [1] })).toThrow('createPanel: column "x" has 1 values, expected 2 (one per time)');
    expect(() => createPanel([0], { time: [1] })).toThrow('"time" is reserved');
  });
  it("isPanel rejects look-alikes", () => {
    expect(isPanel({ time: [1], columns: {} })).toBe(false);
    expect(isPanel({ time: new Float64Array(1), columns: { x: [1] } })).toBe(false);
    expect(isPanel(null)).toBe(false);
  });
});

describe("sortDedupe", () => {
  it("sorts stably and keeps the last row per time stamp; drops non-finite times; reports what changed", () => {
    const { panel, report } = sortDedupe([120, 0, 120, NaN, 60, 0], { x: [1, 2, 3, 4, 5, 6] });
    expect(Array.from(panel.time)).toEqual([0, 60, 120]);
    expect(Array.from(panel.columns.x!)).toEqual([6, 5, 3]);
    // Time 0: rows 1 (x=2) and 5 (x=6): 6 kept, 2 differs -> conflict; time 120: rows 0 (x=1) and 2 (x=3) -> conflict.
    expect(report).toEqual({ outOfOrder: 3, duplicates: 0, conflicts: 2, badTimes: 1 });
  });
  it("a dropped row equal to the kept one in every column (NaN = NaN) is a duplicate, otherwise a conflict", () => {
    const { panel, report } = sortDedupe([0, 0, 0, 60], { x: [1, 1, 2, NaN], y: [NaN, NaN, NaN, 5] });
    // Time 0 keeps row 2 (x=2, y=NaN): row 0 and row 1 have x=1 -> 2 conflicts.
    expect(report).toEqual({ outOfOrder: 0, duplicates: 0, conflicts: 2, badTimes: 0 });
    expect(Array.from(panel.columns.x!)).toEqual([2, NaN]);
    const same = sortDedupe([0, 0, 60], { x: [NaN, NaN, 1] });
    expect(same.report).toEqual({ outOfOrder: 0, duplicates: 1, conflicts: 0, badTimes: 0 });
  });
  it("does not modify its inputs, and its output does not alias them", () => {
    const time = Float64Array.of(0, 60);
    const x = Float64Array.of(1, 2);
    const { panel } = sortDedupe(time, { x });
    panel.time[0] = 99;
    panel.columns.x![0] = 99;
    expect(Array.from(time)).toEqual([0, 60]);
    expect(Array.from(x)).toEqual([1, 2]);
  });
  it("leaves clean input as is and handles empty input", () => {
    expect(sortDedupe([0, 1], { x: [1, 2] }).report).toEqual({ outOfOrder: 0, duplicates: 0, conflicts: 0, badTimes: 0 });
    expect(Array.from(sortDedupe([5], { x: [7] }).panel.columns.x!)).toEqual([7]);
    expect(sortDedupe([], { x: [] }).panel.time.length).toBe(0);
    expect(() => sortDedupe([0], { x: [] })).toThrow('sortDedupe: column "x" has 0 values, expected 1');
  });
});

describe("toDataFrame <-> fromDataFrame", () => {
  it("round-trips full float64 precision column by column", () => {
    const p = createPanel([0, 60_000, 120_000], { close: [0.1 + 0.2, 1e-12, 123456789.123456789], vol: [NaN, 1, 2] });
    const df = toDataFrame(p);
    expect(df.columns).toEqual(["time", "close", "vol"]);
    const back = fromDataFrame(df);
    expect(Array.from(back.time)).toEqual([0, 60_000, 120_000]);
    expect(Array.from(back.columns.close!)).toEqual([0.1 + 0.2, 1e-12, 123456789.123456789]);
    expect(Array.from(back.columns.vol!)).toEqual([NaN, 1, 2]);
  });
  it("skips string columns when picking automatically, parses numeric strings, rejects named non-numeric columns", () => {
    const df = toDataFrame({ time: [0, 1], coin: ["BTC", "ETH"], px: ["1.5", ""] } as never);
    const p = fromDataFrame(df);
    expect(Object.keys(p.columns)).toEqual(["px"]);
    expect(Array.from(p.columns.px!)).toEqual([1.5, NaN]);
    expect(() => fromDataFrame(df, { columns: ["coin"] })).toThrow('fromDataFrame: column "coin" holds non-numeric values; leave it out of columns');
    expect(() => fromDataFrame(df, { columns: ["nope"] })).toThrow('fromDataFrame: no column "nope"');
  });
  it("reads ISO time strings; rejects unsorted times unless sort: true", () => {
    const iso = { columns: ["ts", "x"], column: (n: string) => ({ values: n === "ts" ? ["2026-01-01T00:01:00Z", "2026-01-01T00:00:00Z"] : [1, 2] }) };
    expect(() => fromDataFrame(iso, { time: "ts" })).toThrow("createPanel: time must be strictly ascending");
    const p = fromDataFrame(iso, { time: "ts", sort: true });
    expect(Array.from(p.time)).toEqual([Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1, 0, 1)]);
    expect(Array.from(p.columns.x!)).toEqual([2, 1]);
  });
  it("rejects a missing or unreadable time column and non-frames", () => {
    const df = toDataFrame({ t: [0], x: [1] });
    expect(() => fromDataFrame(df)).toThrow('fromDataFrame: no time column "time" among ["t","x"]; pass { time: "<name>" }');
    const bad = { columns: ["time"], column: () => ({ values: ["later"] }) };
    expect(() => fromDataFrame(bad)).toThrow(InvalidTimeError);
    expect(() => fromDataFrame(bad)).toThrow('fromDataFrame: time at row 0 must be a time from 1970-01-01T00:00:00.000Z to 2099-12-31T23:59:59.999Z');
    expect(() => fromDataFrame({} as never)).toThrow(InvalidArgumentError);
  });
  it("toDataFrame: one column, dtype labels by content, strings kept, later changes to the input do not reach the frame", () => {
    const close = Float64Array.of(1.5, 2);
    const df = toDataFrame({ time: [0, 60_000], close, funding: [1e-7, NaN], coin: ["BTC", "ETH"] });
    // danfo's own inference would call 1e-7 an integer (it looks for a "." in the text); the labels here follow the values.
    expect(df.dtypes).toEqual(["int32", "float32", "float32", "string"]);
    close[0] = 99;
    expect(df.column("close").values).toEqual([1.5, 2]);
    expect(df.column("coin").values).toEqual(["BTC", "ETH"]);
    const one = toDataFrame({ x: [3] });
    expect(one.shape).toEqual([1, 1]);
    expect(one.column("x").values).toEqual([3]);
    expect(() => toDataFrame({})).toThrow("toDataFrame: needs at least one column, got none");
    expect(() => toDataFrame({ a: [1], b: [1, 2] })).toThrow('toDataFrame: every column must have 1 values (like "a"), got 2 in "b"');
  });
  it("an empty panel round-trips through danfo with its column names", () => {
    const df = toDataFrame(createPanel([], { x: [] }));
    expect(df.shape).toEqual([0, 2]);
    expect(df.columns).toEqual(["time", "x"]);
    expect(fromDataFrame(df).columns.x!.length).toBe(0);
  });
  it("an empty frame gives an empty panel", () => {
    const empty = { columns: ["time", "x"], column: () => ({ values: [] }) };
    const p = fromDataFrame(empty);
    expect(p.time.length).toBe(0);
    expect(p.columns.x!.length).toBe(0);
  });
});
