import type { VegaLiteSpec } from "./renderSvg.js";

type Json = Record<string, unknown>;

const continuous = (enc: unknown): boolean => {
  const x = (enc as Json | undefined)?.["x"] as Json | undefined;
  return x !== undefined && (x["type"] === "temporal" || x["type"] === "quantitative") && typeof x["field"] === "string";
};

const markType = (l: Json): unknown => (typeof l["mark"] === "object" && l["mark"] !== null ? (l["mark"] as Json)["type"] : l["mark"]);

/**
 * Whether a layer draws bars whose length runs along x (a horizontal bar chart: x
 * quantitative, y a category). Such an x scale is not zoomable: a bar's length is measured
 * from zero, and a scale-bound zoom clips the bars (vega-lite sets `clip` on every mark of the
 * zoomed view; in Chromium the bars of such a chart vanished and a value label past the plot
 * was cut, "11.42" shown as "1").
 */
const barLengthOnX = (l: Json, shared: Json | undefined): boolean => {
  const type = markType(l);
  if (type !== "bar" && type !== "rect") return false;
  const enc = { ...(shared ?? {}), ...((l["encoding"] as Json | undefined) ?? {}) };
  const x = enc["x"] as Json | undefined;
  const y = enc["y"] as Json | undefined;
  return x !== undefined && x["type"] === "quantitative" && x["bin"] === undefined && (y === undefined || y["type"] === "nominal" || y["type"] === "ordinal");
};

/**
 * The interactive version of a chart's vega-lite spec, for a page that draws it live: every
 * mark shows a tooltip of its encoded fields on hover, and a chart whose x axis is continuous
 * (time or a number) pans with a drag and zooms with the wheel (a scale-bound interval, double-click
 * resets), where the scale allows it: not a chart whose x is a bar's length (a horizontal bar
 * chart), where zooming clips the bars. In a layered chart the zoom sits on the first layer with
 * such an x, and its scales are shared by the others. Concatenated charts, and charts that
 * already define params, get tooltips only. The input is not modified.
 * @see https://vega.github.io/vega-lite/docs/bind.html#scale-binding
 * @example interactiveSpec(equitySpec(input)).params // [{ name: "zoom", select: "interval", bind: "scales" }]
 */
export function interactiveSpec(spec: VegaLiteSpec): VegaLiteSpec {
  const s = spec as unknown as Json;
  const config = (s["config"] as Json | undefined) ?? {};
  const out: Json = { ...s, config: { ...config, mark: { ...((config["mark"] as Json | undefined) ?? {}), tooltip: true } } };
  if (s["params"] !== undefined) return out as unknown as VegaLiteSpec;
  const shared = s["encoding"] as Json | undefined;
  if (barLengthOnX(s, undefined) || (Array.isArray(s["layer"]) && (s["layer"] as Json[]).some((l) => barLengthOnX(l, shared)))) return out as unknown as VegaLiteSpec;
  const zoom = [{ name: "zoom", select: { type: "interval", encodings: ["x"] }, bind: "scales" }];
  if (s["mark"] !== undefined && continuous(s["encoding"])) out["params"] = zoom;
  else if (Array.isArray(s["layer"])) {
    const layers = s["layer"] as Json[];
    const k = layers.findIndex((l) => l["mark"] !== undefined && l["params"] === undefined && (continuous(l["encoding"]) || (continuous(s["encoding"]) && (l["encoding"] as Json | undefined)?.["x"] === undefined)));
    if (k >= 0) out["layer"] = layers.map((l, i) => (i === k ? { ...l, params: zoom } : l));
  }
  return out as unknown as VegaLiteSpec;
}
