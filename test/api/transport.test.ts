import { afterEach, describe, expect, it } from "vitest";
import { createClient, type ClientEvent } from "../../src/api/index.js";
import { parseRetryAfter } from "../../src/api/transport/parseRetryAfter.js";
import {
  HttpError,
  MalformedResponseError,
  NetworkError,
  RateLimitedError,
  RequestTimeoutError,
  ResponseTooLargeError,
} from "../../src/errors/index.js";
import { fixture, startFixtureServer, type FixtureServer, type Handler } from "./helpers/fixtureServer.js";

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: Handler): Promise<FixtureServer> {
  server = await startFixtureServer(handler);
  return server;
}

const SNAPSHOT = fixture("snapshot", "observed");
const fast = { retryDelayMs: 1, rateLimitPerMinute: 10_000, cacheTtlMs: 0 } as const;

describe("retries", () => {
  it("503 then 200: retried once, returns the data", async () => {
    const s = await serve((_r, i) => (i === 0 ? { status: 503, body: { error: "down" } } : { body: SNAPSHOT }));
    const events: ClientEvent[] = [];
    const snap = await createClient({ baseUrl: s.url, ...fast, onEvent: (e) => events.push(e) }).snapshot();
    expect(snap.metrics.length).toBeGreaterThan(0);
    expect(s.requests).toHaveLength(2);
    expect(events.filter((e) => e.type === "retry")).toHaveLength(1);
    expect(events.map((e) => e.type)).toEqual(["request", "failure", "retry", "request", "response"]);
    expect(events[1]).toMatchObject({ type: "failure", status: 503, code: "HTTP_ERROR", attempt: 1 });
  });

  it("408, 500 and a dropped connection are retried; 404 and 400 are not", async () => {
    for (const first of [{ status: 408 }, { status: 500 }, { destroy: true }]) {
      const s = await serve((_r, i) => (i === 0 ? first : { body: SNAPSHOT }));
      await createClient({ baseUrl: s.url, ...fast }).snapshot();
      expect(s.requests, JSON.stringify(first)).toHaveLength(2);
      await s.close();
      server = undefined;
    }
    for (const status of [404, 400]) {
      const s = await serve(() => ({ status, body: { error: "nope" } }));
      const err = await createClient({ baseUrl: s.url, ...fast }).snapshot().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HttpError);
      expect((err as HttpError).status).toBe(status);
      expect((err as HttpError).bodyExcerpt).toContain("nope");
      expect(s.requests).toHaveLength(1);
      await s.close();
      server = undefined;
    }
  });

  it("gives up after `retries` and throws the last HttpError (status, url, excerpt)", async () => {
    const s = await serve(() => ({ status: 502, body: "bad gateway" }));
    const err = (await createClient({ baseUrl: s.url, ...fast, retries: 2 }).snapshot().catch((e: unknown) => e)) as HttpError;
    expect(err).toBeInstanceOf(HttpError);
    expect(err.status).toBe(502);
    expect(err.url).toBe(`${s.url}/v1/snapshot`);
    expect(err.bodyExcerpt).toBe("bad gateway");
    expect(s.requests).toHaveLength(3);
  });

  it("connection refused -> NetworkError after retries", async () => {
    const s = await serve(() => ({ body: {} }));
    const url = s.url;
    await s.close();
    server = undefined;
    const err = await createClient({ baseUrl: url, ...fast, retries: 1 }).snapshot().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
  });
});

