/**
 * loadHistoryPanel's shortcut when every series has the same time stamps (the
 * usual one-minute window): the panel must be exactly what the general path
 * (unionTimes + alignAsOf, the reference here) gives, under both fills, and
 * the shortcut must step aside for NaN values with fill "last", for unsorted
 * times and for a column named "time".
 */
import { describe, expect, it } from "vitest";
import type { History, HistoryParams, MarketIntelClient } from "../../src/api/index.js";
import { alignAsOf, unionTimes, type Panel } from "../../src/data/index.js";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { loadHistoryPanel } from "../../src/load/index.js";

const T0 = 1_795_348_800_000; // 2026-11-22T12:00Z
const minutes = (n: number): Float64Array => Float64Array.from({ length: n }, (_, k) => T0 + k * 60_000);

/** A client whose history() serves fixed series by metric id (fresh arrays per call, as the real client does). */
function stub(data: Record<string, { time: Float64Array; value: Float64Array }>): MarketIntelClient {
  return {
    history: async (p: HistoryParams): Promise<History> => {
      const s = data[p.metricId] as { time: Float64Array; value: Float64Array };
      return { time: s.time.slice(), value: s.value.slice(), metricId: p.metricId, variant: "wrapped", hours: 1, dropped: { nulls: 0, duplicates: 0, conflicts: 0 } };
    },
  } as unknown as MarketIntelClient;
}

function reference(data: Record<string, { time: Float64Array; value: Float64Array }>, fill: "exact" | "last"): Panel {
  const ids = Object.keys(data);
  const grid = unionTimes(...ids.map((id) => (data[id] as { time: Float64Array }).time));
  return alignAsOf(grid, ids.map((id) => ({ time: (data[id] as { time: Float64Array }).time, columns: { [id]: (data[id] as { value: Float64Array }).value }, fill })));
}

function expectPanel(got: Panel, want: Panel): void {
  expect([...got.time]).toEqual([...want.time]);
  expect(Object.keys(got.columns)).toEqual(Object.keys(want.columns));
  for (const k of Object.keys(want.columns)) expect([...(got.columns[k] as Float64Array)], k).toEqual([...(want.columns[k] as Float64Array)]);
}

describe("loadHistoryPanel: same time stamps everywhere", () => {
  const same = { a: { time: minutes(4), value: Float64Array.of(1, 2, 3, 4) }, b: { time: minutes(4), value: Float64Array.of(-1, 0, 0.5, 1e300) } };

  it("gives the general path's panel under both fills", async () => {
    for (const fill of ["exact", "last"] as const) {
      const { panel } = await loadHistoryPanel(stub(same), { metricId: ["a", "b"], fill });
      expectPanel(panel, reference(same, fill));
    }
  });

  it("empty series and a single point", async () => {
    const empty = { a: { time: minutes(0), value: new Float64Array(0) }, b: { time: minutes(0), value: new Float64Array(0) } };
    expectPanel((await loadHistoryPanel(stub(empty), { metricId: ["a", "b"] })).panel, reference(empty, "exact"));
    const one = { a: { time: minutes(1), value: Float64Array.of(7) } };
    expectPanel((await loadHistoryPanel(stub(one), { metricId: "a", fill: "last" })).panel, reference(one, "last"));
  });

  it("NaN values: with fill last the previous value is carried (general path), with exact they stay NaN", async () => {
    const withNaN = { a: { time: minutes(3), value: Float64Array.of(1, Number.NaN, 3) }, b: { time: minutes(3), value: Float64Array.of(5, 6, 7) } };
    const last = (await loadHistoryPanel(stub(withNaN), { metricId: ["a", "b"], fill: "last" })).panel;
    expect([...(last.columns["a"] as Float64Array)]).toEqual([1, 1, 3]);
    expectPanel(last, reference(withNaN, "last"));
    const exact = (await loadHistoryPanel(stub(withNaN), { metricId: ["a", "b"], fill: "exact" })).panel;
    expect([...(exact.columns["a"] as Float64Array)]).toEqual([1, Number.NaN, 3]);
  });

  it("different time stamps still meet on the union grid", async () => {
    const apart = { a: { time: minutes(3), value: Float64Array.of(1, 2, 3) }, b: { time: minutes(3).map((t) => t + 30_000), value: Float64Array.of(4, 5, 6) } };
    const { panel } = await loadHistoryPanel(stub(apart), { metricId: ["a", "b"] });
    expect(panel.time.length).toBe(6);
    expectPanel(panel, reference(apart, "exact"));
  });

  it("unsorted times are refused as before (alignAsOf's typed error), not passed through", async () => {
    const unsorted = { a: { time: Float64Array.of(T0 + 60_000, T0), value: Float64Array.of(1, 2) } };
    await expect(loadHistoryPanel(stub(unsorted), { metricId: "a" })).rejects.toThrow(InvalidArgumentError);
  });

  it("a series named time is refused as before", async () => {
    const named = { time: { time: minutes(2), value: Float64Array.of(1, 2) } };
    await expect(loadHistoryPanel(stub(named), { metricId: "time" })).rejects.toThrow(/reserved/);
  });

  it("does not modify the series it was given", async () => {
    const data = { a: { time: minutes(3), value: Float64Array.of(1, Number.NaN, 3) } };
    const before = [...data.a.value];
    await loadHistoryPanel(stub(data), { metricId: "a", fill: "last" });
    expect([...data.a.value]).toEqual(before);
  });
});
