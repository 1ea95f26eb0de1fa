import { labelCode } from "../signals/classifySignal.js";
import { compositeRowAt, fusedModel, scorerOf, weightedSumSource } from "../signals/fuseComposite.js";
import { SCORER_CONSTANTS, type Scorer } from "../signals/scorers.js";
import { inlineExpression, inlineStatements, numberSource } from "./kernel/inlineExpression.js";
import type { VariantSignalSource } from "./kernel/spanLoop.js";
import { capBound, cappedTarget, carriedTarget, signalSide, type TargetRule } from "./targetPositions.js";
import { PRIMING } from "./kernel/primingBars.js";
import { primingRuleColumns, targetRuleBar, targetRuleKey, targetRulePrologue, targetRuleSource } from "./targetRuleSource.js";

/**
 * Composite strategies whose targets a generated loop computes bar by bar (kernel/runVariants):
 * component columns (each scored by its scorer, or already scores), one or more weight vectors
 * over them, and accounts, each labelling one vector's composite at its own threshold and
 * following the target rule. @internal
 */
export interface CompositeTargets {
  /** Component columns, and the scorer of each (null: the column holds scores). */
  readonly cols: readonly Float64Array[];
  readonly fns: readonly (Scorer | null)[];
  /** Each weight vector: the indexes of its components in `cols`, in its key order, and their weights. */
  readonly vectors: readonly { readonly order: readonly number[]; readonly weights: readonly number[] }[];
  /** The missing-score policy code (policyCode). */
  readonly policy: number;
  /** Each account's weight vector (an index into `vectors`) and label threshold. */
  readonly of: readonly number[];
  readonly thresholds: readonly number[];
  /** The target rule (resolveTargets) of every account: a signal, any sizing, a regime filter (`flatWhen`) or none. */
  readonly rule: TargetRule;
  /**
   * When the columns are views of one buffer (a sweep's plan: SweepPlan.packed): that buffer and
   * where each column starts in it, `cols[j]` at `offsets[j]`, the coin's close at `close` and its
   * funding at `funding` (undefined: none). The loop then reads every column of a bar from it.
   */
  readonly packed?: { readonly values: Float64Array; readonly offsets: readonly number[]; readonly close: number; readonly funding: number | undefined };
}

/**
 * The signal of a generated loop (VariantSignalSource) and its parameters for composite
 * targets: per bar, each column read (and scored) once (a scorer of its value alone, as the
 * default scorers are, written in place by inlineStatements; any other called), each vector's composite summed once
 * by its one definition (weightedSumSource in its key order; a row with a score missing by
 * the row rule, compositeRowAt, under the policy), then for each account its label
 * (labelCode), held side (signalSide), size, leverage cap (cappedTarget, bars it bound counted)
 * and target carried over a bar without a price (carriedTarget): the target rule's own
 * functions, their expressions written in place (inlineExpression), or, for signalSide and
 * cappedTarget, whose arguments take three values (a label, a side: -1, 0, 1) and the run's
 * constants, evaluated at generation time for each value and written as a choice between the
 * answers (sideSource, targetSource, cappedSource: with the default options, side = label and
 * target = side, no branch at all). The same numbers as the replay's streamed labels through
 * targetsInto and carryOnMissingPrice, bit for bit.
 * @internal
 */
