import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { CHART_CONFIG, COLORS } from "./chartTheme.js";
import { renderSvg, type VegaLiteSpec } from "./renderSvg.js";

/** Input of {@link icDecayChart}: information coefficient per forward horizon, one curve per signal or coin. */
export interface IcDecayInput {
  /** Forward horizons, in bars (or any unit named by `horizonTitle`). */
  readonly horizon: ArrayLike<number>;
  /** IC per horizon, one array per curve (same length as `horizon`). */
  readonly ic: Readonly<Record<string, ArrayLike<number>>>;
}

/** Options of {@link icDecayChart}. */
export interface IcDecayChartOptions {
  readonly title?: string;
  /** x-axis title ["horizon (bars)"]. */
  readonly horizonTitle?: string;
  /** y-axis title ["IC (Spearman)"]. */
  readonly icTitle?: string;
  readonly width?: number;
  readonly height?: number;
}

/**
 * vega-lite spec of IC decay: the information coefficient of a signal with
 * forward returns at growing horizons, points joined by lines, zero marked.
 * NaN ICs (too few pairs) are left out.
 * @throws InvalidArgumentError when an IC array's length differs from `horizon`'s
 */
export function icDecaySpec(input: IcDecayInput, options: IcDecayChartOptions = {}): VegaLiteSpec {
  const n = input.horizon.length;
  const rows: { h: number; v: number | null; s: string }[] = [];
  for (const [name, ic] of Object.entries(input.ic)) {
    if (ic.length !== n) {
      throw new InvalidArgumentError("ic", `icDecayChart: ic ${JSON.stringify(name)} has ${ic.length} values but horizon has ${n}; pass one IC per horizon`);
    }
    for (let i = 0; i < n; i++) {
      const v = ic[i] as number;
      rows.push({ h: input.horizon[i] as number, v: Number.isFinite(v) ? v : null, s: name });
    }
  }
  const names = Object.keys(input.ic);
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    config: CHART_CONFIG,
    width: options.width ?? 380,
    height: options.height ?? 200,
    ...(options.title !== undefined ? { title: options.title } : {}),
    data: { values: rows },
    layer: [
      { mark: { type: "rule", color: "#adb5bd" }, encoding: { y: { datum: 0, type: "quantitative" } } },
      {
        mark: { type: "line", point: { filled: true, size: 30 } },
        encoding: {
          x: { field: "h", type: "quantitative", title: options.horizonTitle ?? "horizon (bars)", scale: { type: "log", nice: false }, axis: { format: "~d", values: [...new Set(Array.from(input.horizon))] } },
          y: { field: "v", type: "quantitative", title: options.icTitle ?? "IC (Spearman)", axis: { format: ".2f" } },
          color: names.length > 1 ? { field: "s", type: "nominal", sort: names } : { value: COLORS.accent },
        },
      },
    ],
  };
}

/**
 * SVG chart of IC decay across forward horizons (log-scaled horizon axis).
 * @example
 * const svg = await icDecayChart({ horizon: [1, 4, 12, 48], ic: { composite: [0.05, 0.04, 0.02, 0.01] } });
 */
export async function icDecayChart(input: IcDecayInput, options: IcDecayChartOptions = {}): Promise<string> {
  return renderSvg(icDecaySpec(input, options));
}
