import { describe, expect, it } from "vitest";
import {
  firstRecordArray,
  normaliseComposite,
  normaliseJsonObject,
  normaliseRegime,
  normaliseSnapshot,
  normaliseVolatility,
  normaliseWhaleFlow,
  parseAnalyticsPage,
  parseMethodologyWeights,
} from "../../src/api/schemas/index.js";
import { SchemaMismatchError } from "../../src/errors/index.js";
import { fixture } from "./helpers/fixtureServer.js";

describe("snapshot: observed and documented normalise to the same metric values", () => {
  it("every documented flat field becomes a metric entry equal to the observed one", () => {
    const obs = normaliseSnapshot(fixture("snapshot", "observed"));
    const doc = normaliseSnapshot(fixture("snapshot", "documented"));
    expect(obs.variant).toBe("observed");
    expect(doc.variant).toBe("documented");
    expect(doc.catalog_total).toBe(7);
    const byId = new Map(obs.metrics.map((m) => [m.metric_id, m.value]));
    for (const m of doc.metrics) {
      expect(byId.get(m.metric_id), m.metric_id).toBe(m.value);
      expect(m.time_chain).toBe("2026-11-22T12:00:00.000Z"); // from updated_at
    }
    expect(doc.metrics.map((m) => m.metric_id)).not.toContain("updated_at");
  });

  it("keeps unknown fields and does not mutate the body", () => {
    const body = { catalog_total: 1, metrics: [{ metric_id: "x", time_chain: "2026-11-22T12:00:00.000Z", time_local: "2026-11-22T12:00:00.000Z", value: 1, unit: "usd" }], extra: 1 };
    const copy = structuredClone(body);
    const s = normaliseSnapshot(body);
    expect((s as Record<string, unknown>)["extra"]).toBe(1);
    expect((s.metrics[0] as Record<string, unknown>)["unit"]).toBe("usd");
    expect(body).toEqual(copy);
  });

  it("a body of neither shape -> SchemaMismatchError with endpoint, path and both variants", () => {
    try {
      normaliseSnapshot({ metrics: [{ metric_id: 3 }] });
      expect.unreachable();
    } catch (e) {
      const err = e as SchemaMismatchError;
      expect(err).toBeInstanceOf(SchemaMismatchError);
      expect(err.endpoint).toBe("/v1/snapshot");
      expect(err.variantsTried).toEqual(["observed", "documented"]);
      expect(err.path).not.toBe("");
      expect(err.message).toContain("client.raw");
    }
  });
});

describe("volatility", () => {
  it("flat realized_vol_1d -> '24h', realized_vol_5m -> '5m', atr_1h -> atr['1h']: same values as observed", () => {
    const obs = normaliseVolatility(fixture("volatility", "observed"));
    const doc = normaliseVolatility(fixture("volatility", "documented"));
    expect(doc.variant).toBe("documented");
    expect(doc.volatility).toHaveLength(2);
    for (const [i, d] of doc.volatility.entries()) {
      const o = obs.volatility[i]!;
      expect(d.coin).toBe(o.coin);
      expect(d.mark_price).toBe(o.mark_price);
      for (const w of ["5m", "1h", "24h"]) expect(d.realized_vol[w], w).toBe(o.realized_vol[w]);
      for (const w of ["5m", "1h"]) expect(d.atr[w], w).toBe(o.atr[w]);
      expect(d.realized_vol["4h"]).toBeUndefined(); // not sent by the documented form
      expect(d.regime).toBeNull();
      expect(Object.keys(d)).not.toContain("realized_vol_1d");
    }
  });

  it("documented: unknown top-level fields are kept", () => {
    const body = { ...(fixture("volatility", "documented") as object), source: "hl" };
    expect((normaliseVolatility(body) as Record<string, unknown>)["source"]).toBe("hl");
  });

  it("a nested '1d' key is renamed '24h' too", () => {
    const v = normaliseVolatility({
      timestamp: "2026-11-22T12:00:00.000Z",
      volatility: [{ coin: "BTC", mark_price: 1, realized_vol: { "1d": 40 }, atr: {}, regime: "normal", timestamp: "2026-11-22T12:00:00.000Z" }],
    });
    expect(v.volatility[0]!.realized_vol).toEqual({ "24h": 40 });
  });
});

