/**
 * Query parameters are checked where they enter, strictly (issue 30, item 4): a key the call
 * does not know is refused before any request, with the nearest valid name, instead of being sent
 * to a service that ignores it and answers with its defaults. The service's own `metric_id` is
 * accepted for `metricId`; anything else deliberate goes in `extraParams`.
 */
import { describe, expect, it } from "vitest";
import { analyticsParams } from "../../src/api/analyticsParams.js";
import { createClient, InvalidArgumentError } from "../../src/index.js";

/** A client whose fetch records requests (none must be made for a refused call). */
function recordingClient(): { client: ReturnType<typeof createClient>; urls: string[] } {
  const urls: string[] = [];
  const client = createClient({
    baseUrl: "http://127.0.0.1:9",
    retries: 0,
    fetch: (async (url: string) => {
      urls.push(String(url));
      throw new Error("no request expected");
    }) as unknown as typeof fetch,
  });
  return { client, urls };
}

function refusal(f: () => unknown): InvalidArgumentError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidArgumentError);
    return e as InvalidArgumentError;
  }
  throw new Error("expected a refusal");
}

describe("analyticsQuery's parameters are strict", () => {
  it.each([
    ["interva", "interval"],
    ["metricID", "metricId"],
    ["coins", "coin"],
    ["strat", "start"],
    ["extra", "extraParams"],
    ["limt", "limit"],
  ])("%s is refused: did you mean %s?", (bad, near) => {
    const e = refusal(() => analyticsParams({ dataset: "candles", [bad]: "1h" } as never));
    expect(e.message).toBe(`analyticsQuery: unknown option ${bad}; did you mean ${near}?`);
  });

  it("names every unknown key in one message", () => {
    expect(refusal(() => analyticsParams({ interva: "1h", datset: "candles" } as never)).message).toBe(
      "analyticsQuery: unknown option interva; did you mean interval?; unknown option datset; did you mean dataset?",
    );
  });

  it("is refused before any request (the service never sees it)", async () => {
    const { client, urls } = recordingClient();
    await expect(client.analyticsQuery({ dataset: "candles", interva: "1h" } as never)).rejects.toThrow(/did you mean interval\?/);
    expect(urls).toEqual([]);
  });

  it("metric_id (the service's name) is accepted and checked like metricId; not both", () => {
    expect(analyticsParams({ metric_id: "btc_price,eth_price" })).toEqual({ metric_id: "btc_price,eth_price" });
    expect(analyticsParams({ metricId: ["btc_price", "eth_price"] })).toEqual({ metric_id: "btc_price,eth_price" });
    expect(refusal(() => analyticsParams({ metricId: "btc_price", metric_id: "eth_price" })).message).toMatch(/metricId or metric_id/);
    expect(() => analyticsParams({ metric_id: "" })).toThrow(/metric_id must be a non-empty string/);
  });

  it("extraParams is the deliberate way to send another name, as given", () => {
    expect(analyticsParams({ dataset: "metrics", extraParams: { cursor: "abc", _variant: "documented" } })).toEqual({ dataset: "metrics", cursor: "abc", _variant: "documented" });
  });

  it("null and undefined mean unset; no parameters is fine; a non-object is refused", () => {
    expect(analyticsParams({ dataset: undefined, interval: null as never })).toEqual({});
    expect(analyticsParams(undefined)).toEqual({});
    expect(() => analyticsParams("candles" as never)).toThrow(/analyticsQuery: options must be an object/);
  });

  it("does not mutate the parameters", () => {
    const p = { dataset: "candles", coin: ["btc"], extraParams: { x: 1 } } as const;
    const before = JSON.stringify(p);
    analyticsParams(p);
    expect(JSON.stringify(p)).toBe(before);
  });
});

describe("history and the per-coin calls are strict too", () => {
  it.each([
    ["history", (c: ReturnType<typeof createClient>) => c.history({ metricId: "btc_price", hour: 24 } as never), "unknown option hour; did you mean hours?"],
    ["history", (c: ReturnType<typeof createClient>) => c.history({ metricID: "btc_price" } as never), "unknown option metricID; did you mean metricId?"],
    ["volatility", (c: ReturnType<typeof createClient>) => c.volatility({ coins: "BTC" } as never), "unknown option coins; did you mean coin?"],
    ["composite", (c: ReturnType<typeof createClient>) => c.composite({ coin: "BTC", extra: { a: 1 } } as never), "unknown option extra; did you mean extraParams?"],
  ])("%s: %s", async (where, call, message) => {
    const { client, urls } = recordingClient();
    await expect(call(client)).rejects.toThrow(`${where}: ${message}`);
    expect(urls).toEqual([]);
  });
});
