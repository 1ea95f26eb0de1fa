import { toDataFrame } from "../data/toDataFrame.js";
import type { DataFrame } from "../data/danfo.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { readColumns, rawColumn, type ColumnInput } from "./readColumns.js";
import { replayComposite, type CompositeReplay, type ReplayCompositeOptions } from "./replayComposite.js";
import { DEFAULT_WEIGHTS } from "./weights.js";

/** Options of {@link checkConformance}: the model to replay, and the tolerance. */
export interface ConformanceOptions extends Omit<ReplayCompositeOptions, "from" | "feeds"> {
  /** Largest |replay - published| that still counts as a match (composite and scores). Default 1e-9. */
  readonly tolerance?: number;
}

/** Distance of the replay from what the service published, for one series. */
export interface ConformanceStats {
  /** Rows where both the replay and the published value are numbers. */
  readonly compared: number;
  /** Rows where exactly one of them is NaN/missing. */
  readonly missingMismatch: number;
  readonly maxAbsDiff: number;
  readonly meanAbsDiff: number;
  readonly rmse: number;
  /** Share of compared rows within the tolerance (NaN when none compared). */
  readonly withinTolerance: number;
  /** Row of the largest |diff| (-1 when none compared). */
  readonly worstRow: number;
}

/** Summary of a conformance check. */
export interface ConformanceSummary {
  readonly rows: number;
  readonly tolerance: number;
  readonly composite: ConformanceStats;
  /** Per component score (only components the recording publishes a score for). */
  readonly scores: Readonly<Record<string, ConformanceStats>>;
  /**
   * Replayed vs published confidence, when the recording has a `confidence` column.
   * Informational only (not part of `conforms`): the live service does not publish
   * its confidence formula; this library's replay server uses the replayed one.
   */
  readonly confidence: ConformanceStats | undefined;
  /** Share of rows whose replayed label equals the published one (NaN without a published label). */
  readonly labelAgreement: number;
  /** Rows whose labels differ. */
  readonly labelMismatches: number;
  /** True when every compared composite and score is within tolerance, no NaN mismatch, and labels agree. */
  readonly conforms: boolean;
}

/** Per-row and summary conformance of a replay with a recording. */
export interface ConformanceReport {
  readonly summary: ConformanceSummary;
  /** The replay of the recording's component values. */
  readonly replay: CompositeReplay;
  /** Published composite per row (NaN where missing). */
  readonly published: Float64Array;
  /** replay - published, per row (NaN where either is missing). */
  readonly compositeDiff: Float64Array;
  /** replay - published score, per component and row. */
  readonly scoreDiff: Readonly<Record<string, Float64Array>>;
  /** Published label per row: 1 buy, -1 sell, 0 neutral, -128 unknown/absent. */
  readonly publishedLabel: Int8Array;
  /** time, composite, published, diff, `<c>_diff`, label, published_label. */
  toDataFrame(): DataFrame;
}

const LABEL_CODES: Record<string, number> = { buy: 1, sell: -1, neutral: 0, strong_buy: 1, strong_sell: -1 };

function stats(diff: Float64Array, a: Float64Array, b: Float64Array, tol: number): ConformanceStats {
  let compared = 0;
  let missingMismatch = 0;
  let maxAbs = 0;
  let sumAbs = 0;
  let sumSq = 0;
  let within = 0;
  let worstRow = -1;
  for (let i = 0; i < diff.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    const xn = x !== x;
    const yn = y !== y;
    if (xn || yn) {
      if (xn !== yn) missingMismatch++;
      diff[i] = Number.NaN;
      continue;
    }
    const d = x - y;
    diff[i] = d;
    const ad = Math.abs(d);
    compared++;
    sumAbs += ad;
    sumSq += d * d;
    if (ad <= tol) within++;
    if (worstRow < 0 || ad > maxAbs) {
      maxAbs = ad;
      worstRow = i;
    }
  }
  return {
    compared,
    missingMismatch,
    maxAbsDiff: compared > 0 ? maxAbs : Number.NaN,
    meanAbsDiff: compared > 0 ? sumAbs / compared : Number.NaN,
    rmse: compared > 0 ? Math.sqrt(sumSq / compared) : Number.NaN,
    withinTolerance: compared > 0 ? within / compared : Number.NaN,
    worstRow,
  };
}