describe("Retry-After", () => {
  it("seconds form: the wait is the server's (1 s), reported in the retry event", async () => {
    const s = await serve((_r, i) => (i === 0 ? { status: 429, headers: { "retry-after": "1" } } : { body: SNAPSHOT }));
    const events: ClientEvent[] = [];
    await createClient({ baseUrl: s.url, ...fast, onEvent: (e) => events.push(e) }).snapshot();
    const retry = events.find((e) => e.type === "retry");
    expect(retry).toMatchObject({ type: "retry", delayMs: 1000 });
    expect(s.requests).toHaveLength(2);
  });

  it("HTTP-date form: the wait is the date minus the client's clock", async () => {
    const now = Date.UTC(2026, 10, 22, 12, 0, 0);
    const at = new Date(now + 1000).toUTCString();
    const s = await serve((_r, i) => (i === 0 ? { status: 503, headers: { "retry-after": at } } : { body: SNAPSHOT }));
    const events: ClientEvent[] = [];
    await createClient({ baseUrl: s.url, ...fast, clock: () => now, onEvent: (e) => events.push(e) }).snapshot();
    expect(events.find((e) => e.type === "retry")).toMatchObject({ delayMs: 1000 });
  });

  it("a Retry-After beyond maxRetryAfterMs is not waited for: RateLimitedError at once with retryAfterMs", async () => {
    const s = await serve(() => ({ status: 429, headers: { "retry-after": "120" }, body: { error: "slow down" } }));
    const err = (await createClient({ baseUrl: s.url, ...fast }).snapshot().catch((e: unknown) => e)) as RateLimitedError;
    expect(err).toBeInstanceOf(RateLimitedError);
    expect(err.retryAfterMs).toBe(120_000);
    expect(err.status).toBe(429);
    expect(err.message).toContain("60 requests a minute");
    expect(err.message).toContain("wait 120 s");
    expect(s.requests).toHaveLength(1);
  });

  it("a 503 with Retry-After that is never lifted: HttpError carries retryAfterMs", async () => {
    const s = await serve(() => ({ status: 503, headers: { "retry-after": "0" } }));
    const err = (await createClient({ baseUrl: s.url, ...fast, retries: 1 }).snapshot().catch((e: unknown) => e)) as HttpError;
    expect(err).toBeInstanceOf(HttpError);
    expect(err).not.toBeInstanceOf(RateLimitedError);
    expect(err.retryAfterMs).toBe(0);
    expect(err.message).toContain("HTTP 503");
  });

  it("429 on every attempt -> RateLimitedError after the retries", async () => {
    const s = await serve(() => ({ status: 429, headers: { "retry-after": "0" } }));
    const err = await createClient({ baseUrl: s.url, ...fast, retries: 2 }).snapshot().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect(err).toBeInstanceOf(HttpError);
    expect(s.requests).toHaveLength(3);
  });

  it("parseRetryAfter: seconds, date, past date, garbage", () => {
    expect(parseRetryAfter("12", 0)).toBe(12_000);
    expect(parseRetryAfter("Thu, 01 Jan 1970 00:00:05 GMT", 1000)).toBe(4000);
    expect(parseRetryAfter("Thu, 01 Jan 1970 00:00:05 GMT", 9000)).toBe(0);
    expect(parseRetryAfter("soon", 0)).toBeNaN();
    expect(parseRetryAfter(null, 0)).toBeNaN();
  });
});

describe("timeouts, size limit, malformed JSON", () => {
  it("a server slower than timeoutMs -> RequestTimeoutError (each attempt timed out)", async () => {
    const s = await serve(() => ({ delayMs: 1500, body: SNAPSHOT }));
    const err = (await createClient({ baseUrl: s.url, ...fast, timeoutMs: 100, retries: 1 })
      .snapshot()
      .catch((e: unknown) => e)) as RequestTimeoutError;
    expect(err).toBeInstanceOf(RequestTimeoutError);
    expect(err.timeoutMs).toBe(100);
    expect(s.requests).toHaveLength(2);
  });

  it("the time limit covers the body too: headers on time, body stalled -> RequestTimeoutError", async () => {
    const s = await serve(() => ({ body: SNAPSHOT, stallMs: 1500 }));
    const err = await createClient({ baseUrl: s.url, ...fast, timeoutMs: 200, retries: 0 }).snapshot().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestTimeoutError);
  });

  it("Content-Length above maxResponseBytes -> ResponseTooLargeError, not retried", async () => {
    const s = await serve(() => ({ body: SNAPSHOT }));
    const err = (await createClient({ baseUrl: s.url, ...fast, maxResponseBytes: 100 })
      .snapshot()
      .catch((e: unknown) => e)) as ResponseTooLargeError;
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err.limitBytes).toBe(100);
    expect(err.receivedBytes).toBe(JSON.stringify(SNAPSHOT).length);
    expect(s.requests).toHaveLength(1);
  });

  it("a chunked body (no Content-Length) is cut off once it passes the limit", async () => {
    const s = await serve(() => ({ body: SNAPSHOT, chunks: 8 }));
    const err = await createClient({ baseUrl: s.url, ...fast, maxResponseBytes: 200 }).snapshot().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    // Under the limit the same chunked body is read whole.
    const ok = await createClient({ baseUrl: s.url, ...fast, maxResponseBytes: 10_000 }).snapshot();
    expect(ok.metrics).toHaveLength(7);
  });

  it("malformed JSON -> MalformedResponseError with a body excerpt", async () => {
    const s = await serve(() => ({ body: "<html>upstream error</html>" }));
    const err = (await createClient({ baseUrl: s.url, ...fast }).snapshot().catch((e: unknown) => e)) as MalformedResponseError;
    expect(err).toBeInstanceOf(MalformedResponseError);
    expect(err.bodyExcerpt).toContain("<html>");
    expect(s.requests).toHaveLength(1);
  });
});

