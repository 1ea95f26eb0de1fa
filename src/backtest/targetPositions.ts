import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/**
 * How a position is sized, as a multiple of the base size (the `position`
 * given, or `size` for a signal):
 * - `{ by: "fixed" }` (default): the base size as is;
 * - `{ by: "confidence", confidence }`: base x confidence_i, the confidence clamped to [0, 1]
 *   (e.g. `replayComposite(...).confidence`); NaN confidence means flat;
 * - `{ by: "volatility", target, volatility }`: base x target / volatility_i (volatility
 *   targeting; both in the same units, e.g. annualised, the series known at the close of
 *   bar i such as `realizedVol`); NaN or non-positive volatility means flat. The leverage
 *   cap bounds the result.
 */
export type Sizing =
  | { readonly by: "fixed" }
  | { readonly by: "confidence"; readonly confidence: ArrayLike<number> }
  | { readonly by: "volatility"; readonly target: number; readonly volatility: ArrayLike<number> };

/**
 * A signal computed block by block instead of held as a column, e.g. the result of
 * `replayComposite` (pass it as `signal` and the backtest goes from component values
 * to equity in one pass, without n-length intermediate columns).
 */
export interface SignalBlocks {
  /** Number of rows. */
  readonly length: number;
  /** Write the signal of rows lo..hi-1 (> 0 buy, < 0 sell, 0 or NaN neutral) into `out[0 .. hi-lo)`. */
  signalInto(out: Float64Array, lo: number, hi: number): void;
}

/** Options of {@link targetPositions}: the strategy half of the backtest options. */
export interface TargetOptions {
  /**
   * Target fraction of equity per bar, decided at its close (negative = short). NaN means flat.
   * Or the {@link Targets} that `targetPositions` returned, whose rule `backtest` then runs itself
   * (fused with a composite replay's scores; see targetPositions).
   */
  readonly position?: ArrayLike<number> | Targets;
  /**
   * Signal per bar: > 0 buy, < 0 sell, 0 or NaN neutral (e.g. `replayComposite(...).label`),
   * the labels "buy", "sell", "neutral" (e.g. the `signal` column of the replay's DataFrame),
   * or {@link SignalBlocks} such as the replay itself (computed block by block).
   */
  readonly signal?: ArrayLike<number | string> | SignalBlocks;
  /** Size of a signal's position, fraction of equity. Default 1. */
  readonly size?: number;
  /** On a neutral signal: "flat" (default) closes the position, "hold" keeps the last buy/sell side. */
  readonly neutral?: "flat" | "hold";
  /** Whether a sell signal goes short (default true) or only flat. */
  readonly shorts?: boolean;
  /** Position sizing; default `{ by: "fixed" }`. */
  readonly sizing?: Sizing;
  /** Cap on |position| (gross exposure / equity). Default 1 (no leverage). */
  readonly maxLeverage?: number;
  /** Regime filter: where truthy (e.g. `volRegime === 3`, extreme volatility) the target is flat. */
  readonly flatWhen?: ArrayLike<number | boolean>;
}

/**
 * The target positions and how often the leverage cap bound them. From a signal computed by
 * block (a composite replay), both are computed on first access; pass the Targets themselves as
 * `backtest`'s `position` to run their rule inside the backtest's pass instead.
 */
export interface Targets {
  readonly positions: Float64Array;
  /** Bars whose target the leverage cap reduced. */
  readonly capped: number;
}

/** @internal */
export function checkLength(name: string, a: ArrayLike<unknown> | undefined, n: number, where: string): void {
  if (a === undefined) return;
  if (a === null || typeof a !== "object" || typeof a.length !== "number") {
    throw new InvalidArgumentError(name, `${where}: ${name} must be an array of numbers, got ${String(a)}`);
  }
  if (a.length !== n) {
    throw new InvalidArgumentError(name, `${where}: ${name} must have one value per bar (${n}), got ${a.length}`);
  }
}

/** @internal */
export function checkNonNegative(name: string, v: number | undefined, where: string): void {
  if (v === undefined) return;
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
    throw new InvalidArgumentError(name, `${where}: ${name} must be a finite number >= 0, got ${String(v)}`);
  }
}

