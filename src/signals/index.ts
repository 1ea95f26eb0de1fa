export { COMPONENT_NAMES, DEFAULT_WEIGHTS, validateWeights } from "./weights.js";
export type { ComponentName, Weights } from "./weights.js";
export {
  CHEAP_GAS_GWEI,
  DEFAULT_SCORERS,
  EXTRA_SCORERS,
  scoreBasis,
  scoreCorrelation,
  scoreFunding,
  scoreGas,
  scoreImbalance,
  scoreMomentum,
  scoreVolatility,
} from "./scorers.js";
export type { Scorer } from "./scorers.js";
export { scoreComponents } from "./scoreComponents.js";
export { compositeScore, MISSING_POLICIES } from "./compositeScore.js";
export type { MissingPolicy } from "./compositeScore.js";
export { classifySignal, classifySignalStrength, validateThresholds } from "./classifySignal.js";
export type { SignalLabel, SignalThresholds } from "./classifySignal.js";
export { signalConfidence } from "./signalConfidence.js";
export { MINUTES_PER_YEAR, VOL_WINDOWS, realizedVol } from "./realizedVol.js";
export type { VolWindow } from "./realizedVol.js";
export { atr, atrPercent } from "./atr.js";
export {
  DEFAULT_VOL_CUTOFFS,
  VOL_REGIMES,
  applyRegimeFloor,
  classifyVolRegime,
  classifyVolRegimes,
  classifyVolRegimesByPercentile,
} from "./volRegime.js";
export type { VolCutoffs, VolRegime } from "./volRegime.js";
export { TREND_LABELS, efficiencyRatio, trendLabels } from "./trendLabels.js";
export type { TrendLabel } from "./trendLabels.js";
export { regimeStatistics, regimeStatisticsSeries } from "./regimeStatistics.js";
export type { RegimeStatistics, RegimeStatisticsSeries } from "./regimeStatistics.js";
export { MARKET_REGIMES, marketRegime, marketRegimes } from "./marketRegime.js";
export type { CoinState, MarketRegime, MarketRegimeInput, MarketRegimeOptions, MarketRegimeSeries } from "./marketRegime.js";
export { CASCADE_THRESHOLDS, LIQUIDATION_LEVELS, liquidationAlerts } from "./liquidationAlerts.js";
export type { CascadeThreshold, LiquidationLevel } from "./liquidationAlerts.js";
export { replayComposite } from "./replayComposite.js";
export type { CompositeReplay, ReplayCompositeOptions } from "./replayComposite.js";
export type { ReplayInto } from "./replayInto.js";
export { FEED_NAMES, componentsFromFeeds } from "./componentsFromFeeds.js";
export type { ComponentsFromFeedsOptions, FeedComponents } from "./componentsFromFeeds.js";
export type { ColumnInput } from "./readColumns.js";
export { checkConformance } from "./checkConformance.js";
export type { ConformanceOptions, ConformanceReport, ConformanceStats, ConformanceSummary } from "./checkConformance.js";
export { inferWeights, inferWeightsRolling } from "./inferWeights.js";
export type { InferWeightsOptions, InferredWeights } from "./inferWeights.js";
export { componentMetricIds } from "./componentMetricIds.js";
