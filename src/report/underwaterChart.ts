import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { CHART_CONFIG, CHART_WIDTH, COLORS } from "./chartTheme.js";
import { drawdownSpec } from "./drawdownChart.js";
import { renderSvg, type VegaLiteSpec } from "./renderSvg.js";

/** Input of {@link underwaterChart}: an equity curve and the drawdown episodes to shade (the columns of `topDrawdowns`). */
export interface UnderwaterInput {
  readonly time: ArrayLike<number>;
  readonly equity: ArrayLike<number>;
  readonly episodes: { readonly peak: ArrayLike<number>; readonly recovery: ArrayLike<number>; readonly depth: ArrayLike<number> };
}

/** Options of {@link underwaterChart}. */
export interface UnderwaterChartOptions {
  readonly title?: string;
  readonly width?: number;
  readonly height?: number;
}

/**
 * vega-lite spec of the underwater curve (drawdown from the running peak, as
 * {@link drawdownSpec}) with each listed episode shaded from its peak to its
 * recovery (to the last bar when unrecovered) and numbered by depth rank.
 * @throws InvalidArgumentError when the arrays differ in length
 */
export function underwaterSpec(input: UnderwaterInput, options: UnderwaterChartOptions = {}): VegaLiteSpec {
  const e = input.episodes;
  if (e.recovery.length !== e.peak.length || e.depth.length !== e.peak.length) {
    throw new InvalidArgumentError("episodes", "underwaterChart: episodes peak, recovery and depth must have the same length (pass topDrawdowns(...).columns)");
  }
  const last = input.time.length > 0 ? (input.time[input.time.length - 1] as number) : 0;
  const shades = Array.from(e.peak, (p, k) => {
    const r = e.recovery[k] as number;
    return { a: p, b: Number.isFinite(r) ? r : last, k: String(k + 1) };
  });
  const base = drawdownSpec({ time: input.time, series: { drawdown: input.equity } }) as { data: unknown; mark: unknown; encoding: unknown };
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    config: CHART_CONFIG,
    width: options.width ?? CHART_WIDTH,
    height: options.height ?? 160,
    ...(options.title !== undefined ? { title: options.title } : {}),
    layer: [
      {
        data: { values: shades },
        mark: { type: "rect", color: COLORS.down, opacity: 0.1 },
        encoding: { x: { field: "a", type: "temporal", scale: { type: "utc" } }, x2: { field: "b" } },
      },
      { data: base.data, mark: base.mark, encoding: base.encoding } as never,
      // the episode numbers last: drawn over the drawdown area, not under it
      {
        data: { values: shades },
        mark: { type: "text", baseline: "top", dy: 2, dx: 3, align: "left", fontSize: 10, color: COLORS.down },
        encoding: { x: { field: "a", type: "temporal", scale: { type: "utc" } }, y: { value: 0 }, text: { field: "k" } },
      },
    ],
  };
}

/**
 * SVG underwater chart with the top drawdown episodes shaded.
 * @example
 * const svg = await underwaterChart({ time, equity, episodes: topDrawdowns(returns, { time }).columns as never });
 */
export async function underwaterChart(input: UnderwaterInput, options: UnderwaterChartOptions = {}): Promise<string> {
  return renderSvg(underwaterSpec(input, options));
}
