/**
 * The replay server writes the default /v1/history body as text (no object
 * tree): it must be exactly what JSON.stringify gives for the documented
 * object, key order and number format included. Reference: JSON.stringify of
 * the parsed body (a canonical re-serialisation) and the object rebuilt here
 * from the simulated market itself.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReplayServer, type ReplayServer } from "../../src/server/index.js";
import { simulateMarket } from "../../src/sim/market.js";
import { metricSeries } from "../../src/sim/catalog.js";

const NOW = Date.UTC(2026, 10, 22, 12, 0, 30);
let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer({ clock: () => NOW, seed: 7, rateLimitPerMinute: 0 });
});
afterAll(async () => {
  await server.close();
});

const get = async (q: string): Promise<string> => (await fetch(`${server.url}/v1/history?${q}`)).text();

describe("replay /v1/history default body", () => {
  it("is JSON.stringify's text of { coin, metric_id, hours, interval_sec, data: [{ time_chain, value }] }", async () => {
    for (const q of ["metric_id=btc_price&hours=3", "coin=ETH&metric_id=funding_rate&hours=1", "metric_id=sol_imbalance&hours=720", "coin=hype&metric=basis_bps&hours=2"]) {
      const text = await get(q);
      const parsed = JSON.parse(text) as { data: { time_chain: string; value: number | null }[] };
      expect(JSON.stringify(parsed), q).toBe(text);
      expect(Object.keys(parsed)).toEqual(["coin", "metric_id", "hours", "interval_sec", "data"]);
      for (const p of parsed.data.slice(0, 3)) expect(Object.keys(p)).toEqual(["time_chain", "value"]);
    }
  });

  it("carries the simulated market's own values and times, coin null when not given", async () => {
    const parsed = JSON.parse(await get("metric_id=btc_price&hours=2")) as { coin: unknown; hours: number; data: { time_chain: string; value: number }[] };
    expect(parsed.coin).toBeNull();
    expect(parsed.hours).toBe(2);
    expect(parsed.data).toHaveLength(120);
    // Rebuild the last point from the simulator (default start: 31 days before the clock, floored to the minute).
    const start = Math.floor((NOW - 31 * 86_400_000) / 60_000) * 60_000;
    const market = simulateMarket({ seed: 7, start, minutes: Math.ceil((Math.floor((NOW - start) / 60_000) + 2) / 1440) * 1440 });
    const idx = Math.floor((NOW - start) / 60_000);
    const last = parsed.data[119] as { time_chain: string; value: number };
    expect(last.time_chain).toBe(new Date(market.time[idx] as number).toISOString());
    expect(last.value).toBe(metricSeries(market, "btc_price")[idx]);
  });

  it("non-finite values are written as null, as JSON.stringify does", async () => {
    // The text path writes null for NaN/Infinity; JSON.stringify(NaN) is "null" too.
    const text = await get("metric_id=btc_funding_rate&hours=720");
    expect(text).not.toMatch(/NaN|Infinity/);
    expect(JSON.stringify(JSON.parse(text))).toBe(text);
  });
});

describe("replay /v1/history: kept text of past bars", () => {
  it("requests inside, around and past what was built before (the clock moving on) give exactly the right bars", async () => {
    let now = NOW;
    const srv = await startReplayServer({ clock: () => now, seed: 7, rateLimitPerMinute: 0 });
    try {
      const fetchOne = async (hours: number): Promise<{ time_chain: string; value: number | null }[]> => {
        const text = await (await fetch(`${srv.url}/v1/history?metric_id=eth_price&hours=${hours}`)).text();
        expect(JSON.stringify(JSON.parse(text))).toBe(text);
        return (JSON.parse(text) as { data: { time_chain: string; value: number | null }[] }).data;
      };
      const lastMinute = (t: number): string => new Date(Math.floor(t / 60_000) * 60_000).toISOString();
      const small = await fetchOne(2); // builds a short run
      const wide = await fetchOne(720); // reaches before it: rebuilt wider
      const inside = await fetchOne(1); // inside: a substring
      expect(small).toHaveLength(120);
      expect(wide).toHaveLength(43_200);
      expect(inside).toHaveLength(60);
      expect(wide.slice(-120)).toEqual(small);
      expect(wide.slice(-60)).toEqual(inside);
      expect(inside.at(-1)?.time_chain).toBe(lastMinute(NOW));
      now = NOW + 5 * 60_000; // five minutes later: past the built run
      const later = await fetchOne(1);
      expect(later).toHaveLength(60);
      expect(later.at(-1)?.time_chain).toBe(lastMinute(NOW + 5 * 60_000));
      expect(later.slice(0, 55)).toEqual(inside.slice(5));
    } finally {
      await srv.close();
    }
  });
});
