/**
 * A gap the feed can no longer reach is not re-read: a history feed serves the last 720 hours only, so a
 * bar without a close older than that can never be filled, and asking for it on every poll made a
 * lagging trader read the whole reach each time and fall further behind (the hourly live runs).
 */
import { describe, expect, it } from "vitest";
import { paperTrade, type PaperFeed } from "../../src/index.js";
import { START, tempStore } from "./helpers.js";

/** Minutes START.. up to `now.t`, the price missing at minute 1; reads record their fromMs. */
function feed(now: { t: number }, reachMs: number | undefined): PaperFeed & { froms: number[] } {
  const froms: number[] = [];
  return {
    source: "test",
    ...(reachMs !== undefined ? { reachMs } : {}),
    froms,
    async read(ids, _coin, fromMs) {
      froms.push(fromMs);
      const time: number[] = [];
      for (let t = Math.max(START, fromMs); t <= now.t; t += 60_000) if (t !== START + 60_000) time.push(t);
      return Object.fromEntries(ids.map((id) => [id, { time, value: time.map((t) => 100 + (t - START) / 60_000) }]));
    },
  };
}
const long = (c: Readonly<Record<string, Float64Array>>): Float64Array => new Float64Array((c["close"] as Float64Array).length).fill(1);

describe("gaps and the feed's reach", () => {
  it("stops re-reading a gap once it is older than the feed's reach; keeps re-reading it without a reach", async () => {
    for (const reachMs of [10 * 60_000, undefined]) {
      const now = { t: START + 5 * 60_000 };
      const f = feed(now, reachMs);
      const paper = await paperTrade(long, { coin: "BTC", feed: f, store: tempStore(), start: START });
      await paper.poll();
      expect(paper.rows).toHaveLength(6);
      expect(paper.events.filter((e) => e.kind === "gap").map((e) => e.bar)).toEqual([1]);
      now.t = START + 30 * 60_000; // 30 minutes on: the gap's minute (START + 1 min) is out of a 10-minute reach
      await paper.poll();
      await paper.poll();
      // the first poll after the move still reads from the gap (the feed's now was not yet known), the next no longer
      expect(f.froms.at(-1)).toBe(reachMs === undefined ? START + 60_000 : START + 31 * 60_000);
      expect(paper.rows).toHaveLength(31);
      expect(paper.reconcile().equal).toBe(true);
      paper.close();
    }
  });
});
