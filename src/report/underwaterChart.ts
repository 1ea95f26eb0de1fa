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

/** Width kept free after an episode number's x (dx 3 + two digits at fontSize 10 + a gap), and the height of a label line, px. */
const LABEL_PX = 18;
const LANE_PX = 12;

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
  // Episode numbers close together in time (a label is ~12 px wide at fontSize 10) go one line
  // lower each, so "1" and "2" a few bars apart do not print over each other.
  const first = input.time.length > 0 ? (input.time[0] as number) : 0;
  const width = options.width ?? CHART_WIDTH;
  const pxPerMs = last > first ? width / (last - first) : 0;
  const laneEnds: number[] = [];
  const labels = [...shades]
    .sort((u, v) => u.a - v.a)
    .map((s) => {
      const x = (s.a - first) * pxPerMs;
      let lane = laneEnds.findIndex((end) => end <= x);
      if (lane < 0) lane = laneEnds.length;
      laneEnds[lane] = x + LABEL_PX;
      return { ...s, y: 2 + lane * LANE_PX };
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
        data: { values: labels },
        mark: { type: "text", baseline: "top", dx: 3, align: "left", fontSize: 10, color: COLORS.down },
        // y in pixels from the top (scale null): its line, below the ones of earlier labels nearby
        encoding: { x: { field: "a", type: "temporal", scale: { type: "utc" } }, y: { field: "y", type: "quantitative", scale: null }, text: { field: "k" } },
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
