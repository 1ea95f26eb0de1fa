import { toDataFrame } from "../data/toDataFrame.js";
import type { DataFrame } from "../data/danfo.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { labelCode, labelName, strengthCode, validateThresholds } from "./classifySignal.js";
import { MISSING_POLICIES, policyCode, type MissingPolicy } from "./compositeScore.js";
import { componentsFromFeeds, type ComponentsFromFeedsOptions } from "./componentsFromFeeds.js";
import { readColumns, type ColumnInput } from "./readColumns.js";
import { checkReplayInto, type ReplayInto } from "./replayInto.js";
import { compositeRowAt, fuseComposite, fuseLabels, fusedModel, scoreColumns, type FusedModel } from "./fuseComposite.js";
import { confidenceAt } from "./signalConfidence.js";
import { DEFAULT_SCORERS, EXTRA_SCORERS, type Scorer } from "./scorers.js";
import { DEFAULT_WEIGHTS, validateWeights, type Weights } from "./weights.js";

/** Options of {@link replayComposite}. Every one has a default: the service's model (docs/DESIGN.md). */
export interface ReplayCompositeOptions {
  /** Weight per component; default DEFAULT_WEIGHTS. The components replayed are the keys, in this order. */
  readonly weights?: Weights;
  /** Accept weights that do not sum to 1 (still finite and non-negative). Default false. */
  readonly allowAnySum?: boolean;
  /**
   * Scorer overrides, merged over DEFAULT_SCORERS and EXTRA_SCORERS (`volatility`,
   * `correlation`); a weighted component with no scorer is an error. A scorer must be a pure
   * function of the value (see {@link Scorer}: it may be called more than once per row).
   */
  readonly scorers?: Readonly<Record<string, Scorer>>;
  /** Policy for a NaN score: "renormalise" (default), "zero" or "nan"; see {@link MissingPolicy}. */
  readonly missing?: MissingPolicy;
  /** |composite| below this is neutral. Default 0.1. */
  readonly threshold?: number;
  /** Optional strong band for `strength` (±2). Default none. */
  readonly strong?: number;
  /**
   * What the input columns hold: "values" (default; raw component values, scored here),
   * "scores" (already scored in [-1, 1]; scorers unused), or "feeds" (raw feeds,
   * turned into values by {@link componentsFromFeeds} first).
   */
  readonly from?: "values" | "scores" | "feeds";
  /**
   * Input column of each component when it is not the component's name, e.g.
   * `componentMetricIds("BTC")` for a history panel named by metric id.
   */
  readonly columns?: Readonly<Partial<Record<string, string>>>;
  /** Options passed to componentsFromFeeds when `from` is "feeds". */
  readonly feeds?: ComponentsFromFeedsOptions;
  /**
   * Columns of yours to write `label`, `strength` (Int8Array) or `confidence` (Float64Array) into
   * instead of fresh ones, one value per row, e.g. `{ label: buf }`: the field is then that column
   * (`r.label === buf`), written when first read. A loop of replays at one length reuses its memory
   * (no page faults). You own it: the next replay given the same column overwrites it; copy what you
   * keep. See {@link ReplayInto}.
   */
  readonly into?: ReplayInto;
}

