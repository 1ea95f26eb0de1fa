import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { compositeScore, type MissingPolicy } from "../signals/compositeScore.js";
import { DEFAULT_WEIGHTS, type Weights } from "../signals/weights.js";
import { informationCoefficient } from "./informationCoefficient.js";
import { metricsTable, type MetricsTable } from "./MetricsTable.js";

/** Options of `componentAttribution`. */
export interface ComponentAttributionOptions {
  /** Component weights (default the service's DEFAULT_WEIGHTS); only weighted components are used. */
  readonly weights?: Weights;
  /** Missing-score policy of the composite (compositeScore's; default "renormalise"). */
  readonly missing?: MissingPolicy;
  /** Bars per forward return, for the effective n of the intervals (default 1). */
  readonly horizon?: number;
}

/** Per-component attribution, plus the full composite's IC. */
export interface ComponentAttribution
  extends MetricsTable<{ component: readonly string[]; weight: Float64Array; ic: Float64Array; ciLow: Float64Array; ciHigh: Float64Array; icWithout: Float64Array; icDrop: Float64Array }> {
  /** Rank IC of the full composite against the forward returns. */
  readonly compositeIc: number;
}

/**
 * What each component contributes to the composite's predictive power. One
 * row per weighted component: `component`, `weight`, `ic` (the component's
 * own rank IC against the forward returns, with `ciLow` / `ciHigh`),
 * `icWithout` (the IC of the composite rebuilt without that component, the
 * other weights renormalised to sum to 1) and `icDrop = compositeIc - icWithout`
 * (positive: the composite is worse without it). Composites are computed bar
 * by bar with `compositeScore` (src/signals), the service's formula.
 * A component whose score is constant (e.g. gas at 0.3 while gas is cheap)
 * shifts the composite without reordering it: its icDrop is about 0.
 * @param scores score per component per bar, e.g. `replay.scores`
 * @param forward forward return per bar
 * @throws InvalidArgumentError when a weighted component has no scores or lengths differ
 * @example componentAttribution(replay.scores, fwd["1h"], { horizon: 60 }).columns.icDrop
 */
export function componentAttribution(
  scores: Readonly<Record<string, ArrayLike<number>>>,
  forward: ArrayLike<number>,
  options: ComponentAttributionOptions = {},
): ComponentAttribution {
  const weights: Weights = options.weights ?? DEFAULT_WEIGHTS;
  const missing = options.missing ?? "renormalise";
  const horizon = options.horizon ?? 1;
  if (scores === null || typeof scores !== "object") {
    throw new InvalidArgumentError("scores", `componentAttribution: scores must map component names to score arrays (e.g. replay.scores), got ${String(scores)}`);
  }
  const names = Object.keys(weights);
  const n = forward?.length;
  for (const name of names) {
    const s = scores[name];
    if (s === undefined) {
      throw new InvalidArgumentError("scores", `componentAttribution: no scores for the weighted component ${JSON.stringify(name)}; have ${Object.keys(scores).join(", ") || "none"}`);
    }
    if (s.length !== n) {
      throw new InvalidArgumentError("scores", `componentAttribution: scores.${name} must have one value per forward return (${n}), got ${s.length}`);
    }
  }
  if (names.length < 2) {
    throw new InvalidArgumentError("weights", `componentAttribution: needs at least 2 weighted components to drop one, got ${names.length}`);
  }
  const composite = (w: Weights): Float64Array => {
    const out = new Float64Array(n);
    const names = Object.keys(w);
    const row: Record<string, number> = {};
    for (let t = 0; t < n; t++) {
      for (const name of names) row[name] = (scores[name] as ArrayLike<number>)[t] as number;
      out[t] = compositeScore(row, { weights: w, missing });
    }
    return out;
  };
  const full = informationCoefficient(composite(weights), forward, { horizon }).ic;
  const own = names.map((name) => informationCoefficient(scores[name] as ArrayLike<number>, forward, { horizon }));
  const without = names.map((drop) => {
    const rest = names.filter((x) => x !== drop);
    const total = rest.reduce((a, x) => a + (weights[x] as number), 0);
    if (!(total > 0)) return Number.NaN;
    const w: Record<string, number> = {};
    for (const x of rest) w[x] = (weights[x] as number) / total;
    return informationCoefficient(composite(w), forward, { horizon }).ic;
  });
  const table = metricsTable({
    component: names,
    weight: Float64Array.from(names, (x) => weights[x] as number),
    ic: Float64Array.from(own, (r) => r.ic),
    ciLow: Float64Array.from(own, (r) => r.ciLow),
    ciHigh: Float64Array.from(own, (r) => r.ciHigh),
    icWithout: Float64Array.from(without),
    icDrop: Float64Array.from(without, (v) => full - v),
  });
  return { ...table, compositeIc: full };
}
