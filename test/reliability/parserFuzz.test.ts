/**
 * Property-based fuzzing (fast-check) of every parser the client and the
 * recorder run on input they do not control. For each: any input gives a
 * value or a typed error (MarketIntelError), never a crash; and where the
 * right answer is known from the input's construction, the value is exactly
 * it (no silently wrong number):
 * - the endpoint normalisers and the analytics page parser, on arbitrary JSON
 *   and on the recorded fixtures with one random field replaced or removed;
 * - parseHistory, on series built in each accepted shape (the numbers must
 *   come back exactly, sorted by time) and on arbitrary JSON;
 * - scanHistoryBytes (the fast path), on service-shaped bodies with one byte
 *   changed: it returns undefined or exactly what parseHistory(JSON.parse) gives;
 * - the recording line format (round trip; any line read without a throw);
 * - Retry-After, Cache-Control max-age, response time stamps, methodology weights.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { parseHistory } from "../../src/api/parseHistory.js";
import { parseMethodologyWeights } from "../../src/api/parseMethodologyWeights.js";
import { parseAnalyticsPage } from "../../src/api/schemas/analytics.js";
import { scanHistoryBytes } from "../../src/api/scanHistoryBytes.js";
import { normaliseComposite } from "../../src/api/schemas/composite.js";
import { normaliseJsonObject } from "../../src/api/schemas/jsonObject.js";
import { normaliseRegime } from "../../src/api/schemas/regime.js";
import { normaliseSnapshot } from "../../src/api/schemas/snapshot.js";
import { normaliseVolatility } from "../../src/api/schemas/volatility.js";
import { normaliseWhaleFlow } from "../../src/api/schemas/whaleFlow.js";
import { parseMaxAge } from "../../src/api/transport/parseMaxAge.js";
import { parseRetryAfter } from "../../src/api/transport/parseRetryAfter.js";
import { API_TIME_RANGE } from "../../src/api/apiTimeRange.js";
import { InvalidTimeError, MarketIntelError } from "../../src/errors/index.js";
import { formatRecordingLine, lineKey, parseRecordingLine } from "../../src/load/recordingLine.js";
import { responseTimestamp } from "../../src/load/responseTimestamp.js";

const RUNS = 400;
const fixtures = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "fixtures", "api");
const figures: [string, number, number][] = [];
afterAll(() => {
  const tried = figures.reduce((a, f) => a + f[1], 0);
  const held = figures.reduce((a, f) => a + f[2], 0);
  console.log(`reliability: parser fuzzing: ${tried} inputs tried, ${held} held, over ${figures.length} properties\n${figures.map(([n, t, h]) => `  ${n}: ${h}/${t}`).join("\n")}`);
});

/** Run a property, counting the inputs tried and held (a counterexample fails the test after shrinking). */
function check<T>(name: string, arb: fc.Arbitrary<T>, holds: (x: T) => boolean, runs = RUNS): void {
  let tried = 0;
  let held = 0;
  try {
    fc.assert(
      fc.property(arb, (x) => {
        tried++;
        const ok = holds(x);
        if (ok) held++;
        return ok;
      }),
      { numRuns: runs, seed: 20261123 },
    );
  } finally {
    figures.push([name, tried, held]);
  }
}

/** True when `f(x)` returns, or throws a MarketIntelError; false on any other throw. */
function valueOrTyped(f: () => unknown): boolean {
  try {
    f();
    return true;
  } catch (e) {
    return e instanceof MarketIntelError;
  }
}

/** Every path to a value inside `v` (the root is []). */
function paths(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out));
  else if (typeof v === "object" && v !== null) for (const [k, x] of Object.entries(v)) paths(x, [...at, k], out);
  return out;
}

/** A copy of `v` with the value at `path` replaced by `by`, or removed when `by` is undefined. */
function mutate(v: unknown, path: readonly (string | number)[], by: unknown): unknown {
  if (path.length === 0) return by;
  const copy = structuredClone(v) as Record<string | number, unknown>;
  let parent = copy;
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (by === undefined) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else parent[last] = by;
  return copy;
}

/** The fixtures of one endpoint, each with one random field replaced (by any JSON value) or removed. */
function mutatedFixture(dir: string): fc.Arbitrary<unknown> {
  const bodies = readdirSync(join(fixtures, dir)).map((f) => JSON.parse(readFileSync(join(fixtures, dir, f), "utf8")) as unknown);
  return fc.tuple(fc.nat(), fc.nat(), fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined })).map(([b, p, by]) => {
    const body = bodies[b % bodies.length];
    const all = paths(body);
    return mutate(body, all[p % all.length] as (string | number)[], by);
  });
}

const anyJson = fc.jsonValue({ maxDepth: 4 });

