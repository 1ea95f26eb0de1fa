import type { VegaLiteSpec } from "./renderSvg.js";

/** Charts remembered: enough for a notebook cell's few charts, small enough to hold (each a spec and an SVG of 10-300 kB). */
const KEEP = 16;
const specs = new Map<string, VegaLiteSpec>();

/**
 * Remember the vega-lite spec an SVG was rendered from (renderSvg calls this), so `show(svg)`
 * can send the chart interactively as well: a chart function resolves to a plain SVG string,
 * and a string can carry nothing else. The last 16 charts are kept, oldest forgotten first.
 * @internal
 */
export function rememberChart(svg: string, spec: VegaLiteSpec): void {
  specs.delete(svg);
  specs.set(svg, spec);
  if (specs.size > KEEP) specs.delete(specs.keys().next().value as string);
}

/** The vega-lite spec `svg` was rendered from, when it is one of the last 16 charts rendered here. @internal */
export function chartSpecOf(svg: string): VegaLiteSpec | undefined {
  return specs.get(svg);
}