describe("whale flow", () => {
  it("one coin's observed object -> {whale_flow: [it]}", () => {
    const w = normaliseWhaleFlow(fixture("whale-flow", "observed"));
    expect(w.variant).toBe("observed");
    expect(w.whale_flow).toHaveLength(1);
    expect(w.whale_flow[0]!.coin).toBe("BTC");
  });

  it("documented whale_flow[] is kept; its BTC net_flow equals the observed whale_imbalance", () => {
    const obs = normaliseWhaleFlow(fixture("whale-flow", "observed"));
    const doc = normaliseWhaleFlow(fixture("whale-flow", "documented"));
    expect(doc.variant).toBe("documented");
    expect(doc.whale_flow.map((e) => e.coin)).toEqual(["BTC", "ETH"]);
    if (obs.variant !== "observed" || doc.variant !== "documented") throw new Error("variants");
    expect(doc.whale_flow[0]!.net_flow).toBe(obs.whale_flow[0]!.whale_imbalance);
  });

  it("an array of observed objects (all coins) is accepted; top-level fields are kept", () => {
    const one = fixture("whale-flow", "observed");
    const many = normaliseWhaleFlow({ timestamp: "2026-11-22T12:00:00.000Z", whale_flow: [one, one] });
    expect(many.whale_flow).toHaveLength(2);
    expect(many["timestamp"]).toBe("2026-11-22T12:00:00.000Z");
    expect(normaliseWhaleFlow([one]).variant).toBe("observed");
  });
});

describe("composite", () => {
  it("observed fixture: docs/DESIGN.md worked example; weights parsed from methodology reproduce -0.0771", () => {
    const c = normaliseComposite(fixture("composite", "observed"));
    expect(c.variant).toBe("observed");
    expect(c.weights_source).toBe("methodology");
    expect(c.weights).toEqual({ imbalance: 0.3, funding: 0.25, basis_spread: 0.2, momentum_5m: 0.15, gas: 0.1 });
    const btc = c.signals.find((s) => s.coin === "BTC")!;
    expect(btc.risk_warnings).toEqual([]); // null -> []
    let sum = 0;
    for (const [name, w] of Object.entries(c.weights)) sum += w * (btc.components[name]!.score as number);
    // Hand computation: .3*.261 + .25*-.048 + .2*-1 + .15*.178 + .1*.3 = -0.0770 (published: -0.0771, rounded scores).
    expect(sum).toBeCloseTo(-0.077, 4);
    expect(Math.abs(sum - (btc.composite_score as number))).toBeLessThan(5e-4);
    expect(btc.regime).toBe("neutral");
  });

  it("documented single-coin form -> same BTC signal; text without weights gives no weights, flagged default (the signals decide the defaults)", () => {
    const obs = normaliseComposite(fixture("composite", "observed"));
    const doc = normaliseComposite(fixture("composite", "documented"));
    expect(doc.variant).toBe("documented");
    expect(doc.weights_source).toBe("default");
    expect(doc.weights).toEqual({});
    expect(doc.signals).toHaveLength(1);
    expect(doc.signals[0]).toEqual(obs.signals[0]);
  });

  it("parseMethodologyWeights reads several phrasings", () => {
    expect(parseMethodologyWeights("imbalance 30%, funding 25%, basis 20%, momentum 15%, gas 10%").weights).toEqual({
      imbalance: 0.3,
      funding: 0.25,
      basis_spread: 0.2,
      momentum_5m: 0.15,
      gas: 0.1,
    });
    expect(parseMethodologyWeights("Imbalance: 40.5%; Volatility 9.5 %").weights).toEqual({ imbalance: 0.405, volatility: 0.095 });
    expect(parseMethodologyWeights("")).toEqual({ weights: {}, source: "default" });
  });
});