export function compositeTargets(c: CompositeTargets): { signal: VariantSignalSource & { key: string }; params: { readonly sig: Float64Array; readonly capped: Float64Array } } {
  const { cols, fns, vectors, of, thresholds, rule } = c;
  // With sizing or a regime filter the target is computed per bar (targetRuleSource); without, for each side at generation time.
  const general = rule.sizing !== 0 || rule.flatWhen !== undefined;
  const k = cols.length;
  const accounts = of.length;
  const range = (m: number): number[] => Array.from({ length: m }, (_, x) => x);
  const W = vectors.flatMap((v) => [...v.weights]);
  const at = vectors.map((_, g) => vectors.slice(0, g).reduce((a, v) => a + v.order.length, 0));
  const rows = vectors.map((v) => {
    let total = 0;
    for (const w of v.weights) total += w;
    const m = fusedModel(v.order.map((j) => cols[j] as Float64Array), v.order.map((j) => fns[j] ?? null), Float64Array.from(v.weights), total, c.policy, 1);
    return (i: number): number => compositeRowAt(m, i);
  });
  const scorers = fns.map((f) => (f === null ? null : scorerOf(f)));
  // Each scorer's text written in place of its call where it is a small function of its value
  // alone (the default scorers; inlineStatements), else called; x<j> is column j's score at bar i.
  const inlined = scorers.map((f, j) => (f === null ? undefined : inlineStatements(f, [`v${j}`], `x${j}`, SCORER_CONSTANTS)));
  // Column j at bar i: its own array, or its place in the packed buffer (PK, offset o<j>).
  const packed = c.packed;
  // The rule's constants are in the source (sideSource, targetSource, cappedSource), so in the key.
  const key = `composite|${packed === undefined ? "" : packed.funding === undefined ? "packed" : "packed+funding"}|${scorers.map((f, j) => (f === null ? "s" : inlined[j] !== undefined ? `i${inlinedId(f)},` : "v")).join("")}|${vectors.map((v) => v.order.join(",")).join(";")}|${of.join(",")}|${rule.shorts}|${rule.holdOnNeutral}|${rule.size}|${rule.maxLeverage}${general ? `|${targetRuleKey(rule)}` : ""}`;
  // The loop's text, written once per key (the key names everything it depends on) rather than per call.
  let text = SOURCES.get(key);
  if (text === undefined) SOURCES.set(key, (text = loopText()));
  const { prologue, bar, epilogue } = text;
  function loopText(): LoopText {
    const colAt = (j: number): string => (packed === undefined ? `col${j}[i]` : `PK[o${j} + i]`);
    const prologue = `
      ${
        packed === undefined
          ? range(k).map((j) => `const col${j} = P.cols[${j}];`).join(" ")
          : `const PK = P.packed.values, oClose = P.packed.close, oFunding = P.packed.funding; ${range(k).map((j) => `const o${j} = P.packed.offsets[${j}];`).join(" ")}`
      }
      ${range(k).map((j) => (scorers[j] === null || inlined[j] !== undefined ? "" : `const fn${j} = P.scorers[${j}];`)).join(" ")}
      ${vectors.map((v, g) => `const row${g} = P.rows[${g}]; ${v.order.map((_, j) => `const W${g}_${j} = P.W[${(at[g] as number) + j}];`).join(" ")}`).join("\n")}
      ${range(accounts).map((s) => `const thr${s} = P.thresholds[${s}]; let side${s} = P.sig[${2 * s}], target${s} = P.sig[${2 * s + 1}];`).join("\n")}
      ${general ? targetRulePrologue(rule) : ""}
      let cappedBars = 0;`;
    const bar = `
      ${range(k).map((j) => (scorers[j] === null ? `const x${j} = ${colAt(j)};` : inlined[j] !== undefined ? `const v${j} = ${colAt(j)}; ${inlined[j]}` : `const x${j} = fn${j}(${colAt(j)});`)).join(" ")}
      ${vectors.map((v, g) => `let cmp${g} = ${weightedSumSource("0", v.order.map((j, t) => [`W${g}_${t}`, `x${j}`] as const))}; if (cmp${g} !== cmp${g}) cmp${g} = row${g}(i);`).join("\n")}
      const price = close_i;${general ? ` ${targetRuleBar(rule)}` : ""}
      ${range(accounts)
        .map(
          (s) =>
            `{ ${sideSource(inlineExpression(labelCode, [`cmp${of[s]}`, `thr${s}`]), `side${s}`, rule)} ` +
            (general
              ? // Sizing or a regime filter: side x size, then the rule's later steps per bar (targetRuleSource).
                `let w = side${s} * ${numberSource(rule.size)}; ${targetRuleSource("w", `target${s}`, rule)} }`
              : `${cappedSource(`side${s}`, rule)} target${s} = ${inlineExpression(carriedTarget, [targetSource(`side${s}`, rule), "price", "i", `target${s}`])}; }`),
        )
        .join("\n")}`;
    const epilogue = `${range(accounts).map((s) => `P.sig[${2 * s}] = side${s}; P.sig[${2 * s + 1}] = target${s};`).join(" ")} P.capped[0] += cappedBars;`;
    return { prologue, bar, epilogue };
  }
  const params = new CompositeParams(packedArray(cols), packed === undefined ? undefined : new PackedColumns(packed.values, packedArray(packed.offsets), packed.close, packed.funding), packedArray(scorers), Float64Array.from(W), packedArray(rows), Float64Array.from(thresholds), new Float64Array(2 * accounts), new Float64Array(1), rule.scale, rule.volTarget, rule.flatWhen);
  // Packed: the coin's close and funding at bar i from the same buffer (the loop's `columns`).
  const columns = packed === undefined ? undefined : `const close_i = PK[oClose + i]; ${packed.funding === undefined ? "" : "const funding_i = PK[oFunding + i];"}`;
  // Priming (kernel/primingBars.ts) of a loop over the columns themselves (a sweep's packed pass primes itself: variantsPass).
  const priming = packed === undefined ? (): unknown => primingParams(c, fns.map(scorerOf)) : undefined;
  return { signal: { key, prologue, bar, epilogue, target: (s) => `target${s}`, ...(columns === undefined ? {} : { columns }), ...(priming === undefined ? {} : { priming }) }, params };
}

