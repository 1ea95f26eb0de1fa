/**
 * `market-intel-lab/sim`: the seeded market simulator behind the replay
 * server and the demo: four correlated coins (one-minute OHLCV, perp price,
 * basis, hourly funding, book imbalance, base fee, open interest, whale
 * orders, liquidations) and a catalog of metrics over them.
 *
 * Rules it borrows from the library (so it is a twin of the service built
 * from this code, not an independent reference): `simulateComposites` scores
 * its component values with `DEFAULT_SCORERS`, weights them with
 * `DEFAULT_WEIGHTS`, labels them with the library's label rule, and computes
 * `signalConfidence`, `realizedVol` and `classifyVolRegimes`; the server's
 * endpoints add `atr`, `trendLabels`, `regimeStatistics`, `marketRegime` and
 * `liquidationAlerts`. Its own, independent parts are the price and feed
 * processes (src/sim/market.ts) and the metric catalog. A test that replays
 * its data through the library is plumbing; evidence that a rule is right
 * comes from the service's published responses and hand-computed or
 * independently computed values (docs/DESIGN.md, "Evidence").
 */
export { COIN_PARAMS, simulateMarket } from "./market.js";
export type { CoinPath, SimMarket } from "./market.js";
export { METRIC_CATALOG, isMetricId, metricSeries } from "./catalog.js";
export type { MetricInfo } from "./catalog.js";
export { simulateComposites } from "./composites.js";
export type { SimComposite } from "./composites.js";
