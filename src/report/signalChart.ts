import type { Trade } from "../backtest/Trade.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { CHART_CONFIG, CHART_WIDTH, COLORS } from "./chartTheme.js";
import { renderSvg, type VegaLiteSpec } from "./renderSvg.js";
import { timeSeriesRows } from "./timeSeriesRows.js";

/** Input of {@link signalChart}. */
export interface SignalChartInput {
  /** Epoch ms (UTC). */
  readonly time: ArrayLike<number>;
  readonly price: ArrayLike<number>;
  /** The signal, e.g. the composite score in [-1, 1]. */
  readonly score: ArrayLike<number>;
  /** Trades to mark on the price: entries as triangles (up = long, down = short), exits as crosses. */
  readonly trades?: readonly Trade[];
  /** Buy / sell thresholds drawn on the score panel, e.g. `{ buy: 0.1, sell: -0.1 }`. */
  readonly thresholds?: { readonly buy: number; readonly sell: number };
}

/** Options of {@link signalChart}. */
export interface SignalChartOptions {
  readonly title?: string;
  /** Label of the price axis ["price"]. */
  readonly priceTitle?: string;
  /** Label of the score axis ["composite"]. */
  readonly scoreTitle?: string;
  readonly width?: number;
  /** Most trades marked (the latest are kept) [400]. */
  readonly maxTrades?: number;
  /** Points kept per line after min-max downsampling [1500]. */
  readonly maxPoints?: number;
}

/**
 * vega-lite spec of a signal over price: the price with trades marked on top,
 * the score with its buy/sell thresholds below, sharing the time axis.
 * @throws InvalidArgumentError when price or score length differs from `time`'s
 */
export function signalSpec(input: SignalChartInput, options: SignalChartOptions = {}): VegaLiteSpec {
  const n = input.time.length;
  if (input.score.length !== n) {
    throw new InvalidArgumentError("score", `signalChart: score has ${input.score.length} values but time has ${n}; pass arrays of the same length`);
  }
  const maxPoints = options.maxPoints ?? 1500;
  const price = timeSeriesRows("signalChart", { time: input.time, series: { price: input.price } }, maxPoints);
  const score = timeSeriesRows("signalChart", { time: input.time, series: { score: input.score } }, maxPoints);
  const trades = (input.trades ?? []).slice(-(options.maxTrades ?? 400));
  const marks = trades.flatMap((t) => [
    { t: t.entryTime, v: t.entryPrice, kind: t.side === "long" ? "long entry" : "short entry" },
    ...(t.open ? [] : [{ t: t.exitTime, v: t.exitPrice, kind: "exit" }]),
  ]);
  const width = options.width ?? CHART_WIDTH;
  const x = { field: "t", type: "temporal" as const, scale: { type: "utc" as const }, title: null };
  const thresholds = input.thresholds;
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    config: CHART_CONFIG,
    ...(options.title !== undefined ? { title: options.title } : {}),
    spacing: 6,
    vconcat: [
      {
        width,
        height: 220,
        layer: [
          {
            data: { values: price },
            mark: { type: "line", color: COLORS.ink, strokeWidth: 1.1 },
            encoding: { x: { ...x, axis: { labels: false, ticks: false } }, y: { field: "v", type: "quantitative", title: options.priceTitle ?? "price", scale: { zero: false } } },
          },
          ...(marks.length > 0
            ? [
                {
                  data: { values: marks },
                  mark: { type: "point" as const, filled: true, size: 46, opacity: 0.9 },
                  encoding: {
                    x,
                    y: { field: "v", type: "quantitative" as const },
                    shape: {
                      field: "kind",
                      type: "nominal" as const,
                      scale: { domain: ["long entry", "short entry", "exit"], range: ["triangle-up", "triangle-down", "cross"] },
                      title: null,
                    },
                    color: {
                      field: "kind",
                      type: "nominal" as const,
                      scale: { domain: ["long entry", "short entry", "exit"], range: [COLORS.up, COLORS.down, COLORS.neutral] },
                      title: null,
                    },
                  },
                },
              ]
            : []),
        ],
      },
      {
        width,
        height: 110,
        layer: [
          ...(thresholds !== undefined
            ? [
                {
                  data: { values: [{ buy: thresholds.buy, sell: thresholds.sell }] },
                  layer: [
                    { mark: { type: "rule" as const, color: COLORS.up, strokeDash: [4, 3] }, encoding: { y: { field: "buy", type: "quantitative" as const } } },
                    { mark: { type: "rule" as const, color: COLORS.down, strokeDash: [4, 3] }, encoding: { y: { field: "sell", type: "quantitative" as const } } },
                  ],
                },
              ]
            : []),
          {
            data: { values: score },
            mark: { type: "area", line: { color: COLORS.accent, strokeWidth: 1 }, color: COLORS.accent, opacity: 0.25 },
            encoding: { x, y: { field: "v", type: "quantitative", title: options.scoreTitle ?? "composite" } },
          },
        ],
      },
    ],
  };
}

/**
 * SVG chart of a signal over price with the trades it made.
 * @example
 * const svg = await signalChart({ time, price: close, score: replay.composite, trades: result.trades, thresholds: { buy: 0.1, sell: -0.1 } });
 */
export async function signalChart(input: SignalChartInput, options: SignalChartOptions = {}): Promise<string> {
  return renderSvg(signalSpec(input, options));
}
