/**
 * The response time check walks the whole normalised response: times nested
 * in objects and arrays below the top level (whale flow's
 * `whale_flow[i].whale_orders[j].timestamp`) are held to the API's time rule
 * (2009..2099) like the top-level ones, and the error names the full path.
 * Bodies of endpoints whose fields the spec does not show (smart-money, ...) are
 * passed through as sent.
 * Bodies are the recorded fixtures (fixtures/api) with one time replaced.
 */
import { describe, expect, it } from "vitest";
import { checkResponseTimes } from "../../src/api/checkResponseTimes.js";
import { createClient } from "../../src/api/createClient.js";
import { normaliseJsonObject, normaliseWhaleFlow } from "../../src/api/schemas/index.js";
import { InvalidTimeError } from "../../src/errors/InvalidTimeError.js";
import { fixture } from "./helpers/fixtureServer.js";

/** A fetch that answers every request 200 with this JSON text. */
function jsonFetch(text: string): typeof globalThis.fetch {
  return async () => new Response(text, { status: 200, headers: { "content-type": "application/json" } });
}

/** What a call threw (undefined when it returned). */
function thrown(f: () => unknown): unknown {
  try {
    f();
    return undefined;
  } catch (e) {
    return e;
  }
}

// 1e20 ms is year ~3.2 billion; -1 is 1969-12-31T23:59:59Z (seconds); both outside 2009..2099.
const BAD = [1e20, "1e20", -1, "3000-01-01T00:00:00Z"] as const;
/** The whale-order schema types `timestamp` as text, so its bad stamps are text too (a number is a schema mismatch). */
const BAD_TEXT = ["1e20", "-1", "3000-01-01T00:00:00Z"] as const;

type Order = Record<string, unknown>;
const whaleEntry = (): { whale_orders: Order[] } & Record<string, unknown> => structuredClone(fixture("whale-flow", "observed")) as { whale_orders: Order[] };

describe("checkResponseTimes: nested times are checked, the full path named", () => {
  it.each(BAD_TEXT)("whale flow (one coin): whale_orders[2].timestamp = %j is refused as whale_flow[0].whale_orders.timestamp, row 2", (bad) => {
    const body = whaleEntry();
    (body.whale_orders[2] as Order)["timestamp"] = bad;
    const err = thrown(() => normaliseWhaleFlow(body));
    expect(err).toBeInstanceOf(InvalidTimeError);
    expect(err).toMatchObject({ source: "/v1/signals/whale-flow", column: "whale_flow[0].whale_orders.timestamp", row: 2 });
    expect((err as Error).message).toContain("whale_flow[0].whale_orders.timestamp at row 2");
  });

  it("whale flow (all coins, through the client): the second coin's first order, year 3000, names entry 1 and row 0", async () => {
    const second = whaleEntry();
    (second.whale_orders[0] as Order)["timestamp"] = "3000-01-01T00:00:00Z";
    const body = { whale_flow: [whaleEntry(), second] };
    const client = createClient({ baseUrl: "http://127.0.0.1:9", fetch: jsonFetch(JSON.stringify(body)), retries: 0 });
    await expect(client.whaleFlow()).rejects.toMatchObject({ code: "INVALID_TIME", source: "/v1/signals/whale-flow", column: "whale_flow[1].whale_orders.timestamp", row: 0 });
  });

  it.each(BAD)("an object nested in an object: data.whale_orders[1].timestamp = %j is refused as data.whale_orders.timestamp, row 1", (bad) => {
    const orders = whaleEntry().whale_orders;
    (orders[1] as Order)["timestamp"] = bad;
    const err = thrown(() => checkResponseTimes({ timestamp: "2026-11-22T12:00:00.000Z", data: { whale_orders: orders } }, "/x"));
    expect(err).toBeInstanceOf(InvalidTimeError);
    expect(err).toMatchObject({ source: "/x", column: "data.whale_orders.timestamp", row: 1 });
  });

  it("smart money (through the client): a body whose fields the spec does not show is passed through as sent, odd times included", async () => {
    // Decision (lead): the client interprets no field of these bodies, so it converts no time in them and refuses none;
    // refusing a whole body over a field it does not know would contradict "tolerates every shape the service sends".
    const orders = whaleEntry().whale_orders;
    (orders[1] as Order)["timestamp"] = 1e20;
    const body = { timestamp: "2026-11-22T12:00:00.000Z", data: { whale_orders: orders } };
    const client = createClient({ baseUrl: "http://127.0.0.1:9", fetch: jsonFetch(JSON.stringify(body)), retries: 0 });
    await expect(client.smartMoney()).resolves.toEqual(body);
    const fixtureBody = structuredClone(fixture("smart-money", "observed")) as { wallets: Order[] };
    (fixtureBody.wallets[3] as Order)["updated_at"] = "3000-01-01T00:00:00Z";
    expect(normaliseJsonObject(fixtureBody, "/v3/signals/smart-money")).toEqual(fixtureBody);
  });

  it("an object in an array in an array: every outer index in the path, the inner one the row", () => {
    const body = { grid: [[{ time_chain: "2026-11-22T12:00:00Z" }], [{ time_chain: "2026-11-22T12:00:00Z" }, { time_chain: 1e20 }]] };
    expect(thrown(() => checkResponseTimes(body, "/x"))).toMatchObject({ source: "/x", column: "grid[1].time_chain", row: 1 });
  });

  it("top-level fields and top-level arrays keep their names (timestamp; signals.timestamp, row 1)", () => {
    expect(thrown(() => checkResponseTimes({ timestamp: -1, signals: [] }, "/x"))).toMatchObject({ column: "timestamp", row: undefined });
    const signals = [{ timestamp: "2026-11-22T12:00:00Z" }, { timestamp: "3000-01-01T00:00:00Z" }];
    expect(thrown(() => checkResponseTimes({ signals }, "/x"))).toMatchObject({ column: "signals.timestamp", row: 1 });
  });
});