/**
 * The parameters of `c`'s loop over the priming bars (kernel/primingBars.ts): of the first column
 * whose values (a sample of its own) score both above and below 0, the values of its highest,
 * lowest and smallest score, by the priming bars' signs, weighted 1 (every other column 0, its own
 * lowest, highest and smallest-scoring values in turn), labelled at a threshold between the
 * smallest score and the others: every account's label buys, sells and stays neutral as the bars'
 * signs say. Undefined when no column scores both ways (then the loop is not primed).
 */
function primingParams(c: CompositeTargets, scorers: readonly Scorer[]): unknown {
  const m = PRIMING.length;
  // Each column's value of the highest, lowest and smallest score among a sample of its finite values.
  const picks = c.cols.map((col, j) => {
    const f = scorers[j] as Scorer;
    let hi: [number, number] | undefined, lo: [number, number] | undefined, zero: [number, number] | undefined;
    const step = Math.max(1, Math.floor(col.length / 512));
    for (let i = 0; i < col.length; i += step) {
      const v = col[i] as number;
      const x = f(v);
      if (!Number.isFinite(v) || !Number.isFinite(x)) continue;
      if (hi === undefined || x > hi[1]) hi = [v, x];
      if (lo === undefined || x < lo[1]) lo = [v, x];
      if (zero === undefined || Math.abs(x) < Math.abs(zero[1])) zero = [v, x];
    }
    return hi === undefined || lo === undefined || zero === undefined ? undefined : { hi, lo, zero };
  });
  if (picks.some((p) => p === undefined)) return undefined;
  const ok = (p: (typeof picks)[number]): boolean => p !== undefined && p.hi[1] > 0 && p.lo[1] < 0 && Math.abs(p.zero[1]) < Math.min(p.hi[1], -p.lo[1]);
  const chosen = picks.findIndex(ok);
  const pick = picks[chosen];
  if (pick === undefined) return undefined;
  const threshold = (Math.abs(pick.zero[1]) + Math.min(pick.hi[1], -pick.lo[1])) / 2;
  const cols = picks.map((p, j) => {
    const { hi, lo, zero } = p as NonNullable<typeof p>;
    const col = new Float64Array(m);
    PRIMING.forEach(([x], i) => (col[i] = j === chosen ? (x > 0 ? hi[0] : x < 0 ? lo[0] : zero[0]) : ([lo, hi, zero][i % 3] as [number, number])[0]));
    return col;
  });
  const { scale, flatWhen } = primingRuleColumns(c.rule);
  return compositeTargets({
    ...c,
    cols,
    vectors: c.vectors.map((v) => ({ order: v.order, weights: v.order.map((j) => (j === chosen ? 1 : 0)) })),
    thresholds: c.thresholds.map(() => threshold),
    rule: { ...c.rule, scale, flatWhen },
  }).params;
}

/**
 * The parameters of a composite loop (its source's `P`): a class rather than an object literal
 * because V8 generalises the field types of a literal's object fields (the typed arrays) on its
 * second instantiation, which deoptimised a loop optimised during the first run (code
 * dependencies: the fused backtest's loop was compiled again in the 2nd run of every process);
 * a constructor's fields keep their types.
 */