/**
 * Target position (fraction of equity, negative = short) decided at the close of
 * each bar, from either a target `position` or a `signal` rule, then sized, filtered
 * and capped, in that order:
 *
 * 1. base: `position[i]` (NaN -> 0), or from `signal[i]`: buy -> +size, sell -> -size
 *    (0 when `shorts` is false), neutral -> 0 (`neutral: "flat"`) or the last buy/sell
 *    side (`"hold"`);
 * 2. sizing: x1, x confidence_i, or x target / volatility_i (see {@link Sizing});
 * 3. regime filter: 0 where `flatWhen[i]` is truthy;
 * 4. leverage cap: clamp to [-maxLeverage, maxLeverage].
 *
 * Causal: target i uses inputs at i only (and the held side before i for "hold").
 *
 * From a signal computed by block (`signal: replayComposite(...)`, see {@link SignalBlocks}) the
 * result is lazy: nothing is computed until `positions` or `capped` is read. Passed whole as
 * `backtest({ position: targets })`, the backtest runs this rule in its own pass, and a composite
 * replay's scorers, composite, label and this target rule are fused into the engine's generated
 * loop (no column of scores, composites, labels or positions at all), with the same numbers as
 * `backtest({ position: targets.positions })`, except `capped`, the backtest's own cap (0 here).
 * Sizing and a `flatWhen` regime filter are fused too. What breaks the fusion (the rule then runs
 * block by block, or the column is built first): the backtest's `delayBars`; the backtest's own
 * sizing or `flatWhen`, or a backtest `maxLeverage` below the targets' largest size (then
 * `targets.positions` is built, and sized, filtered and capped again in the fused position loop). A column
 * the caller built (e.g. a loop over `replay.label`) runs in the fused position loop, but its composite
 * was computed before: pass the replay as the signal to compute it in the same pass.
 * @param n number of bars (every series must have this length)
 * @throws InvalidArgumentError on a missing or doubled position/signal, wrong lengths or bad sizes
 * @example targetPositions({ signal: [1, 0, -1, 0], neutral: "hold", size: 0.5 }, 4).positions // [0.5, 0.5, -0.5, -0.5]
 * @example
 * const targets = targetPositions({ signal: replayComposite(values), neutral: "hold", size: 0.5 }, close.length);
 * backtest({ close, position: targets }); // one fused pass: values -> scores -> composite -> label -> target -> equity
 */
export function targetPositions(options: TargetOptions, n: number, where = "targetPositions"): Targets {
  const rule = resolveTargets(options, n, where);
  let computed: { positions: Float64Array; capped: number } | undefined;
  const compute = (): { positions: Float64Array; capped: number } => {
    if (computed !== undefined) return computed;
    const stream = new TargetStream();
    const out = new Float64Array(n);
    targetsInto(rule, stream, 0, n, out, 0);
    return (computed = { positions: out, capped: stream.capped });
  };
  // A signal of plain numbers or labels is read now (a bad label throws here); one computed by block is not read until asked.
  if (rule.blocks === undefined) compute();
  const targets: Targets = {
    get positions(): Float64Array {
      return compute().positions;
    },
    get capped(): number {
      return compute().capped;
    },
  };
  TARGET_RULES.set(targets, { rule, n });
  return targets;
}

/** The rule and length of each Targets made by targetPositions. */
const TARGET_RULES = new WeakMap<object, { readonly rule: TargetRule; readonly n: number }>();

/** Largest |target| a rule can give: its size (any sizing but volatility scales it by at most 1), at most its cap. */
function largestTarget(rule: TargetRule): number {
  return Math.min(rule.maxLeverage, rule.sizing === 2 || rule.position !== undefined ? Number.POSITIVE_INFINITY : rule.size);
}