describe("cache and de-duplication", () => {
  it("a second identical call within the TTL is served from the cache", async () => {
    const s = await serve(() => ({ body: SNAPSHOT }));
    const events: ClientEvent[] = [];
    const client = createClient({ baseUrl: s.url, rateLimitPerMinute: 1000, onEvent: (e) => events.push(e) });
    const a = await client.snapshot();
    const b = await client.snapshot();
    expect(b).toEqual(a);
    expect(s.requests).toHaveLength(1);
    expect(events.some((e) => e.type === "cache-hit")).toBe(true);
  });

  it("TTL comes from Cache-Control max-age when present, else cacheTtlMs", async () => {
    let now = 1_000_000;
    const s = await serve((r) => ({ body: SNAPSHOT, headers: r.query.get("coin") === "BTC" ? { "cache-control": "public, max-age=5" } : {} }));
    const client = createClient({ baseUrl: s.url, rateLimitPerMinute: 1000, cacheTtlMs: 20_000, clock: () => now });
    await client.raw("/v1/snapshot", { coin: "BTC" }); // max-age 5 s
    await client.raw("/v1/snapshot"); // default 20 s
    now += 4_000;
    await client.raw("/v1/snapshot", { coin: "BTC" });
    await client.raw("/v1/snapshot");
    expect(s.requests).toHaveLength(2);
    now += 2_000; // 6 s: max-age expired, default not
    await client.raw("/v1/snapshot", { coin: "BTC" });
    await client.raw("/v1/snapshot");
    expect(s.requests).toHaveLength(3);
    now += 15_000; // 21 s: both expired
    await client.raw("/v1/snapshot");
    expect(s.requests).toHaveLength(4);
  });

  it("clearCache() forgets cached responses", async () => {
    const s = await serve(() => ({ body: SNAPSHOT }));
    const client = createClient({ baseUrl: s.url, rateLimitPerMinute: 1000 });
    await client.snapshot();
    client.clearCache();
    await client.snapshot();
    expect(s.requests).toHaveLength(2);
  });

  it("Cache-Control: no-store is never cached; cacheTtlMs 0 disables caching", async () => {
    const s = await serve(() => ({ body: SNAPSHOT, headers: { "cache-control": "no-store" } }));
    const client = createClient({ baseUrl: s.url, rateLimitPerMinute: 1000 });
    await client.snapshot();
    await client.snapshot();
    expect(s.requests).toHaveLength(2);
  });

  it("identical concurrent calls share one request", async () => {
    const s = await serve(() => ({ body: SNAPSHOT, delayMs: 100 }));
    const events: ClientEvent[] = [];
    const client = createClient({ baseUrl: s.url, ...fast, onEvent: (e) => events.push(e) });
    const all = await Promise.all([client.snapshot(), client.snapshot(), client.snapshot()]);
    expect(all.every((x) => x.metrics.length === 7)).toBe(true);
    expect(s.requests).toHaveLength(1);
    expect(events.filter((e) => e.type === "dedupe")).toHaveLength(2);
  });

  it("results are copies: mutating one does not change the next cached answer", async () => {
    const s = await serve(() => ({ body: fixture("liquidations", "observed") }));
    const client = createClient({ baseUrl: s.url, rateLimitPerMinute: 1000 });
    const a = await client.liquidations();
    a["cascade_detected"] = "changed";
    const b = await client.liquidations();
    expect(b["cascade_detected"]).toBe(false);
    expect(s.requests).toHaveLength(1);
  });
});