/**
 * How far a replay is from what the service published. The recording holds, per
 * row, each component's published value and score as `<component>_value` (or the
 * bare `<component>`, as src/load's composite tables name it) and `<component>_score`, the published composite as `composite_score` (or
 * `composite`), optionally the published label as `regime` (or `label`:
 * "buy"/"sell"/"neutral" or 1/-1/0) and `time`: the columns of the analytics
 * `dataset=composite` query, or of a recorder's composite table. The component
 * values are replayed with the given model (default: the service's) and
 * compared with the published composite, scores and labels, row by row.
 *
 * A model mismatch shows as a growing composite diff; a scorer mismatch as a
 * score diff on one component; a service weight change as a composite diff with
 * matching scores (then see {@link inferWeights}).
 * @throws InvalidArgumentError when the recording lacks the published composite or
 *   a weighted component's `_value` column, or on a bad tolerance
 * @example
 * const rec = await client.analyticsQuery({ dataset: "composite", coin: "BTC" });
 * checkConformance(Object.fromEntries(rec.columns.map((c, j) => [c, rec.rows.map((r) => r[j])]))).summary.conforms // true
 */
export function checkConformance(recording: ColumnInput, options: ConformanceOptions = {}): ConformanceReport {
  const where = "checkConformance";
  const tol = options.tolerance ?? 1e-9;
  if (!(tol >= 0) || !Number.isFinite(tol)) {
    throw new InvalidArgumentError("tolerance", `${where}: tolerance must be a finite number >= 0, got ${tol}`);
  }
  const { length: n, time, columns } = readColumns(recording, where, { ascending: false });
  const published = columns.get("composite_score") ?? columns.get("composite");
  if (published === undefined) {
    throw new InvalidArgumentError(
      "recording",
      `${where}: recording needs the published composite as a composite_score (or composite) column; columns are ${[...columns.keys()].join(", ") || "(none)"}`,
    );
  }
  const weights = options.weights ?? DEFAULT_WEIGHTS;
  const names = Object.keys(weights);
  const input: Record<string, Float64Array> = {};
  if (time !== undefined) input["time"] = time;
  for (const name of names) {
    const v = columns.get(`${name}_value`) ?? columns.get(name);
    if (v === undefined) {
      throw new InvalidArgumentError(
        "recording",
        `${where}: recording has no ${name}_value (or ${name}) column for weighted component ${name}`,
      );
    }
    input[name] = v;
  }
  const { tolerance: _t, ...replayOptions } = options;
  const replay = replayComposite(input, replayOptions);

  const compositeDiff = new Float64Array(n);
  const composite = stats(compositeDiff, replay.composite, published, tol);
  const scoreDiff: Record<string, Float64Array> = {};
  const scores: Record<string, ConformanceStats> = {};
  for (const name of names) {
    const p = columns.get(`${name}_score`);
    if (p === undefined) continue;
    const d = new Float64Array(n);
    scores[name] = stats(d, replay.scores[name] as Float64Array, p, tol);
    scoreDiff[name] = d;
  }

  const publishedConfidence = columns.get("confidence");
  const confidence =
    publishedConfidence === undefined ? undefined : stats(new Float64Array(n), replay.confidence, publishedConfidence, tol);

  const rawLabel = rawColumn(recording, "regime") ?? rawColumn(recording, "label");
  const publishedLabel = new Int8Array(n).fill(-128);
  let labelled = 0;
  let labelMismatches = 0;
  if (rawLabel !== undefined) {
    for (let i = 0; i < n; i++) {
      const v = rawLabel[i];
      const code = typeof v === "string" ? LABEL_CODES[v.toLowerCase()] : typeof v === "number" && (v === 1 || v === 0 || v === -1) ? v : undefined;
      if (code === undefined) continue;
      publishedLabel[i] = code;
      labelled++;
      if (code !== replay.label[i]) labelMismatches++;
    }
  }
  const all = [composite, ...Object.values(scores)];
  const conforms =
    all.every((s) => s.missingMismatch === 0 && (s.compared === 0 || s.maxAbsDiff <= tol)) && composite.compared > 0 && labelMismatches === 0;
  const summary: ConformanceSummary = {
    rows: n,
    tolerance: tol,
    composite,
    scores,
    confidence,
    labelAgreement: labelled > 0 ? (labelled - labelMismatches) / labelled : Number.NaN,
    labelMismatches,
    conforms,
  };
  return {
    summary,
    replay,
    published,
    compositeDiff,
    scoreDiff,
    publishedLabel,
    toDataFrame(): DataFrame {
      const cols: Record<string, ArrayLike<number>> = {};
      if (time !== undefined) cols["time"] = time;
      cols["composite"] = replay.composite;
      cols["published"] = published;
      cols["diff"] = compositeDiff;
      for (const [name, d] of Object.entries(scoreDiff)) cols[`${name}_diff`] = d;
      cols["label"] = replay.label;
      cols["published_label"] = Float64Array.from(publishedLabel, (c) => (c === -128 ? Number.NaN : c));
      return toDataFrame(cols);
    },
  };
}
