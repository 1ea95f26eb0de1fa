/**
 * Issue 13 defects of the client, each a behaviour that failed before its fix:
 * 1 the API key on a cross-origin redirect, 4 redaction (NetworkError
 * messages, credentials in baseUrl, keys with control characters), 5 timeouts
 * Node would clamp to 1 ms, 8 argument checks before the first request.
 * Real HTTP on 127.0.0.1 (the fixture server records every request's headers).
 */
import { afterEach, describe, expect, it } from "vitest";
import { createClient, type ClientEvent } from "../../src/api/index.js";
import { CrossOriginRedirectError, InvalidArgumentError, MarketIntelError, NetworkError } from "../../src/errors/index.js";
import { fixture, startFixtureServer, type FixtureServer, type Handler } from "./helpers/fixtureServer.js";

const servers: FixtureServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
async function serve(handler: Handler): Promise<FixtureServer> {
  const s = await startFixtureServer(handler);
  servers.push(s);
  return s;
}

const SNAPSHOT = fixture("snapshot", "observed");
const KEY = "k3y-Secret-9f8e7d";
const fast = { retryDelayMs: 1, rateLimitPerMinute: 10_000, cacheTtlMs: 0 } as const;

describe("defect 1: redirects", () => {
  it("follows a same-origin redirect with the key", async () => {
    const s = await serve((r) => (r.path === "/v1/snapshot" ? { status: 302, headers: { location: "/v1/snapshot2" } } : { body: SNAPSHOT }));
    const snap = await createClient({ baseUrl: s.url, apiKey: KEY, ...fast }).snapshot();
    expect(snap.metrics.length).toBeGreaterThan(0);
    expect(s.requests.map((r) => [r.path, r.headers["x-api-key"]])).toEqual([
      ["/v1/snapshot", KEY],
      ["/v1/snapshot2", KEY],
    ]);
  });

  it("refuses a cross-origin redirect with a typed error: the other origin never sees a request, let alone the key", async () => {
    const other = await serve(() => ({ body: SNAPSHOT }));
    // Another port on the same host is another origin (RFC 6454: scheme, host, port), and it answers: a client that
    // followed the redirect would succeed there, and that server would record the request.
    const elsewhere = other.url;
    const s = await serve(() => ({ status: 301, headers: { location: `${elsewhere}/v1/snapshot` } }));
    const err = await createClient({ baseUrl: s.url, apiKey: KEY, ...fast }).snapshot().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CrossOriginRedirectError);
    expect((err as CrossOriginRedirectError).location).toBe(`${elsewhere}/v1/snapshot`);
    expect((err as Error).message).toMatch(/redirect.*another origin/i);
    expect((err as Error).message).not.toContain(KEY);
    expect(other.requests).toHaveLength(0);
    expect(s.requests).toHaveLength(1); // not retried
  });

  it("a redirect loop ends with the same typed error after at most 5 hops", async () => {
    const s = await serve(() => ({ status: 307, headers: { location: "/v1/snapshot" } }));
    const err = await createClient({ baseUrl: s.url, ...fast }).snapshot().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MarketIntelError);
    expect((err as MarketIntelError).code).toBe("TOO_MANY_REDIRECTS");
    expect(s.requests.length).toBe(6); // the first request and 5 hops
  });
});