/** Validated target options, ready for {@link targetsInto}. @internal */
export interface TargetRule {
  readonly position: ArrayLike<number> | undefined;
  readonly signal: ArrayLike<number | string> | undefined;
  readonly blocks: SignalBlocks | undefined;
  readonly size: number;
  readonly holdOnNeutral: boolean;
  readonly shorts: boolean;
  /** 0 fixed, 1 confidence, 2 volatility. */
  readonly sizing: number;
  readonly scale: ArrayLike<number> | undefined;
  readonly volTarget: number;
  readonly flatWhen: ArrayLike<number | boolean> | undefined;
  readonly maxLeverage: number;
  readonly where: string;
  /** Whether the bars this rule's cap bound count as the run's `capped` (false: a Targets' rule run for a backtest's identity rule over it). */
  readonly countsCapped: boolean;
}

/** What the target rule carries from bar to bar: the held side (for neutral "hold"), the last target and the cap count. @internal */
export class TargetStream {
  side = 0;
  capped = 0;
  /** Target of the last bar (carried over a bar without a price). */
  last = 0;
}

/** A signal computed block by block (SignalBlocks, e.g. a composite replay), or undefined for a column. */
function signalBlocksOf(signal: unknown): SignalBlocks | undefined {
  return signal !== undefined && signal !== null && typeof (signal as Partial<SignalBlocks>).signalInto === "function" ? (signal as SignalBlocks) : undefined;
}

/**
 * The target rule of another run over the same options as `resolved` (already checked by
 * resolveTargets: size, neutral, maxLeverage, sizing and its columns) with its own targets:
 * a sweep variant's position (or signal) and `flatWhen` (a regime's mask, checked where the
 * sweep took it). Only what is new is checked (its length); the options are trusted, not
 * checked again. Falls back to resolveTargets when the run is not of that kind (a Targets
 * position, which carries its own rule; position where `resolved` had a signal, or the reverse).
 * @internal
 */
export function rerunTargets(resolved: TargetRule, options: TargetOptions, n: number, where: string): TargetRule {
  const { position, signal } = options as Omit<TargetOptions, "position"> & { readonly position?: ArrayLike<number> };
  const sameKind = resolved.countsCapped && (position !== undefined) === (resolved.position !== undefined) && (signal !== undefined) === (resolved.signal !== undefined || resolved.blocks !== undefined);
  if (!sameKind || (position !== undefined && TARGET_RULES.has(position))) return resolveTargets(options, n, where);
  checkLength("position", position, n, where);
  checkLength("signal", signal as ArrayLike<unknown> | undefined, n, where);
  const blocks = signalBlocksOf(signal);
  return { ...resolved, position, signal: blocks === undefined ? (signal as ArrayLike<number | string> | undefined) : undefined, blocks, flatWhen: options.flatWhen, where };
}

