import type { VegaLiteSpec } from "./renderSvg.js";

type Json = Record<string, unknown>;

const continuous = (enc: unknown): boolean => {
  const x = (enc as Json | undefined)?.["x"] as Json | undefined;
  return x !== undefined && (x["type"] === "temporal" || x["type"] === "quantitative") && typeof x["field"] === "string";
};

/**
 * The interactive version of a chart's vega-lite spec, for a page that draws it live: every
 * mark shows a tooltip of its encoded fields on hover, and a chart whose x axis is continuous
 * (time or a number) pans with a drag and zooms with the wheel (a scale-bound interval, double-click
 * resets). In a layered chart the zoom sits on the first layer with such an x, and its scales are
 * shared by the others. Concatenated charts, and charts that already define params, get tooltips
 * only. The input is not modified.
 * @see https://vega.github.io/vega-lite/docs/bind.html#scale-binding
 * @example interactiveSpec(equitySpec(input)).params // [{ name: "zoom", select: "interval", bind: "scales" }]
 */
export function interactiveSpec(spec: VegaLiteSpec): VegaLiteSpec {
  const s = spec as unknown as Json;
  const config = (s["config"] as Json | undefined) ?? {};
  const out: Json = { ...s, config: { ...config, mark: { ...((config["mark"] as Json | undefined) ?? {}), tooltip: true } } };
  if (s["params"] !== undefined) return out as unknown as VegaLiteSpec;
  const zoom = [{ name: "zoom", select: { type: "interval", encodings: ["x"] }, bind: "scales" }];
  if (s["mark"] !== undefined && continuous(s["encoding"])) out["params"] = zoom;
  else if (Array.isArray(s["layer"])) {
    const layers = s["layer"] as Json[];
    const k = layers.findIndex((l) => l["mark"] !== undefined && l["params"] === undefined && (continuous(l["encoding"]) || (continuous(s["encoding"]) && (l["encoding"] as Json | undefined)?.["x"] === undefined)));
    if (k >= 0) out["layer"] = layers.map((l, i) => (i === k ? { ...l, params: zoom } : l));
  }
  return out as unknown as VegaLiteSpec;
}