/** The composite replayed at every row. All arrays have the input's length. */
export interface CompositeReplay {
  readonly length: number;
  /** Epoch ms of each row when the input had a `time` column. */
  readonly time: Float64Array | undefined;
  /** Components replayed, in weight order. */
  readonly components: readonly string[];
  /** Component values used: the input's own arrays when they are Float64Array (do not mutate); empty when `from` is "scores". */
  readonly values: Readonly<Record<string, Float64Array>>;
  /** Score per component per row, in [-1, 1] (NaN where the value was NaN). Built on first access. */
  readonly scores: Readonly<Record<string, Float64Array>>;
  /** Weighted composite per row (NaN when no component is present, or under policy "nan"). Built on first access. */
  readonly composite: Float64Array;
  /** 1 buy, -1 sell, 0 neutral (NaN composite is neutral; see labelCode). Built on first access. */
  readonly label: Int8Array;
  /** -2 strong sell .. 2 strong buy (equals `label` when no `strong` band is set). Built on first access. */
  readonly strength: Int8Array;
  /** Confidence 0..1 (see signalConfidence); NaN where the composite is NaN. Built on first access. */
  readonly confidence: Float64Array;
  /**
   * The label of rows lo..hi-1 written into `out[0 .. hi-lo)` (1 buy, -1 sell, 0 neutral),
   * computed block by block in reused buffers without building the n-length columns
   * (from them when they are already built): pass the replay itself as `backtest`'s
   * `signal` to go from component values to equity in one pass.
   */
  signalInto(out: Float64Array, lo: number, hi: number): void;
  /**
   * The replay as a danfo DataFrame: time, `<c>` (the value, under the component's bare name, as the
   * loaders name it, so the frame replays again as is), `<c>_score`, composite, label, signal
   * ("buy"/"sell"/"neutral"), confidence.
   */
  toDataFrame(): DataFrame;
}
/**
 * Replay the composite signal at every row of a table of component values:
 * score each component (DEFAULT_SCORERS unless replaced), sum weight x score in
 * the weights' key order, apply the missing-component policy, label with the
 * threshold and compute the confidence. This is the service's model (docs/DESIGN.md),
 * so replaying its published component values reproduces its composite exactly.
 *
 * Missing components: "renormalise" divides the weighted sum by the weight
 * present (times the total weight, when weights do not sum to 1); "zero" counts
 * the component as a score of 0; "nan" makes the row NaN. A row with no
 * component present is NaN under every policy.
 *
 * Confidence = 0.5 * min(1, |composite| / 0.3) + 0.5 * (share of the present
 * weight whose score has the composite's sign): this library's definition, also
 * its replay server's (the live service does not publish its formula).
 *
 * Cost: the inputs are checked here; every column (scores, composite, label,
 * strength, confidence) is built on first access: one loop per component for its
 * scores, then one row loop over the score columns for the composite, each column
 * read or written once; the label column read first is streamed block by block, one row
 * loop scoring, summing and labelling into the column (fuseLabels: no score, composite or block buffer). Passed as `backtest`'s `signal`, the replay is streamed
 * instead (`signalInto`): one row loop scores up to five components and sums them
 * (the scorers of scorers.ts, inlined by the JIT), then labels, block by block
 * in one reused buffer, no n-length column at all (`npx tsx test/bench/backtestProfile.ts`
 * times it; `npx tsx test/signals/replayThroughput.ts` the column path). For weight sweeps, score once and replay `r.scores` with `from: "scores"`.
 * Causal: row t depends on row t only (row <= t with `from: "feeds"`), so rows
 * need no order: a table of several coins' rows is fine (feeds need an ascending `time`).
 * @param input columns keyed by component name (imbalance, funding, basis_spread,
 *   momentum_5m, gas, any extra weighted component; optionally `time`) or, when a
 *   bare name is absent, the analytics composite layout `<name>_value` /
 *   `<name>_score` (as `loadAnalyticsQuery({ dataset: "composite" })` returns); a Panel,
 *   or a danfo DataFrame (duck-typed)
 * @throws InvalidArgumentError on invalid weights, thresholds or policy, a weighted
 *   component with no column or no scorer, or columns of unequal length
 * @example
 * const r = replayComposite({ imbalance: [0.6305], funding: [0.0000048], basis_spread: [50], momentum_5m: [0.356], gas: [0.8] });
 * r.composite[0] // ≈ -0.0770 (0.3*0.261 + 0.25*-0.048 + 0.2*-1 + 0.15*0.178 + 0.1*0.3)
 * r.label[0]     // 0 (neutral)
 */
