export { COINS, isCoin, parseCoin } from "./coins.js";
export type { Coin } from "./coins.js";
export { METRIC_ID_FORMAT, parseMetricId } from "./metricIds.js";
