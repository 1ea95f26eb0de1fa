/**
 * Plumbing (round trip through the replay server), not evidence that the rules
 * are right. The server computes its composites, volatility, regimes and
 * liquidation levels with this library's own functions (src/sim/composites.ts
 * and src/server/endpoints borrow DEFAULT_SCORERS, DEFAULT_WEIGHTS, the label
 * rule, signalConfidence, realizedVol, classifyVolRegimes, atr, trendLabels,
 * regimeStatistics, liquidationAlerts), so agreement here shows that the
 * transport, the parsers, the analytics layout, the alignment of /v1/history
 * columns and the replay's bookkeeping carry those numbers through unchanged.
 * A wrong rule would pass. The rules themselves are checked against the
 * service's published response and hand-computed values
 * (test/signals/publishedComposite.test.ts, components.test.ts, regimes.test.ts)
 * and against pandas on real candles (volatility.test.ts).
 * Real HTTP on loopback, fixed clock, no rate limit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type MarketIntelClient } from "../../src/api/index.js";
import { loadHistoryPanel } from "../../src/load/index.js";
import { startReplayServer, type ReplayServer } from "../../src/server/index.js";
import {
  COMPONENT_NAMES,
  DEFAULT_WEIGHTS,
  LIQUIDATION_LEVELS,
  TREND_LABELS,
  VOL_WINDOWS,
  checkConformance,
  classifyVolRegime,
  componentMetricIds,
  inferWeights,
  liquidationAlerts,
  realizedVol,
  replayComposite,
  trendLabels,
} from "../../src/signals/index.js";

const NOW = Date.UTC(2026, 10, 22, 12, 0, 30);
const START = Date.UTC(2026, 10, 21, 0, 0, 0);
let server: ReplayServer;
let client: MarketIntelClient;

beforeAll(async () => {
  server = await startReplayServer({ clock: () => NOW, seed: 7, start: START, rateLimitPerMinute: 0 });
  client = createClient({ baseUrl: server.url, rateLimitPerMinute: 100_000, retryDelayMs: 1 });
});
afterAll(async () => {
  await server.close();
});

const num = (x: unknown): number => (typeof x === "number" ? x : Number.NaN);
const LABEL: Record<string, number> = { buy: 1, sell: -1, neutral: 0 };

async function publishedComposite(coin: string) {
  const res = await client.analyticsQuery({ dataset: "composite", coin, start: START, end: NOW, interval: "1m", limit: 50_000 });
  const col = (name: string) => {
    const j = res.columns.indexOf(name);
    expect(j, `column ${name}`).toBeGreaterThanOrEqual(0);
    return res.rows.map((r) => r[j]);
  };
  return { col, rows: res.rows.length };
}

describe("round trip (plumbing): the replay server's composites come back unchanged through the client and replayComposite", () => {
  for (const coin of ["BTC", "ETH", "SOL", "HYPE"]) {
    it(`${coin}: analytics dataset=composite, every minute of 36 h: composite, scores, label, confidence exact`, async () => {
      const { col, rows } = await publishedComposite(coin);
      expect(rows).toBeGreaterThan(2000);
      const input: Record<string, Float64Array> = {};
      for (const c of COMPONENT_NAMES) input[c] = Float64Array.from(col(`${c}_value`), num);
      const r = replayComposite(input);
      expect(r.length).toBe(rows);
      const composite = Float64Array.from(col("composite_score"), num);
      // The first minutes have no momentum: renormalised over four components.
      expect(Number.isNaN(input["momentum_5m"]![0]!)).toBe(true);
      expect(Array.from(r.composite)).toEqual(Array.from(composite));
      for (const c of COMPONENT_NAMES) {
        expect(Array.from(r.scores[c]!), c).toEqual(Array.from(col(`${c}_score`), num));
      }
      expect(Array.from(r.label)).toEqual(col("regime").map((s) => LABEL[s as string]));
      expect(Array.from(r.confidence)).toEqual(Array.from(col("confidence"), num));
      // The sample is not degenerate: all three labels occur.
      expect(new Set(r.label).size).toBe(3);
    });
  }

  it("BTC from raw /v1/history metrics (aligned by time) equals the published composite", async () => {
    const ids = { imbalance: "btc_imbalance", funding: "btc_funding_rate", basis_spread: "btc_basis_bps", momentum_5m: "btc_momentum_5m_pct", gas: "eth_basefee_live" };
    const series = await Promise.all(Object.values(ids).map((metricId) => client.history({ metricId, hours: 24 })));
    const time = series[0]!.time;
    const input: Record<string, Float64Array> = { time };
    Object.keys(ids).forEach((name, k) => {
      const s = series[k]!;
      const byTime = new Map<number, number>();
      s.time.forEach((t, i) => byTime.set(t, s.value[i]!));
      input[name] = Float64Array.from(time, (t) => byTime.get(t) ?? Number.NaN);
    });
    const r = replayComposite(input);
    const { col } = await publishedComposite("BTC");
    const published = new Map<number, number>();
    const times = col("time").map((t) => Date.parse(t as string));
    const comp = col("composite_score");
    times.forEach((t, i) => published.set(t, num(comp[i])));
    let compared = 0;
    for (let i = 0; i < time.length; i++) {
      const p = published.get(time[i]!);
      if (p === undefined) continue;
      expect(r.composite[i]).toBe(p);
      compared++;
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it("BTC from a loadHistoryPanel of componentMetricIds (columns option) equals the published composite", async () => {
    const ids = componentMetricIds("BTC");
    const { panel } = await loadHistoryPanel(client, { metricIds: Object.values(ids), hours: 24 });
    const r = replayComposite(panel, { columns: ids });
    const { col } = await publishedComposite("BTC");
    const published = new Map<number, number>();
    col("time").forEach((t, i) => published.set(Date.parse(t as string), num(col("composite_score")[i])));
    let compared = 0;
    panel.time.forEach((t, i) => {
      const p = published.get(t);
      if (p === undefined) return;
      expect(r.composite[i]).toBe(p);
      compared++;
    });
    expect(compared).toBe(panel.time.length);
    expect(() => replayComposite(panel)).toThrow(/no column for weighted component imbalance; columns are btc_imbalance/);
    expect(() => replayComposite(panel, { columns: { ...ids, gas: "eth_basefee" } })).toThrow(/no column eth_basefee for weighted component gas/);
  });

  it("/v1/signals/composite: the current entry of each coin replays exactly from its components", async () => {
    const res = await client.composite();
    expect(res.signals.length).toBe(4);
    for (const s of res.signals) {
      const input: Record<string, number[]> = {};
      for (const c of COMPONENT_NAMES) input[c] = [num(s.components[c]?.value)];
      const r = replayComposite(input);
      expect(r.composite[0]).toBe(s.composite_score);
      expect(r.label[0]).toBe(LABEL[s.regime]);
      for (const c of COMPONENT_NAMES) expect(r.scores[c]![0]).toBe(s.components[c]?.score);
    }
  });

  it("checkConformance on the analytics recording: conforms, every diff exactly 0, labels agree", async () => {
    const res = await client.analyticsQuery({ dataset: "composite", coin: "ETH", start: START, end: NOW, limit: 50_000 });
    const recording = Object.fromEntries(res.columns.map((c, j) => [c, res.rows.map((r) => r[j])]));
    const report = checkConformance(recording);
    expect(report.summary.conforms).toBe(true);
    expect(report.summary.composite.maxAbsDiff).toBe(0);
    expect(report.summary.composite.compared).toBe(res.rows.length);
    expect(report.summary.labelAgreement).toBe(1);
    for (const c of COMPONENT_NAMES) expect(report.summary.scores[c]!.maxAbsDiff).toBe(0);
    expect(report.summary.confidence!.maxAbsDiff).toBe(0); // the replay server uses this library's confidence
    // Another model does not conform: scores still match, the composite does not.
    const other = checkConformance(recording, { weights: { imbalance: 0.5, funding: 0.2, basis_spread: 0.1, momentum_5m: 0.1, gas: 0.1 } });
    expect(other.summary.conforms).toBe(false);
    expect(other.summary.composite.maxAbsDiff).toBeGreaterThan(0.01);
    expect(other.summary.scores["imbalance"]!.maxAbsDiff).toBe(0);
  });

  it("checkConformance on all four coins' rows at once (interleaved by time) conforms", async () => {
    const res = await client.analyticsQuery({ dataset: "composite", start: NOW - 6 * 3_600_000, end: NOW, limit: 50_000 });
    const recording = Object.fromEntries(res.columns.map((c, j) => [c, res.rows.map((r) => r[j])]));
    expect(new Set(recording["coin"]).size).toBe(4);
    const report = checkConformance(recording);
    expect(report.summary.conforms).toBe(true);
    expect(report.summary.composite.compared).toBe(res.rows.length);
  });

  it("inferWeights on the analytics recording recovers the service's weights", async () => {
    const res = await client.analyticsQuery({ dataset: "composite", coin: "SOL", start: START, end: NOW, limit: 50_000 });
    const recording = Object.fromEntries(res.columns.map((c, j) => [c, res.rows.map((r) => r[j])]));
    const fit = inferWeights(recording);
    for (const c of COMPONENT_NAMES) expect(fit.weights[c]).toBeCloseTo(DEFAULT_WEIGHTS[c], 9);
    expect(fit.maxAbsResidual).toBeLessThan(1e-12);
    // rows 0..4 have no momentum (renormalised by the service) and are left out
    expect(fit.rows).toBe(res.rows.length - 5);
  });
});

describe("round trip (plumbing): volatility, regime and liquidation values replayed over /v1/history prices come back unchanged", () => {
  const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

  it("realized vol (5m, 1h, 4h, 24h) and the vol regime of every coin, from its price history", async () => {
    const vol = await client.volatility();
    for (const e of vol.volatility) {
      const h = await client.history({ metricId: `${e.coin.toLowerCase()}_price`, hours: 48 });
      expect(h.time.at(-1)).toBe(Math.floor(NOW / 60_000) * 60_000); // the history ends at the current minute
      for (const w of Object.keys(VOL_WINDOWS) as (keyof typeof VOL_WINDOWS)[]) {
        const mine = realizedVol(h.value, { window: w }).at(-1)!;
        expect(rel(mine, e.realized_vol[w] as number), `${e.coin} ${w}`).toBeLessThan(1e-9);
      }
      expect(e.regime).toBe(classifyVolRegime(realizedVol(h.value, { window: "24h" }).at(-1)!));
    }
  });

  it("trend label (efficiency ratio over 240 one-minute bars) of every coin", async () => {
    const regime = await client.regime();
    const regimes = regime.regimes as { coin: string; regime_label: string }[];
    expect(regimes.length).toBe(4);
    for (const r of regimes) {
      const h = await client.history({ metricId: `${r.coin.toLowerCase()}_price`, hours: 24 });
      const code = trendLabels(h.value, { window: 240 }).at(-1)!;
      expect(r.regime_label).toBe(TREND_LABELS[code === 1 ? 1 : 0]);
    }
  });

  it("liquidation level of every coin", async () => {
    const liq = (await client.liquidations()) as { alerts: { coin: string; level: string }[] };
    expect(liq.alerts.length).toBe(4);
    for (const a of liq.alerts) {
      const h = await client.history({ metricId: `${a.coin.toLowerCase()}_price`, hours: 1 });
      expect(a.level).toBe(LIQUIDATION_LEVELS[liquidationAlerts(h.value).at(-1)!]);
    }
  });
});