export function replayComposite(input: ColumnInput, options: ReplayCompositeOptions = {}): CompositeReplay {
  const where = "replayComposite";
  const weights: Weights = options.weights ?? DEFAULT_WEIGHTS;
  validateWeights(weights, where, options.allowAnySum ?? false);
  const missing = options.missing ?? "renormalise";
  if (!MISSING_POLICIES.includes(missing)) {
    throw new InvalidArgumentError("missing", `${where}: missing must be one of ${MISSING_POLICIES.join(", ")}, got ${String(missing)}`);
  }
  const { threshold, strong } = validateThresholds(
    { ...(options.threshold !== undefined ? { threshold: options.threshold } : {}), ...(options.strong !== undefined ? { strong: options.strong } : {}) },
    where,
  );
  const from = options.from ?? "values";
  if (from !== "values" && from !== "scores" && from !== "feeds") {
    throw new InvalidArgumentError("from", `${where}: from must be "values", "scores" or "feeds", got ${String(from)}`);
  }

  let n: number;
  let time: Float64Array | undefined;
  let columns: ReadonlyMap<string, Float64Array>;
  if (from === "feeds") {
    const derived = componentsFromFeeds(input, options.feeds ?? {});
    time = derived.time;
    const m = new Map<string, Float64Array>();
    for (const [k, v] of Object.entries(derived)) if (k !== "time" && v !== undefined) m.set(k, v);
    columns = m;
    n = (m.values().next().value as Float64Array).length;
  } else {
    const read = readColumns(input, where, { ascending: false });
    n = read.length;
    time = read.time;
    columns = read.columns;
  }

  const names = Object.keys(weights);
  const k = names.length;
  const scorers: Readonly<Record<string, Scorer>> = { ...DEFAULT_SCORERS, ...EXTRA_SCORERS, ...(options.scorers ?? {}) };
  const ws = new Float64Array(k);
  let total = 0;
  const cols: Float64Array[] = [];
  const fns: (Scorer | null)[] = []; // null: the column holds scores
  const scoreCols: Float64Array[] = [];
  const values: Record<string, Float64Array> = {};
  const scores: Record<string, Float64Array> = {};
  for (let j = 0; j < k; j++) {
    const name = names[j] as string;
    const w = weights[name] as number;
    ws[j] = w;
    total += w;
    // Without a mapping, a bare component name is looked for first, then the analytics/composite layout's
    // `<name>_value` (from values) or `<name>_score` (from scores).
    const layout = from === "scores" ? `${name}_score` : from === "values" ? `${name}_value` : name;
    const source = options.columns?.[name] ?? (columns.has(name) || !columns.has(layout) ? name : layout);
    const col = columns.get(source);
    if (col === undefined) {
      const have = [...columns.keys()].join(", ") || "(none)";
      const hint = from === "feeds" ? " (the feeds give no way to derive it)" : from === "values" && columns.has("price") ? ' (for raw feeds pass from: "feeds")' : "";
      throw new InvalidArgumentError(
        "input",
        `${where}: no column ${source === name ? "" : `${source} `}for weighted component ${name}${hint}; columns are ${have}. Add it, or leave it out of weights`,
      );
    }
    cols.push(col);
    if (from === "scores") {
      fns.push(null);
      scores[name] = col;
      scoreCols.push(col);
      continue;
    }
    const f = scorers[name];
    if (typeof f !== "function") {
      throw new InvalidArgumentError("scorers", `${where}: component ${name} has a weight but no scorer; pass scorers: { ${name}: (v) => ... }`);
    }
    fns.push(f);
    values[name] = col;
    scoreCols.push(col); // replaced by the score column when the columns are built
  }

  const into = checkReplayInto(options.into, n, [...columns.values()], where);
  const policy = policyCode(missing);
  // The streamed model and its block buffer, made on first use.
  let streamed: FusedModel | undefined;
  let composite: Float64Array | undefined;
  let label: Int8Array | undefined;
  let confidence: Float64Array | undefined;
  let strength: Int8Array | undefined;
  // The columns, built on first access: the scores (a column already of scores is its input), then the
  // composite fused from them (the whole column as one block).
  const compositeOf = (): Float64Array => {
    if (composite !== undefined) return composite;
    const scored = names.flatMap((_, j) => (fns[j] === null ? [] : [j]));
    for (const j of scored) scoreCols[j] = scores[names[j] as string] = new Float64Array(n);
    scoreColumns(
      scored.map((j) => cols[j] as Float64Array),
      scored.map((j) => fns[j] as Scorer),
      scored.map((j) => scoreCols[j] as Float64Array),
    );
    const m = fusedModel(scoreCols, scoreCols.map(() => null), ws, total, policy, n);
    fuseComposite(m, 0, n);
    const c = m.composite;
    for (let i = 0; i < n; i++) if ((c[i] as number) !== (c[i] as number)) c[i] = compositeRowAt(m, i);
    return (composite = c);
  };
  // The label column alone is streamed (fuseLabels, block by block, written straight into the column): no
  // score or composite column is built for it; from the composite when that is already built.
  const labelOf = (): Int8Array => {
    if (label !== undefined) return label;
    const l = into?.label ?? new Int8Array(n);
    if (composite !== undefined) {
      for (let i = 0; i < n; i++) l[i] = labelCode(composite[i] as number, threshold);
      return (label = l);
    }
    const m = (streamed ??= fusedModel(cols, fns, ws, total, policy, Math.max(1, Math.min(n, BLOCK))));
    for (let a = 0; a < n; a += BLOCK) fuseLabels(m, a, Math.min(n, a + BLOCK), l, a, threshold);
    return (label = l);
  };
  const confidenceOf = (): Float64Array => {
    if (confidence !== undefined) return confidence;
    const c = compositeOf();
    const out = into?.confidence ?? new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = confidenceAt(scoreCols, ws, c[i] as number, i);
    return (confidence = out);
  };

  const components = Object.freeze([...names]);
  const model: ReplayModel = { cols, fns, weights: Array.from(ws), policy, threshold };
  const replay: CompositeReplay = {
    length: n,
    time,
    components,
    values,
    get scores(): Readonly<Record<string, Float64Array>> {
      compositeOf();
      return scores;
    },
    get composite(): Float64Array {
      return compositeOf();
    },
    get label(): Int8Array {
      return labelOf();
    },
    get strength(): Int8Array {
      if (strength !== undefined) return strength;
      const c = compositeOf();
      const out = into?.strength ?? new Int8Array(n);
      for (let i = 0; i < n; i++) out[i] = strengthCode(c[i] as number, threshold, strong);
      return (strength = out);
    },
    get confidence(): Float64Array {
      return confidenceOf();
    },
    signalInto(out: Float64Array, lo: number, hi: number): void {
      if (composite !== undefined) {
        for (let i = lo; i < hi; i++) out[i - lo] = labelCode(composite[i] as number, threshold);
        return;
      }
      const m = (streamed ??= fusedModel(cols, fns, ws, total, policy, Math.max(1, Math.min(n, BLOCK))));
      for (let a = lo; a < hi; a += m.block) {
        const b = Math.min(hi, a + m.block);
        fuseComposite(m, a, b);
        labelBlock(m, a, b, out, a - lo, threshold);
      }
    },
    toDataFrame(): DataFrame {
      const cols: Record<string, ArrayLike<number> | readonly string[]> = {};
      if (time !== undefined) cols["time"] = time;
      const sc = replay.scores;
      for (const name of components) {
        const v = values[name];
        if (v !== undefined) cols[name] = v;
        cols[`${name}_score`] = sc[name] as Float64Array;
      }
      const l = labelOf();
      cols["composite"] = compositeOf();
      cols["label"] = l;
      cols["signal"] = Array.from(l, labelName);
      cols["confidence"] = confidenceOf();
      return toDataFrame(cols);
    },
  };
  MODELS.set(replay, model);
  return replay;
}

