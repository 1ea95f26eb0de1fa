import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { CHART_CONFIG, COLORS } from "./chartTheme.js";
import { renderSvg, type VegaLiteSpec } from "./renderSvg.js";

/** Input of {@link icDecayChart}: information coefficient per forward horizon, one curve per signal or coin. */
export interface IcDecayInput {
  /** Forward horizons, in bars (or any unit named by `horizonTitle`). */
  readonly horizon: ArrayLike<number>;
  /** IC per horizon, one array per curve (same length as `horizon`). */
  readonly ic: Readonly<Record<string, ArrayLike<number>>>;
  /** Optional confidence interval per curve (same keys as `ic`), drawn as a shaded band. */
  readonly ciLow?: Readonly<Record<string, ArrayLike<number>>>;
  readonly ciHigh?: Readonly<Record<string, ArrayLike<number>>>;
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
 * forward returns at growing horizons, points joined by lines, zero marked,
 * with the confidence interval shaded when `ciLow` and `ciHigh` are given.
 * NaN ICs (too few pairs) are left out.
 * @throws InvalidArgumentError when an IC array's length differs from `horizon`'s
 */
export function icDecaySpec(input: IcDecayInput, options: IcDecayChartOptions = {}): VegaLiteSpec {
  const n = input.horizon.length;
  const rows: { h: number; v: number | null; s: string; lo?: number | null; hi?: number | null }[] = [];
  const finite = (v: number | undefined): number | null => (v !== undefined && Number.isFinite(v) ? v : null);
  let bands = false;
  for (const [name, ic] of Object.entries(input.ic)) {
    const lo = input.ciLow?.[name];
    const hi = input.ciHigh?.[name];
    for (const [what, a] of [["ic", ic], ["ciLow", lo], ["ciHigh", hi]] as const) {
      if (a !== undefined && a.length !== n) {
        throw new InvalidArgumentError(what, `icDecayChart: ${what} ${JSON.stringify(name)} has ${a.length} values but horizon has ${n}; pass one value per horizon`);
      }
    }
    if (lo !== undefined && hi !== undefined) bands = true;
    for (let i = 0; i < n; i++) {
      rows.push({
        h: input.horizon[i] as number,
        v: finite(ic[i]),
        s: name,
        ...(lo !== undefined && hi !== undefined ? { lo: finite(lo[i]), hi: finite(hi[i]) } : {}),
      });
    }
  }
  const names = Object.keys(input.ic);
  const hx = {
    field: "h",
    type: "quantitative" as const,
    title: options.horizonTitle ?? "horizon (bars)",
    scale: { type: "log" as const, nice: false },
    axis: { format: "~d", values: [...new Set(Array.from(input.horizon))] },
  };
  const colour = names.length > 1 ? { color: { field: "s", type: "nominal" as const, sort: names } } : { color: { value: COLORS.accent } };
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    config: CHART_CONFIG,
    width: options.width ?? 380,
    height: options.height ?? 200,
    ...(options.title !== undefined ? { title: options.title } : {}),
    data: { values: rows },
    layer: [
      { mark: { type: "rule", color: "#adb5bd" }, encoding: { y: { datum: 0, type: "quantitative" } } },
      ...(bands
        ? [
            {
              transform: [{ filter: "datum.lo != null && datum.hi != null" }],
              mark: { type: "area" as const, opacity: 0.15 },
              encoding: { x: hx, y: { field: "lo", type: "quantitative" as const }, y2: { field: "hi" }, ...colour },
            },
          ]
        : []),
      {
        mark: { type: "line", point: { filled: true, size: 30 } },
        encoding: {
          x: hx,
          y: { field: "v", type: "quantitative", title: options.icTitle ?? "IC (Spearman)", axis: { format: ".2f" } },
          ...colour,
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
