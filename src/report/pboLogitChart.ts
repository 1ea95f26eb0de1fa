import { CHART_CONFIG, COLORS } from "./chartTheme.js";
import { renderSvg, type VegaLiteSpec } from "./renderSvg.js";

/** Options of {@link pboLogitChart}. */
export interface PboLogitChartOptions {
  readonly title?: string;
  /** The PBO itself (probabilityOfBacktestOverfitting's `pbo`), shown in the default title. */
  readonly pbo?: number;
  /** Bins of the histogram [30]. */
  readonly bins?: number;
  readonly width?: number;
  readonly height?: number;
}

/**
 * vega-lite spec of the probability of backtest overfitting's logit histogram (Bailey,
 * Borwein, López de Prado & Zhu 2015, fig. 5): one logit λ = ln(ω / (1 - ω)) per CSCV
 * split, ω the out-of-sample relative rank of the in-sample winner. Logits <= 0 (the
 * winner ranked at or below the out-of-sample median: the PBO is their share) are red,
 * the others green; the zero line is marked. Non-finite logits are left out.
 * @example const p = probabilityOfBacktestOverfitting(returnsPerVariant, { splits: 16 }); pboLogitSpec(p.logits, { pbo: p.pbo })
 */
export function pboLogitSpec(logits: ArrayLike<number>, options: PboLogitChartOptions = {}): VegaLiteSpec {
  const rows: { v: number; side: string }[] = [];
  for (let i = 0; i < logits.length; i++) {
    const v = logits[i] as number;
    if (Number.isFinite(v)) rows.push({ v, side: v <= 0 ? "overfit" : "holds" });
  }
  const pbo = options.pbo;
  const title = options.title ?? `Logits of ${rows.length} CSCV splits${pbo !== undefined && Number.isFinite(pbo) ? `: PBO ${(pbo * 100).toFixed(0)}%` : ""}`;
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    config: CHART_CONFIG,
    width: options.width ?? 420,
    height: options.height ?? 200,
    title,
    data: { values: rows },
    layer: [
      {
        mark: { type: "bar", binSpacing: 1 },
        encoding: {
          x: { field: "v", type: "quantitative", bin: { maxbins: options.bins ?? 30 }, title: "logit of the in-sample winner's out-of-sample rank" },
          y: { aggregate: "count", type: "quantitative", title: "splits" },
          color: { field: "side", type: "nominal", scale: { domain: ["overfit", "holds"], range: [COLORS.down, COLORS.up] }, title: null },
        },
      },
      // one rule at 0 (its own one-row data: with the layer's data it would draw one per split)
      { data: { values: [{}] }, mark: { type: "rule", color: COLORS.ink, strokeDash: [4, 3] }, encoding: { x: { datum: 0, type: "quantitative" } } },
    ],
  };
}

/**
 * SVG histogram of the PBO logits.
 * @example const svg = await pboLogitChart(p.logits, { pbo: p.pbo });
 */
export async function pboLogitChart(logits: ArrayLike<number>, options: PboLogitChartOptions = {}): Promise<string> {
  return renderSvg(pboLogitSpec(logits, options));
}
