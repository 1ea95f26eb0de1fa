/**
 * scanHistoryBytes: the byte-level fast path for history bodies in the
 * service's own "wrapped" shape. The reference is the general path,
 * parseHistory(JSON.parse(text)): whenever the scanner answers, its answer
 * must be identical to it (checked on random bodies with fast-check), and it
 * must decline (undefined) on every body it cannot read exactly.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type HistorySeries } from "../../src/api/index.js";
import { parseHistory } from "../../src/api/schemas/index.js";
import { scanHistoryBytes } from "../../src/api/scanHistoryBytes.js";
import { startReplayServer, type ReplayServer } from "../../src/server/index.js";
import { InvalidTimeError } from "../../src/errors/InvalidTimeError.js";

const enc = (text: string): Uint8Array => new TextEncoder().encode(text);
const general = (text: string): HistorySeries => parseHistory(JSON.parse(text));

/** Element-wise with Object.is (so -0 and 0 differ), plus the other fields. */
function expectSame(fast: HistorySeries | undefined, ref: HistorySeries, metricId = ref.metricId): void {
  expect(fast).toBeDefined();
  const f = fast as HistorySeries;
  expect(f.time.length).toBe(ref.time.length);
  for (let i = 0; i < ref.time.length; i++) {
    expect(Object.is(f.time[i], ref.time[i]), `time[${i}]`).toBe(true);
    expect(Object.is(f.value[i], ref.value[i]), `value[${i}]`).toBe(true);
  }
  expect(f.metricId).toBe(metricId);
  expect(f.variant).toBe(ref.variant);
  expect(f.dropped).toEqual(ref.dropped);
}

// 2026-11-22T12:00:00.000Z = 1795348800000 (Python: datetime(2026,11,22,12,tzinfo=utc).timestamp()*1000).
const T0 = 1_795_348_800_000;
const point = (t: number, v: unknown): string => `{"time_chain":"${new Date(t).toISOString()}","value":${JSON.stringify(v)}}`;
const body = (points: string[], head = '"coin":"BTC","metric_id":"btc_price","hours":1,"interval_sec":60,'): string => `{${head}"data":[${points.join(",")}]}`;