describe("regime", () => {
  it("observed keeps regimes[] (risk_warnings null -> [])", () => {
    const r = normaliseRegime(fixture("regime", "observed"));
    expect(r.variant).toBe("observed");
    expect(r.regimes.map((x) => x.coin)).toEqual(["BTC", "ETH"]);
    expect(r.regimes[0]!.risk_warnings).toEqual([]);
    expect(r.regimes[1]!.risk_warnings).toEqual(["ETH funding is elevated"]);
  });

  it("documented top-level fields alone -> regimes [] plus regime/confidence/duration/transition_probs", () => {
    const r = normaliseRegime(fixture("regime", "documented"));
    expect(r.variant).toBe("documented");
    expect(r.regimes).toEqual([]);
    expect(r.regime).toBe("risk_on");
    expect(r.confidence).toBe(0.64);
    expect(r.transition_probs).toEqual({ risk_off: 0.05, neutral: 0.15, risk_on: 0.8 });
  });

  it("both together: regimes[] and the documented fields, variant documented", () => {
    const both = { ...(fixture("regime", "observed") as object), ...(fixture("regime", "documented") as object) };
    const r = normaliseRegime(both);
    expect(r.regimes).toHaveLength(2);
    expect(r.regime).toBe("risk_on");
    expect(r.variant).toBe("documented");
  });
});

describe("other endpoints and helpers", () => {
  it("normaliseJsonObject returns a copy of any object and rejects arrays and scalars", () => {
    const body = fixture("liquidations", "observed") as Record<string, unknown>;
    const out = normaliseJsonObject(body, "/v1/signals/liquidations");
    expect(out).toEqual(body);
    expect(out).not.toBe(body);
    expect(() => normaliseJsonObject([1], "/x")).toThrow(SchemaMismatchError);
    expect(() => normaliseJsonObject("x", "/x")).toThrow(SchemaMismatchError);
  });

  it("firstRecordArray finds the top-level record array first, then nested ones", () => {
    expect(firstRecordArray({ n: 1, a: [1, 2], alerts: [{ x: 1 }], deep: { rows: [{ y: 2 }] } })).toEqual([{ x: 1 }]);
    expect(firstRecordArray({ meta: { inner: { rows: [{ y: 2 }] } } })).toEqual([{ y: 2 }]);
    expect(firstRecordArray([{ z: 3 }])).toEqual([{ z: 3 }]);
    expect(firstRecordArray({ a: [], b: [[1, 2]] })).toBeUndefined();
    expect(firstRecordArray(null)).toBeUndefined();
    const liq = firstRecordArray(fixture("liquidations", "observed"));
    expect(liq?.[0]?.["coin"]).toBe("BTC");
  });

  it("analytics: nested, columns and records pages give the same columns and rows", () => {
    const nested = parseAnalyticsPage(fixture("analytics", "nested"));
    const columns = parseAnalyticsPage(fixture("analytics", "columns"));
    const records = parseAnalyticsPage(fixture("analytics", "records"));
    expect([nested.variant, columns.variant, records.variant]).toEqual(["nested", "columns", "records"]);
    for (const p of [columns, records]) {
      expect(p.columns).toEqual(nested.columns);
      expect(p.rows).toEqual(nested.rows);
      expect(p.next).toBeNull();
    }
    expect(nested.metadata["total_rows"]).toBe(4);
  });

  it("analytics: next page from next_offset, next_cursor, next_uri or has_more", () => {
    const r = { columns: ["a"], rows: [[1]] };
    expect(parseAnalyticsPage({ result: r, next_offset: 5 }).next).toEqual({ offset: 5 });
    expect(parseAnalyticsPage({ ...r, next_uri: "/v3/analytics/query?offset=1" }).next).toEqual({ uri: "/v3/analytics/query?offset=1" });
    expect(parseAnalyticsPage({ data: [{ a: 1 }], has_more: true, next_cursor: "MQ" }).next).toEqual({ cursor: "MQ" });
    expect(parseAnalyticsPage({ data: [{ a: 1 }], has_more: false, next_cursor: "MQ" }).next).toBeNull();
    expect(parseAnalyticsPage({ data: [{ a: 1 }], has_more: true }).next).toEqual({ advance: true });
  });

  it("analytics: records with different keys -> union of columns, missing cells null", () => {
    const p = parseAnalyticsPage([{ a: 1 }, { b: 2 }]);
    expect(p.columns).toEqual(["a", "b"]);
    expect(p.rows).toEqual([
      [1, null],
      [null, 2],
    ]);
  });

  it("analytics: unknown page shape -> SchemaMismatchError naming the three forms", () => {
    try {
      parseAnalyticsPage({ result: { rows: "x" } });
      expect.unreachable();
    } catch (e) {
      expect((e as SchemaMismatchError).variantsTried).toEqual(["nested", "columns", "records"]);
    }
  });
});
