import type { MarketIntelClient } from "../../src/api/index.js";
import type { ENDPOINTS } from "../../src/api/endpoints.js";

/** A call of one client method. */
export type EndpointCall = (c: MarketIntelClient) => Promise<unknown>;

/**
 * One call per client method, i.e. per endpoint of the API (typed by the
 * endpoint table, so a new endpoint without a call here fails to compile):
 * what the reliability tests (fault matrix, key in errors) run against the
 * replay server. The two query endpoints ask for `historyHours` of
 * `btc_price` and for the hour before `now`.
 */
export function endpointCalls(now: number, historyHours = 1): Readonly<Record<keyof typeof ENDPOINTS, EndpointCall>> {
  return {
    snapshot: (c) => c.snapshot(),
    volatility: (c) => c.volatility(),
    whaleFlow: (c) => c.whaleFlow(),
    composite: (c) => c.composite(),
    regime: (c) => c.regime(),
    liquidations: (c) => c.liquidations(),
    safety: (c) => c.safety(),
    history: (c) => c.history({ metricId: "btc_price", hours: historyHours }),
    spreads: (c) => c.spreads(),
    correlation: (c) => c.correlation(),
    depth: (c) => c.depth(),
    imbalance: (c) => c.imbalance(),
    priorityGas: (c) => c.priorityGas(),
    squeeze: (c) => c.squeeze(),
    arbitrage: (c) => c.arbitrage(),
    smartMoney: (c) => c.smartMoney(),
    analyticsQuery: (c) => c.analyticsQuery({ metricId: "btc_price", start: now - 3_600_000, end: now }),
  };
}