describe("scanHistoryBytes: same series as parseHistory(JSON.parse(text))", () => {
  it("reads the service's body: times from the ISO text, values as JSON.parse reads them", () => {
    const text = body([point(T0, 97123.4), point(T0 + 60_000, -0.000017924491358060125), point(T0 + 120_000, 111310.18224500613)]);
    const s = scanHistoryBytes(enc(text));
    expect([...(s as HistorySeries).time]).toEqual([T0, T0 + 60_000, T0 + 120_000]);
    expect([...(s as HistorySeries).value]).toEqual([97123.4, -0.000017924491358060125, 111310.18224500613]);
    expect(s?.metricId).toBe("btc_price");
    expectSame(s, general(text));
  });

  it("empty data, one point, nulls, non-finite numbers, -0, duplicates and unsorted points", () => {
    const cases = [
      body([]),
      body([point(T0, 1)]),
      body([point(T0, null), point(T0 + 60_000, 2)]),
      body([point(T0, 1e400), point(T0 + 60_000, -1e400)]), // JSON.parse gives +-Infinity: dropped as nulls
      body([point(T0, -0), point(T0 + 60_000, 0)]),
      body([point(T0, 5), point(T0, 5), point(T0, 6), point(T0 - 60_000, 4)]),
      body([point(T0, 3), point(T0, 3)]),
      body([point(T0, 3)], ""), // no envelope keys but data
      body([point(T0, 3)], '"metric_id":null,"metric":"m",'), // metric_id null: metric used, as in parseHistory
      body([point(T0, 3)], '"metric_id":7,'), // not a string: no metric id
      body([point(T0, 3)], '"coin":null,"hours":7.5e0,"interval_sec":true,'),
    ];
    for (const text of cases) expectSame(scanHistoryBytes(enc(text)), general(text));
    expect(scanHistoryBytes(enc(body([])))?.variant).toBe("wrapped");
    expect(scanHistoryBytes(enc(body([point(T0, null), point(T0 + 60_000, 2)])))?.dropped).toEqual({ nulls: 1, duplicates: 0, conflicts: 0 });
  });

  it("numbers at the edges of the exact fast path (mantissa 2^53, powers of ten 10^22/10^23) read as JSON.parse reads them", () => {
    const tokens = [
      "9007199254740991e-5", // mantissa 2^53 - 1: fast path
      "9007199254740992e-5", // 2^53: the general path
      "9007199254740993e-6", // 2^53 + 1 (rounds to 2^53 in a double): must not take the fast path (it would give 9007199254.740992)
      "90071992547409931",
      "1e22",
      "1e23",
      "1e-22",
      "1e-23",
      "123456789012345678901234567890",
      "0.1",
      "-0.0",
      "0e5",
      "1E+2",
      "1e-0",
      "5e-324",
      "1.7976931348623157e308",
      "2.2250738585072014e-308",
      "-0.000017924491358060125",
      "111310.18224500613",
      "93733.2799702694",
    ];
    const text = body(tokens.map((tok, k) => `{"time_chain":"${new Date(T0 + k * 60_000).toISOString()}","value":${tok}}`));
    const s = scanHistoryBytes(enc(text)) as HistorySeries;
    expectSame(s, general(text));
    tokens.forEach((tok, k) => expect(Object.is(s.value[k], JSON.parse(tok)), tok).toBe(true));
  });

  it("agrees on random bodies: any valid 24-character ISO time, any finite double or null, any order", () => {
    // Times from year 0000 to 9999 (the range with a 4-digit year), crossing leap days and month ends;
    // those outside the API's 2009..2099 are refused (checked below).
    const time = fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 });
    const value = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.constant(null), fc.constant(-0));
    const pt = fc.tuple(time, value);
    // Runs of consecutive minutes (the common case: the day cache is reused) and scattered points.
    const runStart = fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 - 30 * 60_000 });
    const run = fc.tuple(runStart, fc.array(value, { maxLength: 30 })).map(([t0, vs]) => vs.map((v, k): [number, number | null] => [t0 + k * 60_000, v]));
    fc.assert(
      fc.property(fc.array(fc.oneof(pt.map((p) => [p]), run), { maxLength: 8 }), fc.option(fc.string(), { nil: undefined }), (groups, id) => {
        const points = groups.flat().map(([t, v]) => point(t, v));
        const head = id === undefined ? "" : `"metric_id":${JSON.stringify(id)},`;
        const text = body(points, head);
        const fast = scanHistoryBytes(enc(text));
        // A time outside the API's range (2009..2099): the scanner declines and the general
        // parser raises the typed error (the one place that names the row).
        let ref: HistorySeries;
        try {
          ref = general(text);
        } catch (e) {
          expect(e).toBeInstanceOf(InvalidTimeError);
          expect(fast).toBeUndefined();
          return;
        }
        // Ids with escapes or non-ASCII characters are left to the general path.
        if (id !== undefined && !/^[\x20-\x7e]*$/.test(id.replace(/["\\]/g, "\u0000"))) {
          expect(fast).toBeUndefined();
          return;
        }
        expectSame(fast, ref);
      }),
      { numRuns: 300 },
    );
  });

  it("a later call leaves an earlier result alone (results never share the scanner's working arrays)", () => {
    const first = scanHistoryBytes(enc(body([point(T0, 1), point(T0 + 60_000, 2)]))) as HistorySeries;
    scanHistoryBytes(enc(body([point(T0 + 120_000, 8), point(T0 + 180_000, 9), point(T0 + 240_000, 10)])));
    scanHistoryBytes(enc(body([point(T0, 5)]).replace("5}", "5.5.5}"))); // declined half way
    expect([...first.time]).toEqual([T0, T0 + 60_000]);
    expect([...first.value]).toEqual([1, 2]);
  });

  it("does not modify the bytes it reads", () => {
    const bytes = enc(body([point(T0 + 60_000, 2), point(T0, 1)]));
    const copy = bytes.slice();
    scanHistoryBytes(bytes);
    expect(bytes).toEqual(copy);
  });
});

