import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { CHART_CONFIG, COLORS } from "./chartTheme.js";
import { renderSvg, type VegaLiteSpec } from "./renderSvg.js";

/** Input of {@link barChart}: one bar per category (per category and group when groups are given). */
export interface BarChartInput {
  readonly category: readonly string[];
  readonly value: ArrayLike<number>;
  /** Optional second key (e.g. the coin): bars are then grouped by category and coloured by group. */
  readonly group?: readonly string[];
}

/** Options of {@link barChart}. */
export interface BarChartOptions {
  readonly title?: string;
  /** Value-axis title ["value"]. */
  readonly valueTitle?: string;
  /** d3-format of the values, e.g. ".1%" or ".3f" [".3~f"]. */
  readonly format?: string;
  /** Bars along the y axis (category labels readable when long) [false]. */
  readonly horizontal?: boolean;
  /** Colour single-series bars green when >= 0, red when < 0 [true]. */
  readonly signed?: boolean;
  /** Print each bar's value next to it [true for up to two groups]. */
  readonly labels?: boolean;
  readonly width?: number;
  readonly height?: number;
}

/**
 * vega-lite spec of a bar chart over categories (kept in the given order),
 * optionally grouped. NaN values are drawn as missing bars.
 * @throws InvalidArgumentError when the arrays differ in length
 */
export function barSpec(input: BarChartInput, options: BarChartOptions = {}): VegaLiteSpec {
  const n = input.category.length;
  if (input.value.length !== n || (input.group !== undefined && input.group.length !== n)) {
    throw new InvalidArgumentError(
      "value",
      `barChart: category, value${input.group !== undefined ? " and group" : ""} must have the same length, got ${n}, ${input.value.length}${input.group !== undefined ? `, ${input.group.length}` : ""}`,
    );
  }
  const rows = input.category.map((c, i) => {
    const v = input.value[i] as number;
    return { c, v: Number.isFinite(v) ? v : null, g: input.group?.[i] ?? "", sign: v < 0 ? "neg" : "pos" };
  });
  const order = [...new Set(input.category)];
  const grouped = input.group !== undefined;
  const horizontal = options.horizontal === true;
  const fmt = options.format ?? ".3~f";
  const cat = { field: "c", type: "nominal" as const, sort: order, title: null, axis: { labelAngle: 0, labelLimit: 180 } };
  const val = { field: "v", type: "quantitative" as const, title: options.valueTitle ?? "value", axis: { format: fmt } };
  const groupOrder = grouped ? [...new Set(input.group)] : [];
  const colour = grouped
    ? { color: { field: "g", type: "nominal" as const, sort: groupOrder, title: null } }
    : options.signed === false
      ? { color: { value: COLORS.accent } }
      : { color: { field: "sign", type: "nominal" as const, scale: { domain: ["pos", "neg"], range: [COLORS.up, COLORS.down] }, legend: null } };
  const offset = grouped ? (horizontal ? { yOffset: { field: "g", type: "nominal" as const, sort: groupOrder } } : { xOffset: { field: "g", type: "nominal" as const, sort: groupOrder } }) : {};
  const encoding = horizontal ? { y: cat, x: val, ...colour, ...offset } : { x: cat, y: val, ...colour, ...offset };
  const showLabels = options.labels ?? groupOrder.length <= 2;
  const step = Math.max(1, order.length * Math.max(1, groupOrder.length));
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    config: CHART_CONFIG,
    width: options.width ?? (horizontal ? 360 : Math.min(880, Math.max(240, step * (grouped ? 50 : 40)))),
    height: options.height ?? (horizontal ? Math.max(80, grouped ? order.length * (groupOrder.length * 11 + 12) : order.length * 24) : 200),
    ...(options.title !== undefined ? { title: options.title } : {}),
    data: { values: rows },
    layer: [
      { mark: { type: "bar", cornerRadiusEnd: 2 }, encoding },
      {
        mark: { type: "rule", color: "#adb5bd" },
        encoding: horizontal ? { x: { datum: 0, type: "quantitative" } } : { y: { datum: 0, type: "quantitative" } },
      },
      // Value labels: beyond the end of a positive bar; for a negative bar, on the other side of
      // the zero line (the end of a negative bar often sits on the axis labels).
      ...(showLabels
        ? (["pos", "neg"] as const).map((sign) => {
            const at = sign === "pos" ? val : { datum: 0, type: "quantitative" as const };
            return {
              transform: [{ filter: sign === "pos" ? "datum.v >= 0" : "datum.v < 0" }],
              mark: horizontal
                ? { type: "text" as const, align: "left" as const, dx: 4, fontSize: 10, color: "#495057" }
                : { type: "text" as const, baseline: "bottom" as const, dy: -2, fontSize: 10, color: "#495057" },
              encoding: { ...(horizontal ? { y: cat, x: at } : { x: cat, y: at }), ...offset, text: { field: "v", type: "quantitative" as const, format: fmt } },
            };
          })
        : []),
    ],
  };
}

/**
 * SVG bar chart over categories, e.g. mean return per regime or contribution per component.
 * @example
 * const svg = await barChart({ category: ["low", "normal", "high"], value: [0.002, 0.001, -0.003] }, { format: ".2%" });
 */
export async function barChart(input: BarChartInput, options: BarChartOptions = {}): Promise<string> {
  return renderSvg(barSpec(input, options));
}
