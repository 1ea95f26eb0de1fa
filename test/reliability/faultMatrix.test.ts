/**
 * The fault matrix: every client method (17 endpoints) x every fault the
 * replay server can inject (latency, slow headers and bodies, 429 with and
 * without Retry-After, 5xx, truncated and non-JSON bodies, connection reset,
 * same-origin, looping and cross-origin redirects), over real HTTP on
 * 127.0.0.1. A case holds when the call gives exactly the fault-free answer
 * (the faults the client should absorb) or the one typed error that fault
 * must give (with its status / Retry-After / code), and no message contains
 * the API key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type ClientOptions, type MarketIntelClient } from "../../src/api/index.js";
import {
  CrossOriginRedirectError,
  HttpError,
  MalformedResponseError,
  MarketIntelError,
  NetworkError,
  RateLimitedError,
  RequestTimeoutError,
} from "../../src/errors/index.js";
import { startReplayServer, type ReplayServer } from "../../src/server/index.js";
import { endpointCalls } from "../support/endpointCalls.js";
import { scaledMs } from "../support/timeScale.js";

const NOW = Date.UTC(2026, 10, 23, 12, 0, 30);
const KEY = "sk-matrix-7f3a9c";

/** One call per client method, i.e. per endpoint of the API. */
const CALLS = endpointCalls(NOW);

/** What a fault must give: the fault-free answer, or an error passing `check`. */
type Expect = "same" | ((e: unknown) => boolean);
interface FaultCase {
  readonly name: string;
  readonly header: string;
  readonly expect: Expect;
  readonly options?: ClientOptions;
}

const FAULTS: readonly FaultCase[] = [
  { name: "latency 50 ms", header: "slow:50", expect: "same" },
  { name: "headers later than timeoutMs", header: "slow:3000", options: { timeoutMs: 300 }, expect: (e) => e instanceof RequestTimeoutError && e.timeoutMs === 300 },
  { name: "slow body within timeoutMs", header: "slow-body:50", expect: "same" },
  { name: "slow body past timeoutMs", header: "slow-body:3000", options: { timeoutMs: 300 }, expect: (e) => e instanceof RequestTimeoutError },
  { name: "429 with Retry-After: 1", header: "429", expect: (e) => e instanceof RateLimitedError && e.retryAfterMs === 1000 },
  { name: "429 without Retry-After", header: "429-no-retry-after", expect: (e) => e instanceof RateLimitedError && Number.isNaN(e.retryAfterMs) },
  { name: "503", header: "503", expect: (e) => e instanceof HttpError && !(e instanceof RateLimitedError) && e.status === 503 },
  { name: "500", header: "500", expect: (e) => e instanceof HttpError && e.status === 500 },
  { name: "truncated body", header: "truncate", expect: (e) => e instanceof NetworkError },
  { name: "non-JSON body", header: "malformed", expect: (e) => e instanceof MalformedResponseError },
  { name: "connection reset", header: "reset", expect: (e) => e instanceof NetworkError },
  { name: "same-origin redirect", header: "redirect", expect: "same" },
  { name: "redirect loop", header: "redirect-loop", expect: (e) => e instanceof CrossOriginRedirectError && e.code === "TOO_MANY_REDIRECTS" },
  { name: "cross-origin redirect", header: "redirect-cross", expect: (e) => e instanceof CrossOriginRedirectError && e.code === "CROSS_ORIGIN_REDIRECT" },
];

let server: ReplayServer;
const baseline: Record<string, unknown> = {};

/** A client whose every request carries `X-Replay-Fault: header`. */
function faultyClient(header: string, options: ClientOptions = {}): MarketIntelClient {
  const withFault = ((url: string, init: RequestInit) =>
    fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), "x-replay-fault": header } })) as typeof fetch;
  // retries: 1 (a retryable fault is retried once, then reported); maxRetryAfterMs: 0 (a Retry-After is not waited for).
  return createClient({ baseUrl: server.url, apiKey: KEY, fetch: withFault, retries: 1, retryDelayMs: 1, maxRetryAfterMs: 0, cacheTtlMs: 0, rateLimitPerMinute: 1_000_000, ...options });
}

beforeAll(async () => {
  server = await startReplayServer({ clock: () => NOW, rateLimitPerMinute: 0, faults: {} });
  const clean = createClient({ baseUrl: server.url, apiKey: KEY, cacheTtlMs: 0, rateLimitPerMinute: 1_000_000 });
  for (const [name, call] of Object.entries(CALLS)) baseline[name] = await call(clean);
});
afterAll(async () => {
  await server.close();
});

describe("fault matrix", () => {
  it(`${FAULTS.length} faults x ${Object.keys(CALLS).length} endpoints: the fault-free answer or the fault's typed error, never the key`, { timeout: scaledMs(120_000) }, async () => {
    const failures: string[] = [];
    let tried = 0;
    for (const fault of FAULTS) {
      const client = faultyClient(fault.header, fault.options);
      await Promise.all(
        Object.entries(CALLS).map(async ([name, call]) => {
          tried++;
          const where = `${fault.name} x ${name}`;
          let result: unknown;
          let error: unknown;
          try {
            result = await call(client);
          } catch (e) {
            error = e;
          }
          if (fault.expect === "same") {
            if (error !== undefined) failures.push(`${where}: threw ${String(error)}`);
            else {
              try {
                expect(result).toEqual(baseline[name]);
              } catch {
                failures.push(`${where}: answer differs from the fault-free one`);
              }
            }
            return;
          }
          if (error === undefined) failures.push(`${where}: no error`);
          else if (!(error instanceof MarketIntelError)) failures.push(`${where}: untyped ${String(error)}`);
          else if (!fault.expect(error)) failures.push(`${where}: wrong error ${error.name} ${error.code}: ${error.message}`);
          else if (`${error.message} ${String(error.cause)}`.includes(KEY)) failures.push(`${where}: message shows the key`);
        }),
      );
    }
    console.log(`reliability: fault matrix: ${tried} cases tried (${FAULTS.length} faults x ${Object.keys(CALLS).length} endpoints), ${tried - failures.length} held`);
    expect(failures).toEqual([]);
  });
});
