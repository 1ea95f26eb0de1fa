import { describe, expect, it } from "vitest";
import { backtest } from "../../src/backtest/index.js";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { mulberry32 } from "../support/mulberry32.js";

/** Seeded bars and a position column that trades often, with a missing price. */
function bars(n: number, seed = 7): { close: Float64Array; position: Float64Array; funding: Float64Array } {
  const rnd = mulberry32(seed);
  const close = new Float64Array(n);
  const position = new Float64Array(n);
  const funding = new Float64Array(n);
  let p = 100;
  for (let i = 0; i < n; i++) {
    p *= 1 + 0.01 * (rnd() - 0.5);
    close[i] = p;
    position[i] = rnd() < 0.3 ? -1 : rnd() < 0.6 ? 1 : 0.5;
    funding[i] = 1e-5 * (rnd() - 0.3);
  }
  if (n > 5) close[5] = Number.NaN;
  return { close, position, funding };
}

const SERIES = ["equity", "returns", "exposure", "holdings", "turnover", "fees", "fundingPaid"] as const;

describe("backtest({ into }): the caller's columns", () => {
  it("writes the hand-computed equity into the caller's column and returns that column", () => {
    const buf = new Float64Array(3).fill(-1);
    const r = backtest({ close: [100, 110, 99], position: [1, 0, 0], initialCash: 1000, into: { equity: buf } });
    expect(r.equity).toBe(buf);
    // Bought 10 units at close 0 (1000 / 100), sold at close 1 (110): 1100, then flat.
    expect(Array.from(buf)).toEqual([1000, 1100, 1100]);
  });

  it("gives every series, bit for bit, what fresh columns give, whatever the columns held before", () => {
    const { close, position, funding } = bars(3000);
    const options = { close, position, funding, feeBps: 5, slippageBps: 2, initialCash: 1 };
    const fresh = backtest(options);
    const into = Object.fromEntries(SERIES.map((s) => [s, new Float64Array(close.length).fill(7)]));
    const mine = backtest({ ...options, into, outputs: [...SERIES] });
    for (const s of SERIES) {
      expect(mine[s]).toBe(into[s]);
      expect(Buffer.from(mine[s].buffer).equals(Buffer.from(fresh[s].buffer)), s).toBe(true);
    }
    // A series read later (one more pass) is written into its column too.
    const lazyInto = { fees: new Float64Array(close.length).fill(3) };
    const lazy = backtest({ ...options, into: lazyInto });
    expect(lazy.fees).toBe(lazyInto.fees);
    expect(Array.from(lazy.fees)).toEqual(Array.from(fresh.fees));
  });

  it("is the caller's: the next call given the same column overwrites it (copy what is kept)", () => {
    const a = bars(500, 1);
    const b = bars(500, 2);
    const buf = new Float64Array(500);
    const ra = backtest({ ...a, initialCash: 1, into: { equity: buf } });
    const kept = ra.equity.slice();
    const rb = backtest({ ...b, initialCash: 1, into: { equity: buf } });
    expect(rb.equity).toBe(ra.equity);
    expect(Array.from(ra.equity)).toEqual(Array.from(backtest({ ...b, initialCash: 1 }).equity));
    expect(Array.from(kept)).toEqual(Array.from(backtest({ ...a, initialCash: 1 }).equity));
    expect(Array.from(kept)).not.toEqual(Array.from(ra.equity));
  });

  it("handles no bars and one bar, and does not modify its inputs", () => {
    expect(Array.from(backtest({ close: [], position: [], into: { equity: new Float64Array(0) } }).equity)).toEqual([]);
    const one = new Float64Array(1);
    expect(Array.from(backtest({ close: [50], position: [1], initialCash: 10, into: { equity: one } }).equity)).toEqual([10]);
    const { close, position, funding } = bars(200);
    const copies = [close.slice(), position.slice(), funding.slice()];
    backtest({ close, position, funding, into: { equity: new Float64Array(200), returns: new Float64Array(200) }, outputs: ["equity", "returns"] });
    expect([close, position, funding].map((x) => Array.from(x))).toEqual(copies.map((x) => Array.from(x)));
  });

  it("refuses what it cannot write into, naming the column and the fix", () => {
    const close = new Float64Array([100, 101, 102]);
    const position = [1, 1, 0];
    const bad = (into: unknown): (() => unknown) => () => backtest({ close, position, into: into as never });
    // null is "unset", as for every option (a sweep's best().params may hand it back): fresh arrays
    expect(bad(null)).not.toThrow();
    expect(bad("equity")).toThrow(InvalidArgumentError);
    expect(bad({ equity: new Float64Array(2) })).toThrow(/into\.equity must be a Float64Array of 3 values \(one per bar\), got 2 values/);
    expect(bad({ equity: [0, 0, 0] })).toThrow(/into\.equity must be a Float64Array of 3 values/);
    expect(bad({ equty: new Float64Array(3) })).toThrow(/into\.equty is not a series a backtest writes; use equity, returns/);
    expect(bad({ equity: close })).toThrow(/into\.equity shares memory with another column/);
    const shared = new Float64Array(6);
    expect(bad({ equity: shared.subarray(0, 3), returns: shared.subarray(2, 5) })).toThrow(/into\.returns shares memory/);
    // Adjacent views of one buffer share no byte: allowed.
    expect(() => backtest({ close, position, into: { equity: shared.subarray(0, 3), returns: shared.subarray(3, 6) }, outputs: ["equity", "returns"] })).not.toThrow();
  });
});
