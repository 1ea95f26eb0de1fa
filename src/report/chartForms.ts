import type { DisplayForms } from "./display.js";
import { interactiveSpec } from "./interactiveSpec.js";
import { chartSpecOf } from "./renderedCharts.js";

/** The MIME type JupyterLab (`@jupyterlab/vega5-extension`) and VS Code draw as an interactive vega-lite chart. */
export const VEGA_LITE_MIME = "application/vnd.vegalite.v5+json";

/**
 * The display forms of a chart (the SVG string a chart function resolves to): a text line for
 * terminals, the SVG as HTML, and for a notebook the MIME bundle of the chart — its interactive
 * vega-lite spec under {@link VEGA_LITE_MIME} (tooltips, and zoom where the scale allows it;
 * `$schema` stated as v5, the version that MIME type names: the specs use nothing newer), the SVG
 * as `image/svg+xml` (what nbconvert, GitHub and the tests read) and the text. The spec is known
 * when the SVG was rendered by this library in this process; otherwise the bundle has the SVG and
 * the text only. @internal
 */
export function chartForms(svg: string): DisplayForms {
  const spec = chartSpecOf(svg);
  const title = typeof (spec as { title?: unknown } | undefined)?.title === "string" ? ` "${(spec as { title: string }).title}"` : "";
  const text = `[chart${title}, ${Math.round(svg.length / 1024)} kB SVG: show it in a notebook or write it to an .svg file]`;
  // As JSON (what the notebook stores): vega tags the rows it drew with symbol keys, and NaN becomes null.
  const vegaLite = spec !== undefined ? { [VEGA_LITE_MIME]: JSON.parse(JSON.stringify({ ...interactiveSpec(spec), $schema: "https://vega.github.io/schema/vega-lite/v5.json" })) as unknown } : {};
  return { text, html: svg, mime: { ...vegaLite, "image/svg+xml": svg, "text/plain": text } };
}
