import type { TopLevelSpec } from "vega-lite";
import { rememberChart } from "./renderedCharts.js";

/** A vega-lite specification (the JSON grammar of https://vega.github.io/vega-lite/). */
export type VegaLiteSpec = TopLevelSpec;

/**
 * Compile a vega-lite spec and render it to a standalone SVG string in Node,
 * without a browser (vega's headless View with the "none" renderer).
 * vega and vega-lite are loaded with `await import()` on first use: vega's
 * module graph uses top-level await, which CommonJS hosts such as tslab
 * cannot `require()` — loading it lazily keeps the library importable there.
 * Rendering takes tens of milliseconds per chart. The spec is remembered with
 * its SVG, so `show(svg)` in a notebook can also send it as an interactive chart.
 * @see https://vega.github.io/vega/usage/#view-toSVG
 * @example
 * const svg = await renderSvg({ data: { values: [{ x: 1, y: 2 }] }, mark: "point",
 *   encoding: { x: { field: "x", type: "quantitative" }, y: { field: "y", type: "quantitative" } } });
 * svg.startsWith("<svg") // true
 */
export async function renderSvg(spec: VegaLiteSpec): Promise<string> {
  const [vega, vl] = await Promise.all([import("vega"), import("vega-lite")]);
  const compiled = vl.compile(spec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: "none", logLevel: vega.Error });
  try {
    const svg = scopeSvgIds(await view.toSVG());
    rememberChart(svg, spec);
    return svg;
  } finally {
    view.finalize();
  }
}

/**
 * Make the ids inside one SVG (clip paths, gradients) unique in a page that
 * inlines many SVGs, and deterministic: vega numbers its clip paths with a
 * process-wide counter (`clip3`, `clip4`, ...), so the same chart would differ
 * between runs and two pages' charts could capture each other's `url(#clip1)`.
 * Ids are renumbered in order of appearance and prefixed with a hash of the
 * SVG's text with ids so normalised. @internal
 */
export function scopeSvgIds(svg: string): string {
  const ids: string[] = [];
  for (const m of svg.matchAll(/\sid="([^"]+)"/g)) if (!ids.includes(m[1] as string)) ids.push(m[1] as string);
  if (ids.length === 0) return svg;
  const rename = (name: (k: number) => string): string => {
    const map = new Map(ids.map((id, k) => [id, name(k)]));
    const to = (id: string): string => map.get(id) ?? id;
    return svg
      .replace(/(\sid=")([^"]+)"/g, (_m, a: string, id: string) => `${a}${to(id)}"`)
      .replace(/url\(#([^)]+)\)/g, (_m, id: string) => `url(#${to(id)})`)
      .replace(/(href=")#([^"]+)"/g, (_m, a: string, id: string) => `${a}#${to(id)}"`);
  };
  const canonical = rename((k) => `id${k}`);
  let h = 0x811c9dc5;
  for (let i = 0; i < canonical.length; i++) h = Math.imul(h ^ canonical.charCodeAt(i), 0x01000193);
  const prefix = `m${(h >>> 0).toString(36)}-`;
  return rename((k) => `${prefix}${k}`);
}