describe("checkResponseTimes: good nested times pass, the response unchanged", () => {
  it("the whale flow fixture (three nested order stamps) passes in both shapes", () => {
    const one = whaleEntry();
    const before = structuredClone(one);
    const parsed = normaliseWhaleFlow(one);
    expect(parsed.whale_flow).toHaveLength(1);
    expect(one).toEqual(before); // not mutated
    expect(normaliseWhaleFlow({ whale_flow: [whaleEntry(), whaleEntry()] }).whale_flow).toHaveLength(2);
  });

  it("nested stamps in every accepted form pass: ISO with and without offset, epoch s and ms (number and text), missing, null, empty", () => {
    // 1795348800 s = 1795348800000 ms = 2026-11-22T12:00:00Z (Python: datetime(2026,11,22,12,tzinfo=utc).timestamp())
    const stamps = ["2026-11-22T12:00:00Z", "2026-11-22T13:00:00+01:00", "2026-11-22T12:00:00", 1_795_348_800, 1_795_348_800_000, "1795348800", null, "", undefined];
    const body = { data: { deeper: { whale_orders: stamps.map((timestamp) => ({ timestamp, updated_at: timestamp })) } } };
    const before = structuredClone(body);
    expect(checkResponseTimes(body, "/x")).toBe(body);
    expect(body).toEqual(before);
  });

  it("empty objects and arrays, scalars and null pass as they are", () => {
    for (const body of [{}, [], { a: [] }, { a: {} }, { a: [1, "x", null, [2]] }, null, 42, "text"]) expect(checkResponseTimes(body, "/x")).toBe(body);
  });

  it("the walk stops 16 levels deep: a bad time at depth 16 is refused, one at depth 17 is not read, and a body 10 000 levels deep is no stack overflow", () => {
    const nest = (levels: number, leaf: unknown): unknown => {
      let o: unknown = leaf;
      for (let i = 0; i < levels; i++) o = { n: o };
      return o;
    };
    // The response is depth 0; the object holding the bad time is at depth `levels`.
    expect(thrown(() => checkResponseTimes(nest(16, { timestamp: 1e20 }), "/x"))).toMatchObject({ column: `${"n.".repeat(16)}timestamp` });
    expect(thrown(() => checkResponseTimes(nest(17, { timestamp: 1e20 }), "/x"))).toBeUndefined();
    expect(thrown(() => checkResponseTimes(nest(10_000, { timestamp: 1e20 }), "/x"))).toBeUndefined();
  });
});
