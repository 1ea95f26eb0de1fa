/**
 * The replay server's own responses pass the API's time check at every depth
 * (checkResponseTimes walks the whole body, e.g. whale flow's
 * `whale_flow[i].whale_orders[j].timestamp`), on every one of its 17 routes,
 * in every shape variant it serves.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkResponseTimes } from "../../src/api/checkResponseTimes.js";
import { REPLAY_ROUTES, startReplayServer, type ReplayServer } from "../../src/server/index.js";

const NOW = Date.UTC(2026, 10, 23, 12);
/** Query strings that make each route answer 200 (the rest need none). */
const QUERY: Readonly<Record<string, string>> = {
  "/v1/history": "?metric_id=btc_price&hours=2",
  "/v3/analytics/query": "?dataset=candles&coin=BTC&hours=2",
};

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer({ clock: () => NOW, rateLimitPerMinute: 0 });
});
afterAll(async () => {
  await server.close();
});

async function body(path: string, extra = ""): Promise<unknown> {
  const q = QUERY[path] ?? "";
  const res = await fetch(`${server.url}${path}${q}${extra === "" ? "" : `${q === "" ? "?" : "&"}${extra}`}`);
  expect(res.status, `${path} ${extra}`).toBe(200);
  return res.json();
}

describe("replay server responses pass the nested time check", () => {
  it.each(Object.keys(REPLAY_ROUTES))("%s", async (path) => {
    const json = await body(path);
    expect(checkResponseTimes(json, path)).toBe(json);
  });

  it("whale flow, in both shapes and for one coin, with its nested order stamps (all within 2009..2099)", async () => {
    for (const extra of ["", "coin=BTC", "_variant=documented"]) {
      const json = await body("/v1/signals/whale-flow", extra);
      expect(checkResponseTimes(json, "/v1/signals/whale-flow")).toBe(json);
    }
    const all = (await body("/v1/signals/whale-flow")) as { whale_flow: { whale_orders: { timestamp: string }[] }[] };
    const stamps = all.whale_flow.flatMap((e) => e.whale_orders.map((o) => o.timestamp));
    expect(stamps.length).toBeGreaterThan(0);
  });
});