describe("scanHistoryBytes: declines (undefined) whatever it cannot read exactly", () => {
  const ok = body([point(T0, 1.5)]);
  const declined: [string, string][] = [
    ["empty body", ""],
    ["{}", "{}"],
    ["a bare array", `[${point(T0, 1)}]`],
    ["whitespace", ok.replace('"data":', '"data": ')],
    ["a leading BOM", `\uFEFF${ok}`],
    ["trailing whitespace", `${ok}\n`],
    ["an unknown envelope key", body([point(T0, 1)], '"extra":1,')],
    ["a repeated envelope key", body([point(T0, 1)], '"coin":"BTC","coin":"ETH",')],
    ["data twice", `{"data":[],"data":[${point(T0, 1)}]}`],
    ["an object in the envelope", body([point(T0, 1)], '"coin":{},')],
    ["an escaped string", body([point(T0, 1)], '"metric_id":"btc\\u005fprice",')],
    ["a numeric string value", ok.replace("1.5", '"1.5"')],
    ["an extra key in a point", ok.replace("1.5}", '1.5,"metric_id":"btc_price"}')],
    ["other key names", ok.replace("time_chain", "time")],
    ["no milliseconds", ok.replace(".000Z", "Z")],
    ["an offset instead of Z", ok.replace(".000Z", ".000+00:00")],
    ["month 13", ok.replace("2026-11-22", "2026-13-22")],
    ["day 31 of November", ok.replace("2026-11-22", "2026-11-31")],
    ["29 February of a common year", ok.replace("2026-11-22", "2026-02-29")],
    ["hour 24", ok.replace("T12:", "T24:")],
    ["minute 60", ok.replace(":00:00.", ":60:00.")],
    ["a non-digit in the time", ok.replace("T12:", "T1x:")],
    ["a malformed number", ok.replace("1.5", "1.5.5")],
    ["a leading plus", ok.replace("1.5", "+1.5")],
    ["a leading zero", ok.replace("1.5", "01.5")],
    ["true as a value", ok.replace("1.5", "true")],
    ["truncated", ok.slice(0, -3)],
    ["a trailing comma", ok.replace("}]}", "},]}")],
  ];
  for (const [what, text] of declined) {
    it(what, () => {
      expect(scanHistoryBytes(enc(text))).toBeUndefined();
    });
  }

  it("29 February of a leap year is read (boundary of the calendar check)", () => {
    const text = ok.replace("2026-11-22", "2024-02-29");
    expect(scanHistoryBytes(enc(text))?.time[0]).toBe(Date.UTC(2024, 1, 29, 12));
  });

  it("the client falls back to the tolerant parser for those bodies (same series as before)", () => {
    // Shapes the scanner declines but parseHistory reads: the client must still read them.
    for (const text of [ok.replace('"data":', '"data": '), ok.replace(".000Z", "Z"), ok.replace("1.5", '"1.5"')]) {
      expect([...general(text).value]).toEqual([1.5]);
    }
  });
});

describe("client.history through the byte scanner", () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer({ clock: () => Date.UTC(2026, 10, 22, 12, 0, 30), seed: 42, rateLimitPerMinute: 0 });
  });
  afterAll(async () => {
    await server.close();
  });

  it("gives the same series as the tolerant parser on the server's JSON, for the default and the other shapes", async () => {
    const client = createClient({ baseUrl: server.url, rateLimitPerMinute: 100_000 });
    for (const variant of ["wrapped", "array", "pairs", "columnar", "rows"]) {
      const viaClient = await client.history({ metricId: "btc_price", hours: 3, extraParams: { _variant: variant } });
      const json = await (await fetch(`${server.url}/v1/history?hours=3&metric_id=btc_price&_variant=${variant}`)).text();
      expectSame(viaClient, general(json), general(json).metricId ?? "btc_price"); // the client names a series by the id asked for when the body does not
      expect(viaClient.time.length).toBe(180);
    }
  });

  it("cached series are copies: writing into one caller's arrays changes no other caller's", async () => {
    const client = createClient({ baseUrl: server.url, rateLimitPerMinute: 100_000 });
    const a = await client.history({ metricId: "eth_price", hours: 2 });
    const keep = a.value[0] as number;
    (a.value as Float64Array)[0] = -1;
    const b = await client.history({ metricId: "eth_price", hours: 2 });
    expect(b.value[0]).toBe(keep);
    expect(b.value).not.toBe(a.value);
  });

  it("raw() on the same URL still returns the JSON body, not the scanned series", async () => {
    const client = createClient({ baseUrl: server.url, rateLimitPerMinute: 100_000 });
    await client.history({ metricId: "sol_price", hours: 1 });
    const raw = (await client.raw("/v1/history", { hours: 1, metric: "sol_price", metric_id: "sol_price" })) as { data: unknown[]; metric_id: string };
    expect(raw.metric_id).toBe("sol_price");
    expect(raw.data).toHaveLength(60);
  });
});