describe("endpoint normalisers: value or typed error, on arbitrary JSON and on mutated fixtures", () => {
  const cases: [string, string, (b: unknown) => unknown][] = [
    ["normaliseSnapshot", "snapshot", (b) => normaliseSnapshot(b)],
    ["normaliseVolatility", "volatility", (b) => normaliseVolatility(b)],
    ["normaliseWhaleFlow", "whale-flow", (b) => normaliseWhaleFlow(b)],
    ["normaliseComposite", "composite", (b) => normaliseComposite(b)],
    ["normaliseRegime", "regime", (b) => normaliseRegime(b)],
    ["normaliseJsonObject", "squeeze", (b) => normaliseJsonObject(b, "/v3/signals/squeeze")],
    ["parseAnalyticsPage", "analytics", (b) => parseAnalyticsPage(b)],
    ["parseHistory", "history", (b) => parseHistory(b)],
  ];
  it.each(cases)("%s", (name, dir, parse) => {
    check(`${name} (arbitrary JSON)`, anyJson, (b) => valueOrTyped(() => parse(b)));
    check(`${name} (mutated fixtures)`, mutatedFixture(dir), (b) => valueOrTyped(() => parse(b)));
  });
});

/** Distinct epoch ms inside the API's time range (2009..2099, see src/api/apiTimeRange.ts) and finite values, in a random order. */
const series = fc
  .uniqueArray(fc.integer({ min: Date.UTC(2009, 0, 1), max: Date.UTC(2099, 11, 31) }), { maxLength: 40 })
  .chain((times) =>
    fc.tuple(fc.constant(times), fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { minLength: times.length, maxLength: times.length })),
  );

describe("parseHistory gives back exactly the numbers it was given", () => {
  const shapes: [string, (t: number[], v: number[]) => unknown][] = [
    ["wrapped", (t, v) => ({ metric_id: "btc_price", data: t.map((x, i) => ({ time_chain: new Date(x).toISOString(), value: v[i] })) })],
    ["array", (t, v) => t.map((x, i) => ({ time: new Date(x).toISOString(), value: v[i] }))],
    ["pairs", (t, v) => ({ data: t.map((x, i) => [new Date(x).toISOString(), v[i]]) })],
    ["columnar", (t, v) => ({ time_list: t.map((x) => new Date(x).toISOString()), values: v })],
    ["rows", (t, v) => ({ columns: ["time", "value"], rows: t.map((x, i) => [new Date(x).toISOString(), v[i]]) })],
  ];
  it.each(shapes)("%s", (shape, build) => {
    check(`parseHistory exact (${shape})`, series, ([times, values]) => {
      // The body travels as JSON, as it would over HTTP (-0 becomes 0).
      const body = JSON.parse(JSON.stringify(build(times, values))) as unknown;
      const s = parseHistory(body);
      const order = times.map((_, i) => i).sort((a, b) => (times[a] as number) - (times[b] as number));
      const wantT = order.map((i) => times[i] as number);
      const wantV = order.map((i) => JSON.parse(JSON.stringify(values[i])) as number);
      return (
        s.time.length === wantT.length &&
        wantT.every((t, i) => s.time[i] === t) &&
        wantV.every((v, i) => Object.is(s.value[i], v)) &&
        s.dropped.nulls + s.dropped.duplicates + s.dropped.conflicts === 0
      );
    });
  });
});

describe("parseHistory refuses a stamp outside the API's time range with a typed error", () => {
  it("any point stamped 1970..2008 or after 2099", () => {
    const outside = fc.oneof(fc.integer({ min: 0, max: API_TIME_RANGE.min - 1 }), fc.integer({ min: Date.UTC(2100, 0, 1), max: Date.UTC(9999, 11, 31) }));
    check("parseHistory out-of-range stamp (wrapped)", fc.tuple(outside, fc.double({ noNaN: true, noDefaultInfinity: true })), ([t, v]) => {
      try {
        parseHistory({ metric_id: "btc_price", data: [{ time_chain: new Date(t).toISOString(), value: v }] });
        return false;
      } catch (e) {
        return e instanceof InvalidTimeError;
      }
    });
  });
});