/** Validate target options (see {@link targetPositions}). @internal */
export function resolveTargets(options: TargetOptions, n: number, where: string): TargetRule {
  const made = options.position === undefined ? undefined : TARGET_RULES.get(options.position);
  if (made !== undefined) return targetsRule(options, made, n, where);
  const { position, signal } = options as Omit<TargetOptions, "position"> & { readonly position?: ArrayLike<number> };
  if ((position === undefined) === (signal === undefined)) {
    throw new InvalidArgumentError(
      position === undefined ? "position" : "signal",
      `${where}: give exactly one of position (target fraction of equity per bar) or signal (buy > 0, sell < 0, neutral 0), got ${position === undefined ? "neither" : "both"}`,
    );
  }
  const blocks = signalBlocksOf(signal);
  checkLength("position", position, n, where);
  checkLength("signal", signal as ArrayLike<unknown> | undefined, n, where);
  checkLength("flatWhen", options.flatWhen, n, where);
  const size = options.size ?? 1;
  if (typeof size !== "number" || !Number.isFinite(size) || size < 0) {
    throw new InvalidArgumentError("size", `${where}: size must be a finite fraction of equity >= 0, got ${String(size)}`);
  }
  const neutral = options.neutral ?? "flat";
  if (neutral !== "flat" && neutral !== "hold") {
    throw new InvalidArgumentError("neutral", `${where}: neutral must be "flat" or "hold", got ${String(neutral)}`);
  }
  const maxLev = options.maxLeverage ?? 1;
  if (typeof maxLev !== "number" || Number.isNaN(maxLev) || maxLev <= 0) {
    throw new InvalidArgumentError("maxLeverage", `${where}: maxLeverage must be a number > 0 (Infinity for no cap), got ${String(maxLev)}`);
  }
  const sizing = options.sizing ?? { by: "fixed" as const };
  let scale: ArrayLike<number> | undefined;
  let mode = 0;
  let volTarget = 0;
  if (typeof sizing !== "object" || sizing === null) {
    throw new InvalidArgumentError("sizing", `${where}: sizing must be { by: "fixed" | "confidence" | "volatility", ... }, got ${String(sizing)}`);
  } else if (sizing.by === "confidence") {
    checkLength("sizing.confidence", sizing.confidence, n, where);
    if (sizing.confidence === undefined) throw new InvalidArgumentError("sizing", `${where}: sizing by confidence needs sizing.confidence, one value in [0, 1] per bar`);
    scale = sizing.confidence;
    mode = 1;
  } else if (sizing.by === "volatility") {
    if (sizing.volatility === undefined) throw new InvalidArgumentError("sizing", `${where}: sizing by volatility needs sizing.volatility, one value per bar (e.g. realizedVol)`);
    checkLength("sizing.volatility", sizing.volatility, n, where);
    if (typeof sizing.target !== "number" || !Number.isFinite(sizing.target) || sizing.target <= 0) {
      throw new InvalidArgumentError("sizing", `${where}: sizing.target must be a volatility > 0 in the units of sizing.volatility, got ${String(sizing.target)}`);
    }
    scale = sizing.volatility;
    volTarget = sizing.target;
    mode = 2;
  } else if (sizing.by !== "fixed") {
    throw new InvalidArgumentError("sizing", `${where}: sizing.by must be "fixed", "confidence" or "volatility", got ${String((sizing as { by: unknown }).by)}`);
  }
  return {
    position,
    signal: blocks === undefined ? (signal as ArrayLike<number | string> | undefined) : undefined,
    blocks,
    size,
    holdOnNeutral: neutral === "hold",
    shorts: options.shorts ?? true,
    sizing: mode,
    scale,
    volTarget,
    flatWhen: options.flatWhen,
    maxLeverage: maxLev,
    where,
    countsCapped: true,
  };
}

/**
 * The rule of `position: targets` (a Targets of targetPositions): the targets' own rule when
 * these options over it change nothing (no sizing, no filter, a cap at or above the targets'
 * largest size: every target passes through as is), so a backtest runs it in its pass; else the
 * targets' positions as a column under these options.
 */
function targetsRule(options: TargetOptions, made: { readonly rule: TargetRule; readonly n: number }, n: number, where: string): TargetRule {
  const targets = options.position as Targets;
  if (made.n !== n) throw new InvalidArgumentError("position", `${where}: position must have one value per bar (${n}), got targets of ${made.n} bars`);
  const outer = resolveTargets({ ...options, position: { length: n } }, n, where);
  if (outer.sizing === 0 && outer.flatWhen === undefined && outer.maxLeverage >= largestTarget(made.rule)) return { ...made.rule, where, countsCapped: false };
  // the options are checked (outer): the targets' positions run under them, not checked again
  return rerunTargets(outer, { ...options, position: targets.positions }, n, where);
}

/**
 * The target rule over bars lo..hi-1, written at `out[i - base]` (whole array: base 0;
 * a reused block buffer: base lo); the stream carries the state between blocks.
 * @internal
 */
export function targetsInto(rule: TargetRule, st: TargetStream, lo: number, hi: number, out: Float64Array, base: number): void {
  const { position, signal, blocks, size, holdOnNeutral, shorts, sizing, scale, volTarget, flatWhen, maxLeverage } = rule;
  if (blocks !== undefined) blocks.signalInto(base === lo ? out : out.subarray(lo - base), lo, hi);
  let side = st.side;
  let capped = 0;
  for (let i = lo; i < hi; i++) {
    let w: number;
    if (position !== undefined) {
      w = +(position[i] as number);
      if (w !== w) w = 0;
    } else {
      const raw = signal === undefined ? (out[i - base] as number) : signal[i];
      side = signalSide(typeof raw === "number" ? raw : labelValue(raw, i, rule.where), side, shorts, holdOnNeutral);
      w = side * size;
    }
    if (sizing === 1) w = confidenceSized(w, (scale as ArrayLike<number>)[i] as number);
    else if (sizing === 2) w = volatilitySized(w, (scale as ArrayLike<number>)[i] as number, volTarget);
    if (flatWhen !== undefined && flatWhen[i]) w = 0;
    const c = cappedTarget(w, maxLeverage);
    capped += capBound(w, c);
    out[i - base] = c;
  }
  st.side = side;
  st.capped += capped;
}

