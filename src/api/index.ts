export { createClient } from "./createClient.js";
export type { ClientOptions, CoinParams, History, HistoryParams, MarketIntelClient } from "./createClient.js";
export { ENDPOINTS } from "./endpoints.js";
export type { EndpointName } from "./endpoints.js";
export type { HistorySeries, HistoryVariant } from "./parseHistory.js";
export { ANALYTICS_DATASETS, ANALYTICS_INTERVALS, ANALYTICS_MAX_LIMIT } from "./analyticsParams.js";
export type { AnalyticsQueryParams } from "./analyticsParams.js";
export type { AnalyticsResult } from "./queryAnalytics.js";
export type { AnalyticsCoverage } from "./analyticsCoverage.js";
export type { QueryParams } from "./checkQueryParams.js";
export type { ClientEvent } from "./transport/ClientEvent.js";
// The resources the client returns, as types. Their zod schemas and
// normalisers are the `market-intel-lab/schemas` entry point (./schemas/index.ts).
export type { Snapshot, SnapshotMetric } from "./schemas/snapshot.js";
export type { Volatility, VolatilityEntry } from "./schemas/volatility.js";
export type { DocumentedWhaleFlowEntry, ObservedWhaleFlowEntry, WhaleFlow } from "./schemas/whaleFlow.js";
export type { Composite, CompositeSignal } from "./schemas/composite.js";
export type { Regime, RegimeEntry } from "./schemas/regime.js";
export type { JsonObject } from "./schemas/jsonObject.js";
export type { AnalyticsNext, AnalyticsPage } from "./schemas/analytics.js";