describe("scanHistoryBytes (the fast path) agrees with parseHistory(JSON.parse) or declines", () => {
  const serviceBody = series.map(([t, v]) =>
    JSON.stringify({ coin: "BTC", metric_id: "btc_price", hours: 1, interval_sec: 60, data: t.map((x, i) => ({ time_chain: new Date(x).toISOString(), value: i % 7 === 3 ? null : v[i] })) }),
  );
  const agrees = (bytes: Uint8Array): boolean => {
    let fast: ReturnType<typeof scanHistoryBytes>;
    try {
      fast = scanHistoryBytes(bytes);
    } catch (e) {
      return e instanceof MarketIntelError;
    }
    if (fast === undefined) return true;
    let slow: ReturnType<typeof parseHistory>;
    try {
      slow = parseHistory(JSON.parse(new TextDecoder().decode(bytes)));
    } catch {
      return false; // the fast path read something the definition refuses
    }
    try {
      expect(fast).toEqual(slow);
      return true;
    } catch {
      return false;
    }
  };
  it("on service bodies as sent", () => {
    check("scanHistoryBytes = parseHistory (service bodies)", serviceBody, (text) => {
      const fast = scanHistoryBytes(new TextEncoder().encode(text));
      return fast !== undefined && agrees(new TextEncoder().encode(text));
    });
  });
  it("on service bodies with one byte changed, and on arbitrary bytes", () => {
    check(
      "scanHistoryBytes = parseHistory (one byte changed)",
      fc.tuple(serviceBody, fc.nat(), fc.integer({ min: 0, max: 255 })),
      ([text, at, byte]) => {
        const bytes = new TextEncoder().encode(text);
        bytes[at % bytes.length] = byte;
        return agrees(bytes);
      },
      RUNS * 3,
    );
    check("scanHistoryBytes (arbitrary bytes)", fc.uint8Array({ maxLength: 200 }), agrees);
  });
});

describe("recording lines", () => {
  const recorded = fc.record({
    endpoint: fc.string(),
    key: fc.string(),
    time: fc.integer({ min: 0, max: Date.UTC(2099, 0, 1) }),
    fetchedAt: fc.integer({ min: 0, max: Date.UTC(2099, 0, 1) }),
    body: anyJson,
  });
  it("format then parse gives the record back; lineKey reads its key", () => {
    check("recording line round trip", recorded, (r) => {
      const line = formatRecordingLine(r);
      const back = parseRecordingLine(line.slice(0, -1));
      try {
        expect(back).toEqual({ ...r, body: JSON.parse(JSON.stringify(r.body)) as unknown });
      } catch {
        return false;
      }
      return lineKey(line) === r.key;
    });
  });
  it("any line (torn, corrupt, hostile) is read without a throw", () => {
    const hostile = fc.oneof(
      fc.string(),
      fc.string().map((s) => `{"key":"${s}`),
      fc.tuple(fc.constantFrom("\\u", "\\x", "\t", "\\"), fc.string({ maxLength: 5 })).map(([esc, s]) => `{"key":"${esc}${s}"}`),
      recorded.chain((r) => fc.nat().map((n) => formatRecordingLine(r).slice(0, n))),
    );
    check("parseRecordingLine / lineKey (any line)", hostile, (line) => {
      try {
        parseRecordingLine(line);
        const k = lineKey(line);
        return k === undefined || typeof k === "string";
      } catch {
        return false;
      }
    });
  });
});

describe("headers, time stamps, methodology text", () => {
  it("Retry-After: NaN (unreadable) or a wait >= 0 ms, never negative", () => {
    const header = fc.oneof(fc.string(), fc.nat().map(String), fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()), fc.stringMatching(/^\d{1,400}$/));
    check("parseRetryAfter", fc.tuple(header, fc.integer({ min: 0, max: 4e12 })), ([h, now]) => {
      const ms = parseRetryAfter(h, now);
      return Number.isNaN(ms) || ms >= 0;
    });
  });
  it("Cache-Control max-age: a finite lifetime of at most 2^31 s (RFC 9111 section 1.2.2), whatever the header", () => {
    const header = fc.oneof(fc.string(), fc.stringMatching(/^(public, )?max-age=\d{1,400}$/), fc.constantFrom("no-store", "private, no-cache"));
    check("parseMaxAge", header, (h) => {
      const ms = parseMaxAge(h, 45_000);
      return Number.isFinite(ms) && ms >= 0 && ms <= 2 ** 31 * 1000;
    });
  });
  it("a response's own time stamp: NaN or a finite epoch ms", () => {
    check("responseTimestamp", anyJson, (b) => {
      const t = responseTimestamp(b);
      return Number.isNaN(t) || Number.isFinite(t);
    });
  });
  it("methodology weights: fractions in [0, 1] (or the default set), never a throw", () => {
    const text = fc.oneof(fc.string(), fc.stringMatching(/^(imbalance|funding|basis|momentum|gas) \d{1,4}(\.\d{1,3})?% ?$/));
    check("parseMethodologyWeights", text, (t) => {
      try {
        const { weights } = parseMethodologyWeights(t);
        return Object.values(weights).every((w) => Number.isFinite(w) && w >= 0);
      } catch (e) {
        return e instanceof MarketIntelError;
      }
    });
  });
});
