import { describe, expect, it } from "vitest";
import { parseHistory } from "../../src/api/schemas/index.js";
import { SchemaMismatchError } from "../../src/errors/index.js";
import { fixture } from "./helpers/fixtureServer.js";

// Reference values: the five points written into fixtures/api/history/*.json
// (2026-11-22T12:00Z + 0..4 minutes). Epoch ms computed independently with
// Python: datetime(2026,11,22,12,tzinfo=utc).timestamp()*1000 = 1795348800000.
const T0 = 1_795_348_800_000;
const TIMES = [0, 1, 2, 3, 4].map((k) => T0 + k * 60_000);
const VALUES = [97123.4, 97130.1, 97128.8, 97140.0, 97135.5];

describe("parseHistory: every served form gives the same series", () => {
  for (const variant of ["wrapped", "array", "pairs", "columnar", "rows"] as const) {
    it(`${variant} fixture -> 5 ascending points, variant ${variant}`, () => {
      const s = parseHistory(fixture("history", variant));
      expect(s.variant).toBe(variant);
      expect([...s.time]).toEqual(TIMES);
      expect([...s.value]).toEqual(VALUES);
      expect(s.dropped).toEqual({ nulls: 0, duplicates: 0, conflicts: 0 });
      if (variant !== "rows") expect(s.metricId).toBe("btc_price");
    });
  }
});

describe("parseHistory: envelopes and field names", () => {
  it("finds the array under any of the wrapper keys, one or two levels deep", () => {
    for (const key of ["data", "result", "results", "rows", "points", "history", "series", "values", "items"]) {
      const s = parseHistory({ [key]: [{ t: 1_700_000_000, v: 1 }] });
      expect([...s.value], key).toEqual([1]);
    }
    const nested = parseHistory({ result: { data: [{ time: "2026-11-22T12:00:00Z", close: 5 }] } });
    expect([...nested.time]).toEqual([T0]);
    expect([...nested.value]).toEqual([5]);
  });

  it("accepts every time and value key name", () => {
    const keys = [
      ["time_chain", "value"],
      ["time", "v"],
      ["timestamp", "close"],
      ["t", "c"],
      ["date", "value"],
    ];
    for (const [tk, vk] of keys) {
      const s = parseHistory([{ [tk as string]: T0, [vk as string]: 2 }]);
      expect([...s.time], `${tk}/${vk}`).toEqual([T0]);
      expect([...s.value]).toEqual([2]);
    }
  });

  it("reads unix seconds and milliseconds (numbers above 1e11 are ms)", () => {
    const s = parseHistory([
      [1_795_348_800, 1],
      [1_795_348_860_000, 2],
    ]);
    expect([...s.time]).toEqual([T0, T0 + 60_000]);
  });

  it("reads numeric strings for times and values", () => {
    const s = parseHistory({ data: [{ time: "1795348800", value: "97123.4" }, { time: "1795348860000", value: " 2.5 " }] });
    expect([...s.time]).toEqual([T0, T0 + 60_000]);
    expect([...s.value]).toEqual([97123.4, 2.5]);
  });

  it("takes an ISO date-time without offset as UTC", () => {
    expect([...parseHistory([{ time: "2026-11-22T12:00:00", value: 1 }]).time]).toEqual([T0]);
  });

  it("finds time and value columns by name in {columns, rows}", () => {
    const s = parseHistory({ columns: ["value", "note", "timestamp"], rows: [[3, "x", T0]] });
    expect([...s.time]).toEqual([T0]);
    expect([...s.value]).toEqual([3]);
  });
});

describe("parseHistory: missing data, order and repeats", () => {
  it("{} and [] are empty series, not errors", () => {
    for (const body of [{}, [], { data: [] }, { metric_id: "btc_price" }]) {
      const s = parseHistory(body);
      expect(s.time.length).toBe(0);
      expect(s.value.length).toBe(0);
    }
    expect(parseHistory({}).variant).toBe("empty");
    expect(parseHistory({ metric_id: "x", data: [] }).variant).toBe("wrapped");
  });

  it("one point", () => {
    const s = parseHistory([{ time_chain: "2026-11-22T12:00:00.000Z", value: 1.5 }]);
    expect([...s.time]).toEqual([T0]);
    expect([...s.value]).toEqual([1.5]);
  });

  it("skips null / NaN / unreadable values and times and counts them", () => {
    const s = parseHistory({
      data: [
        { time_chain: TIMES[0], value: null },
        { time_chain: TIMES[1], value: 1 },
        { time_chain: null, value: 2 },
        { time_chain: "not a date", value: 3 },
        { time_chain: TIMES[2], value: "NaN" },
        { time_chain: TIMES[3], value: "abc" },
        null,
        { time_chain: TIMES[4], value: 4 },
      ],
    });
    expect([...s.value]).toEqual([1, 4]);
    expect(s.dropped.nulls).toBe(6);
    const pairs = parseHistory([[TIMES[0], null], [TIMES[1], 7], [TIMES[2]]]);
    expect([...pairs.value]).toEqual([7]);
    expect(pairs.dropped.nulls).toBe(2);
  });

  it("sorts unsorted input ascending", () => {
    const s = parseHistory([
      [TIMES[2], 3],
      [TIMES[0], 1],
      [TIMES[1], 2],
    ]);
    expect([...s.time]).toEqual(TIMES.slice(0, 3));
    expect([...s.value]).toEqual([1, 2, 3]);
  });

  it("drops exact duplicates; on a time with different values keeps the LAST seen and counts a conflict", () => {
    const s = parseHistory([
      [TIMES[1], 2],
      [TIMES[0], 1],
      [TIMES[1], 2], // exact duplicate
      [TIMES[1], 9], // conflict: last seen for TIMES[1] -> kept
      [TIMES[0], 1], // exact duplicate
    ]);
    expect([...s.time]).toEqual([TIMES[0], TIMES[1]]);
    expect([...s.value]).toEqual([1, 9]);
    // For TIMES[1] the kept value is 9: the two earlier 2s differ from it -> 2 conflicts.
    expect(s.dropped).toEqual({ nulls: 0, duplicates: 1, conflicts: 2 });
  });

  it("constant series survives unchanged", () => {
    const s = parseHistory({ time_list: TIMES, values: [5, 5, 5, 5, 5] });
    expect([...s.value]).toEqual([5, 5, 5, 5, 5]);
  });

  it("does not mutate its input", () => {
    const body = { data: [[TIMES[1], 2], [TIMES[0], 1], [TIMES[0], 1]] };
    const copy = structuredClone(body);
    parseHistory(body);
    expect(body).toEqual(copy);
  });

  it("rejects bodies with no series: SchemaMismatchError naming the endpoint", () => {
    for (const body of [42, "text", null, { error: "unknown metric" }, { foo: [1, 2] }]) {
      expect(() => parseHistory(body), JSON.stringify(body)).toThrow(SchemaMismatchError);
    }
    try {
      parseHistory({ time_list: [1, 2], values: [1] });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SchemaMismatchError);
      expect((e as SchemaMismatchError).endpoint).toBe("/v1/history");
      expect((e as SchemaMismatchError).variantsTried).toEqual(["columnar"]);
    }
  });
});