/**
 * What a replay computes, for an engine that fuses it into its own loop (backtest's compiled
 * path: compositeTargets): the component columns in weight order with their scorers (null: the
 * column holds scores), the weights, the missing-score policy code and the label threshold.
 * @internal
 */
export interface ReplayModel {
  readonly cols: readonly Float64Array[];
  readonly fns: readonly (Scorer | null)[];
  readonly weights: readonly number[];
  readonly policy: number;
  readonly threshold: number;
}

const MODELS = new WeakMap<object, ReplayModel>();

/** The model of a replay made by replayComposite (undefined for any other signal). @internal */
export function replayModel(signal: unknown): ReplayModel | undefined {
  return typeof signal === "object" && signal !== null ? MODELS.get(signal) : undefined;
}

/** Rows per block of signalInto: its composite buffer (1024 doubles) stays in a core's L1 cache until labelled. */
const BLOCK = 1024;

/** Labels of the rows a..b-1 just fused by `m`, into out[o ..]: the composite, or the row rule where its sum is NaN. */
function labelBlock(m: FusedModel, a: number, b: number, out: Float64Array, o: number, threshold: number): void {
  const block = m.composite;
  for (let r = 0; r < b - a; r++) {
    const x = block[r] as number;
    out[o + r] = labelCode(x === x ? x : compositeRowAt(m, a + r), threshold);
  }
}
