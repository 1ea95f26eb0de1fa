import type { Config } from "vega-lite";

/** Palette shared by every chart of the report (colour-blind friendly, Tableau 10 order). */
export const PALETTE = ["#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#eeca3b", "#9d755d", "#bab0ac", "#ff9da6"];
/** Colours with a meaning. */
export const COLORS = { up: "#2f9e44", down: "#d9480f", neutral: "#868e96", ink: "#212529", grid: "#e9ecef", accent: "#4c78a8" } as const;

/** Default chart width and height in px (the report scales SVGs down to its column). */
export const CHART_WIDTH = 880;
export const CHART_HEIGHT = 220;

/** vega-lite config of every chart: quiet axes, system fonts, UTC. */
export const CHART_CONFIG: Config = {
  font: "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
  background: "white",
  view: { stroke: null },
  range: { category: PALETTE },
  axis: {
    labelColor: "#495057",
    titleColor: "#495057",
    labelFontSize: 11,
    titleFontSize: 11,
    titleFontWeight: "normal",
    gridColor: COLORS.grid,
    domainColor: "#adb5bd",
    tickColor: "#adb5bd",
  },
  legend: { labelFontSize: 11, titleFontSize: 11, orient: "top", direction: "horizontal", title: null },
  title: { fontSize: 13, fontWeight: 600, anchor: "start", color: COLORS.ink, offset: 8 },
  line: { strokeWidth: 1.4 },
};
