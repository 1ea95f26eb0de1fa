import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { readColumns, type ColumnInput } from "./readColumns.js";
import { DEFAULT_SCORERS, EXTRA_SCORERS, type Scorer } from "./scorers.js";
import { simplexLeastSquares } from "./simplexLeastSquares.js";
import { COMPONENT_NAMES } from "./weights.js";

/** Options of {@link inferWeights} and {@link inferWeightsRolling}. */
export interface InferWeightsOptions {
  /** Components to fit; default the five service components. At most 16. */
  readonly components?: readonly string[];
  /** Scorers for components the recording gives only as `<c>_value` (merged over DEFAULT_SCORERS). */
  readonly scorers?: Readonly<Record<string, Scorer>>;
}

/** One fit of the composite on the component scores. */
export interface InferredWeights {
  /** Non-negative weights summing to 1, by component (NaN when nothing could be fitted). */
  readonly weights: Readonly<Record<string, number>>;
  /** Rows used: those where the composite and every component score are numbers. */
  readonly rows: number;
  /** First and last row of the fitted span (input row numbers). */
  readonly firstRow: number;
  readonly lastRow: number;
  /** Time of the first and last row of the span when the recording has `time` (else NaN). */
  readonly start: number;
  readonly end: number;
  /** Root mean square of composite - Σ w·score over the rows used (composite units). */
  readonly rmse: number;
  /** Largest |residual|: about 1e-15 when the service's composite is exactly such a weighting. */
  readonly maxAbsResidual: number;
  /** 1 - SSE / total sum of squares of the composite around its mean (NaN for a constant composite). */
  readonly r2: number;
}

interface Design {
  readonly names: readonly string[];
  readonly x: Float64Array[];
  readonly y: Float64Array;
  readonly time: Float64Array | undefined;
  readonly n: number;
}

function design(recording: ColumnInput, options: InferWeightsOptions, where: string): Design {
  const names = options.components ?? COMPONENT_NAMES;
  if (names.length < 1 || names.length > 16) {
    throw new InvalidArgumentError("components", `${where}: components must name 1 to 16 components, got ${names.length}`);
  }
  const { length: n, time, columns } = readColumns(recording, where, { ascending: false });
  const y = columns.get("composite_score") ?? columns.get("composite");
  if (y === undefined) {
    throw new InvalidArgumentError(
      "recording",
      `${where}: recording needs the published composite as a composite_score (or composite) column; columns are ${[...columns.keys()].join(", ") || "(none)"}`,
    );
  }
  const scorers: Readonly<Record<string, Scorer>> = { ...DEFAULT_SCORERS, ...EXTRA_SCORERS, ...(options.scorers ?? {}) };
  const x = names.map((name) => {
    const s = columns.get(`${name}_score`);
    if (s !== undefined) return s;
    const v = columns.get(`${name}_value`) ?? columns.get(name);
    const f = scorers[name];
    if (v === undefined || f === undefined) {
      throw new InvalidArgumentError(
        "recording",
        `${where}: recording has no ${name}_score column${v === undefined ? ` nor a ${name}_value or ${name} column` : ` and ${name} has no scorer`}; pass components to fit fewer`,
      );
    }
    return Float64Array.from(v, (q) => (q !== q ? Number.NaN : f(q)));
  });
  return { names, x, y, time, n };
}