describe("rate limiter", () => {
  it("rateLimitPerMinute is shared by all calls: the call past the limit waits (reported), none is sent early", async () => {
    const s = await serve(() => ({ body: SNAPSHOT }));
    const events: ClientEvent[] = [];
    const client = createClient({ baseUrl: s.url, rateLimitPerMinute: 2, cacheTtlMs: 0, onEvent: (e) => events.push(e) });
    await client.raw("/v1/snapshot", { a: 1 });
    await client.raw("/v1/snapshot", { a: 2 });
    const third = client.raw("/v1/snapshot", { a: 3, token: "hidden-token" });
    await new Promise((r) => setTimeout(r, 200));
    expect(s.requests).toHaveLength(2);
    const wait = events.find((e) => e.type === "rate-limit-wait");
    expect(wait).toMatchObject({ url: `${s.url}/v1/snapshot?a=3&token=REDACTED` });
    void third.catch(() => undefined); // the server closes before the minute is over
  });
});

describe("API key", () => {
  const KEY = "sk-test-SECRET-1234";

  it("is sent as X-API-Key and never appears in errors or events", async () => {
    const s = await serve(() => ({ status: 500, body: { error: "boom" } }));
    const events: ClientEvent[] = [];
    const client = createClient({ baseUrl: s.url, ...fast, retries: 1, apiKey: KEY, onEvent: (e) => events.push(e) });
    const err = (await client.snapshot().catch((e: unknown) => e)) as HttpError;
    expect(s.requests[0]!.headers["x-api-key"]).toBe(KEY);
    expect(err).toBeInstanceOf(HttpError);
    const seen = JSON.stringify(events) + err.message + err.url + String(err.stack) + JSON.stringify(err);
    expect(seen).not.toContain(KEY);
    expect(events.length).toBeGreaterThan(2);
  });

  it("a server that echoes the key in its error body: the excerpt is redacted", async () => {
    const s = await serve(() => ({ status: 401, body: { error: `invalid key ${KEY}` } }));
    const err = (await createClient({ baseUrl: s.url, ...fast, apiKey: KEY }).snapshot().catch((e: unknown) => e)) as HttpError;
    expect(err.status).toBe(401);
    expect(err.bodyExcerpt).toContain("invalid key REDACTED");
    expect(err.message + JSON.stringify(err)).not.toContain(KEY);
  });

  it("a key put in the query by hand is redacted in errors and events", async () => {
    const s = await serve(() => ({ status: 404 }));
    const events: ClientEvent[] = [];
    const err = (await createClient({ baseUrl: s.url, ...fast, apiKey: KEY, onEvent: (e) => events.push(e) })
      .raw("/v1/x", { api_key: "other-secret", note: KEY })
      .catch((e: unknown) => e)) as HttpError;
    expect(s.requests[0]!.query.get("api_key")).toBe("other-secret");
    const seen = err.message + JSON.stringify(events);
    expect(seen).not.toContain("other-secret");
    expect(seen).not.toContain(KEY);
    expect(err.url).toContain("api_key=REDACTED");
  });

  it("no key: no X-API-Key header; a User-Agent is sent", async () => {
    const s = await serve(() => ({ body: SNAPSHOT }));
    await createClient({ baseUrl: s.url, ...fast }).snapshot();
    expect(s.requests[0]!.headers["x-api-key"]).toBeUndefined();
    expect(s.requests[0]!.headers["user-agent"]).toBe("market-intel-lab/0.1");
  });
});
