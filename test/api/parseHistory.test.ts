import { describe, expect, it } from "vitest";
import { parseHistory } from "../../src/api/schemas/index.js";
import { SchemaMismatchError } from "../../src/errors/index.js";
import { fixture } from "./helpers/fixtureServer.js";
import { createClient } from "../../src/api/createClient.js";
import { InvalidTimeError } from "../../src/errors/InvalidTimeError.js";

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

  it("skips null / NaN / unreadable values and missing times and counts them", () => {
    const s = parseHistory({
      data: [
        { time_chain: TIMES[0], value: null },
        { time_chain: TIMES[1], value: 1 },
        { time_chain: null, value: 2 },
        { time_chain: "", value: 3 },
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

describe("parseHistory: times are checked where the body is parsed (issue 13, defect 3)", () => {
  // 2009-01-01T00:00:00Z = 1230768000000 and 2100-01-01T00:00:00Z - 1 ms = 4102444799999 (python3 datetime(...).timestamp()*1000).
  const cases: [string, unknown, string, number][] = [
    ["1e20 ms", { data: [{ time_chain: TIMES[0], value: 1 }, { time_chain: 1e20, value: 2 }] }, "data[].time_chain", 1],
    ["a negative number", [[TIMES[0], 1], [TIMES[1], 2], [-1, 3]], "[0]", 2],
    ["year 3000", { time_list: [TIMES[0], "3000-01-01T00:00:00Z"], values: [1, 2] }, "time_list", 1],
    ["1970 (0 ms)", { columns: ["time", "value"], rows: [[0, 1]] }, "rows[].time", 0],
    ["one ms before 2009", [{ t: "2008-12-31T23:59:59.999Z", v: 1 }], "t", 0],
    ["not a date", { result: { data: [{ time: "not a date", value: 3 }] } }, "result.data[].time", 0],
    ["2024-02-30", [{ time: "2024-02-30T00:00:00Z", value: 3 }], "time", 0],
  ];
  for (const [what, body, field, row] of cases) {
    it(`${what}: InvalidTimeError naming /v1/history, ${field} and row ${row}`, () => {
      try {
        parseHistory(body);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(InvalidTimeError);
        expect(e).toMatchObject({ source: "/v1/history", column: field, row });
        expect((e as Error).message).toContain(`/v1/history: ${field} at row ${row} must be a time from 2009-01-01T00:00:00.000Z to 2099-12-31T23:59:59.999Z`);
      }
    });
  }

  it("the range's bounds are accepted", () => {
    const s = parseHistory([{ t: "2009-01-01T00:00:00Z", v: 1 }, { t: "2099-12-31T23:59:59.999Z", v: 2 }]);
    expect([...s.time]).toEqual([1_230_768_000_000, 4_102_444_799_999]);
  });

  it("through the client (the byte scanner declines, the parser refuses): InvalidTimeError, not a series stamped 1e20", async () => {
    for (const time of ['"3000-01-01T00:00:00.000Z"', "1e20", "-1"]) {
      const text = `{"coin":"BTC","metric_id":"btc_price","hours":1,"interval_sec":60,"data":[{"time_chain":${time},"value":1}]}`;
      const client = createClient({ baseUrl: "http://127.0.0.1:9", fetch: jsonFetch(text), retries: 0 });
      await expect(client.history({ metricId: "btc_price" }), time).rejects.toBeInstanceOf(InvalidTimeError);
    }
  });
});

describe("parseHistory: a 200 body that is not a series is a schema error, never an empty series (issue 13, defect 6)", () => {
  const notSeries: unknown[] = [
    { error: "unknown metric", data: [] },
    { message: "metric not found" },
    { detail: "not found" },
    { data: { error: "unknown metric" } },
    { data: "text" },
    { data: 42 },
    { result: { message: "x" } },
    { metric_id: "btc_price", status: "failed" },
    "text",
    42,
    true,
  ];
  for (const body of notSeries) {
    it(`${JSON.stringify(body)} -> SchemaMismatchError`, () => {
      expect(() => parseHistory(body)).toThrow(SchemaMismatchError);
    });
  }

  it("through the client as well", async () => {
    for (const body of notSeries) {
      const client = createClient({ baseUrl: "http://127.0.0.1:9", fetch: jsonFetch(JSON.stringify(body)), retries: 0 });
      await expect(client.history({ metricId: "btc_price" }), JSON.stringify(body)).rejects.toBeInstanceOf(SchemaMismatchError);
    }
  });

  it("metadata-only envelopes and null data are still empty series", () => {
    for (const body of [{}, { metric_id: "btc_price", hours: 24 }, { coin: "BTC", data: null }]) {
      expect(parseHistory(body).time.length, JSON.stringify(body)).toBe(0);
    }
  });
});

/** A fetch that answers every request 200 with this JSON text. */
function jsonFetch(text: string): typeof globalThis.fetch {
  return async () => new Response(text, { status: 200, headers: { "content-type": "application/json" } });
}

describe("the other resources' times are checked where they are parsed (issue 13, defect 3)", () => {
  // Each body is the fixture with one time replaced; the normaliser must refuse it naming endpoint, field and row.
  const composite = fixture("composite", "observed") as { signals: Record<string, unknown>[] };
  it("composite: signals.timestamp 1e20 / -1 / year 3000 at row 1", async () => {
    for (const bad of ["1e20", "-1", "3000-01-01T00:00:00Z"]) {
      const body = structuredClone(composite);
      (body.signals[1] as Record<string, unknown>)["timestamp"] = bad;
      const client = createClient({ baseUrl: "http://127.0.0.1:9", fetch: jsonFetch(JSON.stringify(body)), retries: 0 });
      const err = await client.composite().then(() => undefined, (e: unknown) => e);
      expect(err, bad).toBeInstanceOf(InvalidTimeError);
      expect(err).toMatchObject({ source: "/v1/signals/composite", column: "signals.timestamp", row: 1 });
    }
  });
  it("snapshot: metrics.time_chain out of range", async () => {
    const body = structuredClone(fixture("snapshot", "observed")) as { metrics: Record<string, unknown>[] };
    (body.metrics[0] as Record<string, unknown>)["time_chain"] = "1969-12-31T23:59:59Z";
    const client = createClient({ baseUrl: "http://127.0.0.1:9", fetch: jsonFetch(JSON.stringify(body)), retries: 0 });
    await expect(client.snapshot()).rejects.toMatchObject({ code: "INVALID_TIME", source: "/v1/snapshot", column: "metrics.time_chain", row: 0 });
  });
});
