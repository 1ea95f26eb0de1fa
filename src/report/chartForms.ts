import type { DisplayForms } from "./display.js";
import { interactiveSpec } from "./interactiveSpec.js";
import { chartSpecOf } from "./renderedCharts.js";

/** The MIME type JupyterLab (`@jupyterlab/vega5-extension`) and VS Code draw as an interactive vega-lite chart. */
export const VEGA_LITE_MIME = "application/vnd.vegalite.v5+json";

/**
 * Largest vega-lite spec (its JSON, data included) sent with a chart, in characters. A notebook
 * stores every output, and Jupyter writes JSON indented (about 1.5x): a time series of 1500 points
 * is ~150 kB of spec beside its ~50 kB SVG, and a notebook of ten such charts would pass the
 * megabytes a repository and a reader's browser want (test/notebooks keeps each under 1.5 MB).
 * Larger charts go as SVG and text; pass a chart function a smaller `maxPoints` to get one interactive.
 */
export const VEGA_LITE_MAX_CHARS = 32 * 1024;

/**
 * The display forms of a chart (the SVG string a chart function resolves to): a text line for
 * terminals, the SVG as HTML, and for a notebook the MIME bundle of the chart — its interactive
 * vega-lite spec under {@link VEGA_LITE_MIME} (tooltips, and zoom where the scale allows it;
 * `$schema` stated as v5, the version that MIME type names: the specs use nothing newer), the SVG
 * as `image/svg+xml` (what nbconvert, GitHub and the tests read) and the text. The spec is known
 * when the SVG was rendered by this library in this process, and sent when its JSON is at most
 * {@link VEGA_LITE_MAX_CHARS}; otherwise the bundle has the SVG and the text only (which says why). @internal
 */
export function chartForms(svg: string): DisplayForms {
  const spec = chartSpecOf(svg);
  const title = typeof (spec as { title?: unknown } | undefined)?.title === "string" ? ` "${(spec as { title: string }).title}"` : "";
  // As JSON (what the notebook stores): vega tags the rows it drew with symbol keys, and NaN becomes null.
  const json = spec !== undefined ? JSON.stringify({ ...interactiveSpec(spec), $schema: "https://vega.github.io/schema/vega-lite/v5.json" }) : undefined;
  const fits = json !== undefined && json.length <= VEGA_LITE_MAX_CHARS;
  const note = json !== undefined && !fits ? `; static: its ${Math.round(json.length / 1024)} kB of data is over the ${VEGA_LITE_MAX_CHARS / 1024} kB kept interactive (lower maxPoints)` : "";
  const text = `[chart${title}, ${Math.round(svg.length / 1024)} kB SVG${note}: show it in a notebook or write it to an .svg file]`;
  const vegaLite = fits ? { [VEGA_LITE_MIME]: JSON.parse(json) as unknown } : {};
  return { text, html: svg, mime: { ...vegaLite, "image/svg+xml": svg, "text/plain": text } };
}
