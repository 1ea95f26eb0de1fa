import { describe, expect, it, vi } from "vitest";
import { paperTrade, type PaperFeed } from "../../src/index.js";
import { createRng } from "../../src/random/prng.js";
import { START, tempStore, trend } from "./helpers.js";

vi.setConfig({ testTimeout: 300_000 });

const clamp = (x: number): number => Math.max(-1, Math.min(1, x));
/** The service's composite by the DESIGN.md table, written here: imbalance 2(v - 0.5), funding clamp(-v 1e4), basis clamp(-v / 50), momentum clamp(v / 2), gas 0.3 (cheap gas). */
function published(v: { imb: number; fund: number; basis: number; mom: number }, w: readonly number[]): number {
  const s = [2 * (v.imb - 0.5), clamp(-v.fund * 1e4), clamp(-v.basis / 50), clamp(v.mom / 2), 0.3];
  return s.reduce((a, x, j) => a + x * (w[j] as number), 0);
}
const DEFAULT = [0.3, 0.25, 0.2, 0.15, 0.1];
const SWITCHED = [0.1, 0.4, 0.1, 0.3, 0.1];

/** n one-minute bars of seeded component values and the composite the service publishes, with its weights switched at bar `at` (never when undefined). */
function serviceFeed(n: number, at: number | undefined): PaperFeed {
  const rng = createRng(11);
  const cols: Record<string, number[]> = { btc_price: [], btc_imbalance: [], btc_funding_rate: [], btc_basis_bps: [], btc_momentum_5m_pct: [], eth_basefee_live: [], btc_composite: [] };
  let p = 100;
  for (let i = 0; i < n; i++) {
    p *= 1 + 0.002 * rng.normal();
    const v = { imb: 0.3 + 0.4 * rng.uniform(), fund: 1e-4 * rng.normal(), basis: 20 * rng.normal(), mom: rng.normal() };
    cols["btc_price"]!.push(p);
    cols["btc_imbalance"]!.push(v.imb);
    cols["btc_funding_rate"]!.push(v.fund);
    cols["btc_basis_bps"]!.push(v.basis);
    cols["btc_momentum_5m_pct"]!.push(v.mom);
    cols["eth_basefee_live"]!.push(0.5);
    cols["btc_composite"]!.push(published(v, at !== undefined && i >= at ? SWITCHED : DEFAULT));
  }
  const time = Float64Array.from({ length: n }, (_, i) => START + i * 60_000);
  return {
    source: "service",
    async read(ids) {
      return Object.fromEntries(ids.map((id) => [id, { time, value: Float64Array.from(cols[id]!) }]));
    },
  };
}

describe("conformance alarm", () => {
  it("fires windowBars bars after the service switches its weights, naming the new ones", async () => {
    const paper = await paperTrade(trend, { coin: "BTC", feed: serviceFeed(1200, 1000), store: tempStore(), start: START, params: { n: 5 }, conformance: { compositeMetric: "btc_composite", windowBars: 30 } });
    await paper.poll();
    const alarms = paper.events.filter((e) => e.kind === "conformance");
    expect(alarms.map((e) => e.bar)).toEqual([1029]); // bars 1000..1029 differ: the 30th fires
    const w = (alarms[0]!.data as { weights: Record<string, number> }).weights;
    ["imbalance", "funding", "basis_spread", "momentum_5m", "gas"].forEach((c, j) => expect(w[c]).toBeCloseTo(SWITCHED[j]!, 6));
    expect(alarms[0]!.message).toContain("imbalance 0.1000");
    paper.close();
  });
  it("never fires in 2,000 bars without a switch", async () => {
    const paper = await paperTrade(trend, { coin: "BTC", feed: serviceFeed(2000, undefined), store: tempStore(), start: START, params: { n: 5 }, conformance: { compositeMetric: "btc_composite" } });
    await paper.poll();
    expect(paper.rows).toHaveLength(2000);
    expect(paper.events.filter((e) => e.kind === "conformance")).toEqual([]);
    expect(paper.reconcile().equal).toBe(true);
    paper.close();
  });
  it("checks its options", async () => {
    const base = { coin: "BTC", feed: serviceFeed(3, undefined), store: tempStore(), start: START };
    await expect(paperTrade(trend, { ...base, conformance: { compositeMetric: "btc_composite", windowBars: 1 } })).rejects.toThrow(/windowBars must be an integer >= 2/);
    await expect(paperTrade(trend, { ...base, conformance: {} as never })).rejects.toThrow(/conformance must be/);
  });
});
