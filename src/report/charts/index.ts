/**
 * `market-intel-lab/charts`: the vega-lite specifications behind the report's
 * charts, for a user who wants to restyle or extend one before rendering it
 * with `renderSvg` (the root's `equityChart` etc. return the rendered SVG).
 * Each `*Spec` takes the same input and options as its `*Chart`.
 */
export { renderSvg } from "../renderSvg.js";
export type { VegaLiteSpec } from "../renderSvg.js";
export { interactiveSpec } from "../interactiveSpec.js";
export { equitySpec } from "../equityChart.js";
export { drawdownSpec } from "../drawdownChart.js";
export { signalSpec } from "../signalChart.js";
export { positionsSpec } from "../positionsChart.js";
export { barSpec } from "../barChart.js";
export { icDecaySpec } from "../icDecayChart.js";
export { sweepHeatmapSpec } from "../sweepHeatmap.js";
export { thresholdSpec } from "../thresholdChart.js";
export { walkForwardSpec } from "../walkForwardChart.js";
export { pboLogitSpec } from "../pboLogitChart.js";
// tearsheet: the specs of the performance and signal-tearsheet charts
export { monthlyHeatmapSpec } from "../monthlyHeatmapChart.js";
export { underwaterSpec } from "../underwaterChart.js";
export { rollingMetricsSpec } from "../rollingMetricsChart.js";
export { histogramSpec } from "../histogramChart.js";
export { qqSpec } from "../qqChart.js";
export { rollingIcSpec } from "../rollingIcChart.js";