/**
 * No decision can be filled on a bar without a close: carry the previous target
 * there, over bars lo..hi-1 of `target` (indexed `i - base`, our own array, in place).
 * @internal
 */
export function carryOnMissingPrice(target: Float64Array, close: ArrayLike<number>, lo: number, hi: number, base: number, st: TargetStream): void {
  let last = st.last;
  for (let i = lo; i < hi; i++) target[i - base] = last = carriedTarget(target[i - base] as number, close[i] as number, i, last);
  st.last = last;
}

// The rules below are the target rule's steps, each written once: targetsInto and
// carryOnMissingPrice call them, and the kernel's generated loop writes their text in place
// (targetRuleSource.ts, positionTargets.ts) or evaluates them for each label and side (compositeTargets.ts).

/**
 * The held side after a signal value `sg` (> 0 buy, < 0 sell, else neutral): buy +1; sell -1
 * (0 when `shorts` is false); neutral 0, or the side held when `holdOnNeutral`.
 * @example signalSide(0, 1, true, true) // 1
 * @internal
 */
export function signalSide(sg: number, side: number, shorts: boolean, holdOnNeutral: boolean): number {
  return sg > 0 ? 1 : sg < 0 ? (shorts ? -1 : 0) : holdOnNeutral ? side : 0;
}

/**
 * A target limited to [-maxLeverage, maxLeverage], never -0 (the caller counts a change as a bar the cap bound).
 * @example cappedTarget(1.5, 1) // 1
 * @internal
 */
export function cappedTarget(w: number, maxLeverage: number): number {
  return w > maxLeverage ? maxLeverage : w < -maxLeverage ? -maxLeverage : w === 0 ? 0 : w;
}

/**
 * A target sized by a confidence `c` in [0, 1] (clamped; NaN: 0).
 * @example confidenceSized(1, 0.4) // 0.4
 * @internal
 */
export function confidenceSized(w: number, c: number): number {
  return w * (c !== c ? 0 : c < 0 ? 0 : c > 1 ? 1 : c);
}

/**
 * A target sized to a volatility target: w x volTarget / v, 0 where the volatility `v` is not a finite positive number.
 * @example volatilitySized(1, 80, 40) // 0.5
 * @internal
 */
export function volatilitySized(w: number, v: number, volTarget: number): number {
  return v > 0 && Number.isFinite(v) ? (w * volTarget) / v : 0;
}

/**
 * 1 when the leverage cap changed a target `w` that is a number into `c` (a bar the cap bound), else 0.
 * @example capBound(1.5, 1) // 1
 * @internal
 */
export function capBound(w: number, c: number): number {
  return c !== w && w === w ? 1 : 0;
}

/**
 * The target at bar i with close `c`: as decided, or on a bar without a price (NaN close) the
 * previous bar's target `last` (0 at bar 0): no decision can be filled there.
 * @internal
 */
export function carriedTarget(w: number, c: number, i: number, last: number): number {
  return c !== c ? (i > 0 ? last : 0) : w;
}
/** "buy" -> 1, "sell" -> -1, "neutral" -> 0; anything else is an error. @internal */
export function labelValue(raw: unknown, i: number, where: string): number {
  if (raw === "buy") return 1;
  if (raw === "sell") return -1;
  if (raw === "neutral" || raw === null || raw === undefined) return 0;
  throw new InvalidArgumentError("signal", `${where}: signal must hold numbers or "buy" / "sell" / "neutral", got ${JSON.stringify(raw)} at bar ${i}`);
}
