/**
 * The priming bars of the generated loops: per bar a target's sign (or a composite's score) and a
 * close. A loop met for the first time in a thread first runs over them (a few times, on scratch
 * states, results thrown away: runKernel's primeVariantLoop and primeSpanLoop, the sweep's
 * variantsPass), so that V8 has seen every common branch before it optimises the loop. With the
 * target's sign as given, an account goes long, holds through a gain and a drawdown, flips short,
 * holds, goes flat, stays flat, re-enters short, flips long and short again and holds to the last
 * bar: every branch of a label, the fill (with and without a trade, the sign-change test both
 * ways), the funding, the peak and the drawdown and the idle path runs before the loop is hot.
 *
 * Why (issues 20 and 32, the slow mode): V8 keeps no feedback during a new function's first few
 * bars of work; a loop optimised before some branch ran (the first sell label of a run's data, an
 * account's first flip) holds that branch as a deoptimisation point, and when the first bar that
 * takes it falls while the loop's concurrent on-stack-replacement (OSR) compile is in flight, V8
 * (Node 20) never optimises the function again: every later call enters the OSR code, whose loop
 * variables are boxed numbers (1.6-2.6x slower), for the rest of the process. Rare events are left
 * out on purpose (a missing price, funding or score; ruin): primed, TurboFan compiles their
 * out-of-line rules into the loop, which then runs 15-30 % slower; they stay deoptimisation points.
 * @internal
 */
export const PRIMING: readonly (readonly [number, number])[] = [
  [0.75, 100.25],
  [0.75, 101.5],
  [0.75, 99.75],
  [-0.75, 98.5],
  [-0.75, 97.75],
  [-0.75, 97.25],
  [0, 97.5],
  [0, 97.75],
  [-0.75, 97.5],
  [-0.75, 97.0],
  [0.75, 98.0],
  [0.75, 99.0],
  [-0.75, 99.5],
  [-0.75, 99.25],
  [-0.75, 99.0],
  [0.75, 99.5],
];

/**
 * Runs over the priming bars. V8 records no feedback in a new function's first ~8 x its bytecode
 * size of work (lazy feedback allocation, about the first 10 bars of a 4-account pass): the first
 * run allocates it, the later ones record every branch.
 * @internal
 */
export const PRIMING_RUNS = 4;

/**
 * A column of the same kind as `like` (the same typed-array constructor, or a plain array) holding
 * `values` (booleans when `like` holds booleans): a loop's feedback records the kind of every
 * column it reads, so a priming column must be of the kind the run will read.
 * @internal
 */
export function columnLike(like: ArrayLike<unknown>, values: readonly number[]): ArrayLike<number> {
  if (ArrayBuffer.isView(like)) return new (like.constructor as new (v: readonly number[]) => ArrayLike<number>)(values);
  if (like.length > 0 && typeof like[0] === "boolean") return values.map((v) => v !== 0) as unknown as ArrayLike<number>;
  return values.slice();
}
