/**
 * Path of every endpoint of the Market Intelligence read API (spec section 4),
 * keyed by the client method that calls it. 17 paths.
 */
export const ENDPOINTS = Object.freeze({
  snapshot: "/v1/snapshot",
  volatility: "/v1/signals/volatility",
  whaleFlow: "/v1/signals/whale-flow",
  composite: "/v1/signals/composite",
  regime: "/v3/signals/regime",
  liquidations: "/v1/signals/liquidations",
  safety: "/v3/signals/safety",
  history: "/v1/history",
  spreads: "/v1/signals/spreads",
  correlation: "/v1/signals/correlation",
  depth: "/v1/signals/depth",
  imbalance: "/v1/signals/imbalance",
  priorityGas: "/v1/signals/priority-gas",
  squeeze: "/v3/signals/squeeze",
  arbitrage: "/v3/signals/arbitrage",
  smartMoney: "/v3/signals/smart-money",
  analyticsQuery: "/v3/analytics/query",
} as const);

/** Name of a client method that calls one endpoint. */
export type EndpointName = keyof typeof ENDPOINTS;
