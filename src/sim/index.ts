export { COIN_PARAMS, simulateMarket } from "./market.js";
export type { CoinPath, SimMarket } from "./market.js";
export { METRIC_CATALOG, isMetricId, metricSeries } from "./catalog.js";
export type { MetricInfo } from "./catalog.js";
export { simulateComposites } from "./composites.js";
export type { SimComposite } from "./composites.js";