class CompositeParams {
  constructor(
    readonly cols: readonly Float64Array[],
    readonly packed: CompositeTargets["packed"],
    readonly scorers: readonly (Scorer | null)[],
    readonly W: Float64Array,
    readonly rows: readonly ((i: number) => number)[],
    readonly thresholds: Float64Array,
    readonly sig: Float64Array,
    readonly capped: Float64Array,
    readonly scale: ArrayLike<number> | undefined,
    readonly volTarget: number,
    readonly flatWhen: ArrayLike<number | boolean> | undefined,
  ) {}
}

/** CompositeTargets.packed as the loop reads it (`P.packed`): one class, its offsets a packedArray. */
class PackedColumns {
  constructor(
    readonly values: Float64Array,
    readonly offsets: readonly number[],
    readonly close: number,
    readonly funding: number | undefined,
  ) {}
}

/**
 * A copy of `xs` whose hidden class is always the same (PACKED_ELEMENTS: pushed one by one onto an
 * empty literal), for the arrays the loop's prologue reads from `P`. The arrays `Array.prototype.map`
 * returned did not always share one map: right after compositeTargets was deoptimised (~1,500 calls
 * into a sweep's returnsOf), `%HaveSameMap` of `P.rows` against the first call's turned false (the
 * elements kind map gives depends on the tier that runs it), and the loop, meeting a map it had not
 * seen, was thrown away mid-run ("wrong map" at `const row0 = P.rows[0]`, then compiled again by
 * on-stack replacement: issue 32 item 1; test/research/returnsJit.test.ts).
 */
function packedArray<T>(xs: readonly T[]): T[] {
  const out: T[] = [];
  for (const x of xs) out.push(x);
  return out;
}

/** The source text of a composite loop's parts (VariantSignalSource). */
interface LoopText {
  readonly prologue: string;
  readonly bar: string;
  readonly epilogue: string;
}

/**
 * Each loop's text by its key, written on the first call with that key: a sweep's returnsOf calls
 * compositeTargets once per variant (~12,000 calls in `milab demo`), and writing the text each time
 * was ~40 µs a call, more than the loop's 720 bars.
 */
const SOURCES = new Map<string, LoopText>();

/** A number for each scorer whose text a loop holds (the key of that loop names it). */
const INLINED = new WeakMap<Scorer, number>();

function inlinedId(f: Scorer): number {
  let id = INLINED.get(f);
  if (id === undefined) INLINED.set(f, (id = INLINED_COUNT.n++));
  return id;
}

const INLINED_COUNT = { n: 0 };

/** The side of signalSide's answer that stands for "the side held" (not a side: sides are -1, 0, 1). */
const HELD = 2;

/**
 * The statement that sets the held side `side` after a label (source text `label`, -1, 0 or 1):
 * the target rule's signalSide evaluated for each label at generation time (its options are
 * constants of the run), written as a choice between those answers, or the label itself when
 * signalSide maps every label to itself (shorts allowed, flat on neutral).
 */
function sideSource(label: string, side: string, rule: TargetRule): string {
  const [up, down, zero] = [1, -1, 0].map((l) => signalSide(l, HELD, rule.shorts, rule.holdOnNeutral)).map((v) => (v === HELD ? side : `(${v})`));
  if (up === "(1)" && down === "(-1)" && zero === "(0)") return `${side} = ${label};`;
  return `const label = ${label}; ${side} = label > 0 ? ${up} : label < 0 ? ${down} : ${zero};`;
}

/**
 * The target of a side (source text `side`, -1, 0 or 1) as source text: side x size capped at the
 * leverage (cappedTarget) for each side, evaluated at generation time; the side itself when
 * that is the identity (size 1 within the cap).
 */
function targetSource(side: string, rule: TargetRule): string {
  const [up, down, zero] = [1, -1, 0].map((v) => cappedTarget(v * rule.size, rule.maxLeverage));
  if (up === 1 && down === -1 && zero === 0) return side;
  return `(${side} > 0 ? ${numberSource(up as number)} : ${side} < 0 ? ${numberSource(down as number)} : ${numberSource(zero as number)})`;
}

/** The count of bars where the cap bound (capBound of cappedTarget), for a side, evaluated at generation time: empty when it never binds. */
function cappedSource(side: string, rule: TargetRule): string {
  const [up, down, zero] = [1, -1, 0].map((v) => capBound(v * rule.size, cappedTarget(v * rule.size, rule.maxLeverage)));
  if (up === 0 && down === 0 && zero === 0) return "";
  return `cappedBars += ${side} > 0 ? ${up} : ${side} < 0 ? ${down} : ${zero};`;
}
