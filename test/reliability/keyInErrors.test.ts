/**
 * The API key never appears in an error (issue 31, defect 8): every
 * endpoint's response (as the replay server sends it) is served again with
 * the key put into one of its fields at a time (every field of the body's
 * top level and of the first record of each array, at every depth: 200 and
 * more injected responses in all), and the client method of that endpoint
 * is called with the key. Whatever error comes back (InvalidTimeError for a
 * time field, SchemaMismatchError, ...), its message, stack, fields and
 * causes must not hold the key in any form. Before the fix an
 * InvalidTimeError quoted it (a response carrying the key in a time field,
 * e.g. after a same-origin redirect that echoed the request).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/api/index.js";
import { ENDPOINTS } from "../../src/api/endpoints.js";
import { startReplayServer, type ReplayServer } from "../../src/server/index.js";
import { scaledMs } from "../support/timeScale.js";
import { endpointCalls, type EndpointCall } from "../support/endpointCalls.js";

const KEY = "mi_live_Zq8\"xK2/pP+9 w";
const NOW = Date.UTC(2026, 10, 22, 12);
let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer({ clock: () => NOW, rateLimitPerMinute: 0 });
});
afterAll(async () => server.close());

type Call = EndpointCall;
const CALLS = endpointCalls(NOW, 24);

/** Paths of the leaves of a JSON value: every field, arrays seen through their first element. */
function leafPaths(v: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(v)) return v.length === 0 ? [at] : leafPaths(v[0], [...at, 0]);
  if (typeof v === "object" && v !== null) {
    const keys = Object.keys(v);
    return keys.length === 0 ? [at] : keys.flatMap((k) => leafPaths((v as Record<string, unknown>)[k], [...at, k]));
  }
  return [at];
}

function withKeyAt(body: unknown, path: (string | number)[], value: string): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let o = copy;
  for (const p of path.slice(0, -1)) o = o[p] as Record<string | number, unknown>;
  o[path[path.length - 1] as string | number] = value;
  return copy;
}

/** Every string an error shows or carries: message, stack, own fields, causes. */
function errorText(e: unknown, seen = new Set<unknown>()): string {
  if (seen.has(e)) return "";
  seen.add(e);
  if (!(e instanceof Error)) return typeof e === "string" ? e : JSON.stringify(e) ?? String(e);
  const parts = [String(e), e.stack ?? ""];
  for (const name of Object.getOwnPropertyNames(e)) {
    const v = (e as unknown as Record<string, unknown>)[name];
    parts.push(v instanceof Error ? errorText(v, seen) : typeof v === "string" ? v : (JSON.stringify(v, (_k, x: unknown) => (x instanceof Error ? errorText(x, seen) : x)) ?? ""));
  }
  return parts.join("\n");
}

describe("the API key in every field of every endpoint's response", () => {
  it("never appears in an error (200+ injected responses)", { timeout: scaledMs(120_000) }, async () => {
    const forms = [KEY, encodeURIComponent(KEY), JSON.stringify(KEY).slice(1, -1)];
    let injected = 0;
    let errors = 0;
    const leaks: string[] = [];
    for (const [name, call] of Object.entries(CALLS) as [keyof typeof ENDPOINTS, Call][]) {
      // The body the replay server sends for this call (its first response).
      let original: unknown;
      const capture: typeof fetch = async (input, init) => {
        const res = await fetch(input, init);
        const text = await res.clone().text();
        original ??= JSON.parse(text);
        return res;
      };
      await call(createClient({ baseUrl: server.url, fetch: capture, retries: 0, rateLimitPerMinute: 6000 }));
      for (const path of leafPaths(original)) for (const value of [KEY, `2026-11-22T12:00:00Z?key=${KEY}`]) {
        const body = withKeyAt(original, path, value);
        injected++;
        const serve: typeof fetch = async () => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
        const client = createClient({ baseUrl: "http://127.0.0.1:9", apiKey: KEY, fetch: serve, retries: 0, rateLimitPerMinute: 6000, maxPages: 3 });
        const err = await call(client).then(() => undefined, (e: unknown) => e);
        if (err === undefined) continue;
        errors++;
        const text = errorText(err);
        if (forms.some((f) => text.includes(f))) leaks.push(`${name} ${path.join(".")}: ${text.slice(0, 300)}`);
      }
    }
    console.log(`reliability: key injected into ${injected} responses: ${errors} errors, ${leaks.length} showing the key`);
    expect(injected).toBeGreaterThanOrEqual(200);
    expect(errors).toBeGreaterThan(0);
    expect(leaks).toEqual([]);
  });
});