describe("defect 4: redaction", () => {
  it("a NetworkError's message and cause never contain the key or the URL password", async () => {
    const leaky = (async () => {
      throw new TypeError(`connect failed for x-api-key: ${KEY} via http://u:pa55w0rd-xyz@h`);
    }) as unknown as typeof fetch;
    const events: ClientEvent[] = [];
    const err = await createClient({ baseUrl: "http://u:pa55w0rd-xyz@127.0.0.1:9", apiKey: KEY, fetch: leaky, ...fast, retries: 0, onEvent: (e) => events.push(e) })
      .snapshot()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    const shown = `${(err as Error).message} ${String((err as Error).cause)} ${(err as Error).stack} ${JSON.stringify(events)}`;
    expect(shown).not.toContain(KEY);
    expect(shown).not.toContain("pa55w0rd-xyz");
    expect((err as Error).message).toContain("REDACTED");
  });

  it("user:pass@ in baseUrl becomes an Authorization header; the URL shown and sent has no credentials", async () => {
    const s = await serve(() => ({ body: SNAPSHOT }));
    const events: ClientEvent[] = [];
    const client = createClient({ baseUrl: s.url.replace("http://", "http://alice:s%40cret-pw@"), ...fast, onEvent: (e) => events.push(e) });
    expect(client.baseUrl).toBe(s.url);
    await client.snapshot();
    // base64("alice:s@cret-pw") = YWxpY2U6c0BjcmV0LXB3 (python3: base64.b64encode(b"alice:s@cret-pw"))
    expect(s.requests[0]?.headers["authorization"]).toBe("Basic YWxpY2U6c0BjcmV0LXB3");
    expect(JSON.stringify(events)).not.toMatch(/cret-pw|alice|YWxpY2U6c0BjcmV0LXB3/);
  });

  it("a bad baseUrl with credentials is refused without printing them", () => {
    let err: unknown;
    try {
      createClient({ baseUrl: "ftp://bob:hunter2-pw@host" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as Error).message).not.toContain("hunter2-pw");
  });

  it.each([
    ["CR/LF", `${KEY}\r\nX-Evil: 1`],
    ["NUL", `${KEY}\u0000`],
    ["tab", `${KEY}\t`],
    ["DEL", `${KEY}\u007f`],
    ["non-Latin-1", `${KEY}\u2028`],
  ])("a key with %s is refused at creation, before any request, without echoing it", (_name, key) => {
    let err: unknown;
    try {
      createClient({ baseUrl: "http://127.0.0.1:9", apiKey: key });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as InvalidArgumentError).argument).toBe("apiKey");
    expect((err as Error).message).not.toContain(KEY);
    expect((err as Error).message).toMatch(/position \d+/);
  });
});

describe("defect 5: timeoutMs", () => {
  it.each([2 ** 31, 1e12, -1, 0, Number.NaN])("timeoutMs %s is refused at creation (Node would clamp it to 1 ms)", (timeoutMs) => {
    expect(() => createClient({ baseUrl: "http://127.0.0.1:9", timeoutMs })).toThrow(/timeoutMs must be .*2147483647.* or Infinity/);
  });

  it("timeoutMs: Infinity means no time limit (a 200 ms answer is not a 1 ms timeout)", async () => {
    const s = await serve(() => ({ body: SNAPSHOT, delayMs: 200 }));
    const snap = await createClient({ baseUrl: s.url, timeoutMs: Infinity, ...fast, retries: 0 }).snapshot();
    expect(snap.metrics.length).toBeGreaterThan(0);
  });

  it("timeoutMs: 2^31 - 1 is the largest accepted", () => {
    expect(() => createClient({ baseUrl: "http://127.0.0.1:9", timeoutMs: 2 ** 31 - 1 })).not.toThrow();
  });
});

describe("defect 8: every argument checked before the first request", () => {
  const noFetch = (() => {
    throw new Error("no request may be sent");
  }) as unknown as typeof fetch;
  const client = createClient({ baseUrl: "http://127.0.0.1:9", fetch: noFetch, ...fast });

  it.each(["btc price", "btc/price", "../snapshot", "btc.price", "", "a".repeat(129)])("history refuses metric id %j", async (metricId) => {
    await expect(client.history({ metricId })).rejects.toThrow(InvalidArgumentError);
  });

  it("analyticsQuery refuses a metric id with a dot or slash, and coins outside the known set", async () => {
    await expect(client.analyticsQuery({ metricId: ["btc_price", "eth.price"] })).rejects.toThrow(/metricId/);
    await expect(client.analyticsQuery({ metricId: "a/b" })).rejects.toThrow(/metricId/);
    await expect(client.analyticsQuery({ coin: ["BTC", "DOGE"] })).rejects.toThrow(/coin must be one of/);
  });
});
