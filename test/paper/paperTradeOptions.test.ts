/** paperTrade's options are checked where they enter, by one strict schema (checkOptions with PAPER_TRADE_OPTION_SPECS). */
import { describe, expect, it } from "vitest";
import { InvalidArgumentError, paperTrade, type PaperFeed } from "../../src/index.js";
import { START, tempStore } from "./helpers.js";

/** A feed that must never be read: the options are refused before. */
const unread: PaperFeed = {
  source: "unread",
  read: () => Promise.reject(new Error("the feed was read")),
};
const long = (c: Readonly<Record<string, Float64Array>>): Float64Array => new Float64Array((c["close"] as Float64Array).length).fill(1);

describe("paperTrade's options", () => {
  it("refuses an unknown key with the nearest valid name, before reading the feed", async () => {
    const base = { coin: "BTC", feed: unread, store: tempStore(), start: START };
    await expect(paperTrade(long, { ...base, stoploss: 0.02 } as never)).rejects.toThrow("paperTrade: unknown option stoploss; did you mean stopLoss?");
    await expect(paperTrade(long, { ...base, staleAfter: 10 } as never)).rejects.toThrow(/unknown option staleAfter; did you mean staleAfterMs\?/);
    await expect(paperTrade(long, { ...base, chargefunding: true } as never)).rejects.toThrow(/did you mean chargeFunding\?/);
    await expect(paperTrade(long, { ...base, confromance: {} } as never)).rejects.toBeInstanceOf(InvalidArgumentError);
  });
  it("refuses a backtest option in the wrong scale with the value probably meant", async () => {
    const base = { coin: "BTC", feed: unread, store: tempStore(), start: START };
    await expect(paperTrade(long, { ...base, stopLoss: 2 })).rejects.toThrow(/stopLoss: 0\.02/);
    await expect(paperTrade(long, { ...base, feeBps: 0.0005 })).rejects.toThrow(/feeBps: 5/);
  });
  it("reads null and undefined as unset, and does not mutate the options", async () => {
    const store = tempStore();
    const feed: PaperFeed = { source: "empty", read: async (ids) => Object.fromEntries(ids.map((id) => [id, { time: [START], value: [100] }])) };
    const options = { coin: "BTC", feed, store, start: START, stopLoss: null, name: undefined } as never as Parameters<typeof paperTrade>[1];
    const copy = { ...options };
    const paper = await paperTrade(long, options);
    expect(options).toEqual(copy);
    await paper.poll();
    expect(paper.rows).toHaveLength(1);
    paper.close();
  });
});