function fit(d: Design, from: number, to: number): InferredWeights {
  const k = d.names.length;
  const G = new Float64Array(k * k);
  const b = new Float64Array(k);
  const row = new Float64Array(k);
  let rows = 0;
  let sumY = 0;
  let sumYY = 0;
  for (let i = from; i < to; i++) {
    const yi = d.y[i] as number;
    if (yi !== yi) continue;
    let ok = true;
    for (let j = 0; j < k; j++) {
      const v = (d.x[j] as Float64Array)[i] as number;
      if (v !== v) {
        ok = false;
        break;
      }
      row[j] = v;
    }
    if (!ok) continue;
    rows++;
    sumY += yi;
    sumYY += yi * yi;
    for (let p = 0; p < k; p++) {
      const rp = row[p] as number;
      b[p] = (b[p] as number) + rp * yi;
      for (let q = p; q < k; q++) G[p * k + q] = (G[p * k + q] as number) + rp * (row[q] as number);
    }
  }
  for (let p = 0; p < k; p++) for (let q = 0; q < p; q++) G[p * k + q] = G[q * k + p] as number;
  const w = rows > 0 ? simplexLeastSquares(G, b, k) : new Float64Array(k).fill(Number.NaN);
  let sse = 0;
  let maxAbs = 0;
  for (let i = from; i < to && rows > 0; i++) {
    const yi = d.y[i] as number;
    if (yi !== yi) continue;
    let pred = 0;
    let ok = true;
    for (let j = 0; j < k; j++) {
      const v = (d.x[j] as Float64Array)[i] as number;
      if (v !== v) {
        ok = false;
        break;
      }
      pred += (w[j] as number) * v;
    }
    if (!ok) continue;
    const r = yi - pred;
    sse += r * r;
    maxAbs = Math.max(maxAbs, Math.abs(r));
  }
  const sst = sumYY - (rows > 0 ? (sumY * sumY) / rows : 0);
  const weights: Record<string, number> = {};
  d.names.forEach((name, j) => (weights[name] = w[j] as number));
  return {
    weights,
    rows,
    firstRow: from,
    lastRow: to - 1,
    start: d.time !== undefined && to > from ? (d.time[from] as number) : Number.NaN,
    end: d.time !== undefined && to > from ? (d.time[to - 1] as number) : Number.NaN,
    rmse: rows > 0 ? Math.sqrt(sse / rows) : Number.NaN,
    maxAbsResidual: rows > 0 ? maxAbs : Number.NaN,
    r2: rows > 0 && sst > 1e-300 ? 1 - sse / sst : Number.NaN,
  };
}

/**
 * Infer the weights the service used from a recording of its composites: the
 * least-squares fit of the published composite on the published component
 * scores, with weights non-negative and summing to 1 (the model of docs/DESIGN.md).
 * Solved exactly (every support's KKT system; see the code), so a recording made
 * with weights w gives back w to about 1e-12 when the scores span the space.
 * Rows where the composite or any component score is NaN are left out (the
 * service renormalises those, which is not a fixed weighting).
 *
 * The recording holds `<component>_score` (or `<component>_value` / `<component>`, scored with
 * the default scorers) and `composite_score` (or `composite`) columns, e.g. the
 * analytics `dataset=composite` query. Use {@link inferWeightsRolling} to see
 * when the weights changed.
 * @throws InvalidArgumentError when a column is missing or components are not 1..16
 * @example inferWeights(recording).weights // { imbalance: 0.3, funding: 0.25, basis_spread: 0.2, momentum_5m: 0.15, gas: 0.1 }
 */
export function inferWeights(recording: ColumnInput, options: InferWeightsOptions = {}): InferredWeights {
  const d = design(recording, options, "inferWeights");
  return fit(d, 0, d.n);
}

/**
 * {@link inferWeights} over consecutive windows of `window` rows, every `step`
 * rows (default: `window`, i.e. non-overlapping), so a weight change in the
 * service shows as a jump between windows. Each fit uses rows of its window only;
 * a last partial window shorter than `window` is left out.
 * @throws InvalidArgumentError when window or step is not a positive integer
 * @example inferWeightsRolling(recording, { window: 1440 }).map((f) => f.weights.imbalance) // one per day
 */
export function inferWeightsRolling(
  recording: ColumnInput,
  options: InferWeightsOptions & { readonly window: number; readonly step?: number },
): InferredWeights[] {
  const where = "inferWeightsRolling";
  const { window } = options;
  const step = options.step ?? window;
  if (!Number.isInteger(window) || window < 1) {
    throw new InvalidArgumentError("window", `${where}: window must be a positive integer number of rows, got ${window}`);
  }
  if (!Number.isInteger(step) || step < 1) {
    throw new InvalidArgumentError("step", `${where}: step must be a positive integer number of rows, got ${step}`);
  }
  const d = design(recording, options, where);
  const out: InferredWeights[] = [];
  for (let from = 0; from + window <= d.n; from += step) out.push(fit(d, from, from + window));
  return out;
}
