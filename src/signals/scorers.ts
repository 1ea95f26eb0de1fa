/**
 * Default component scorers of the composite model (docs/DESIGN.md, "The composite
 * model"). Each maps a component's raw value to a score in [-1, 1]. A NaN
 * value scores NaN (the composite's missing-component policy then decides).
 * Each is a plain function and may be replaced by the user's own.
 */

/**
 * A scorer: raw component value -> score in [-1, 1] (NaN when unknown). A pure function of
 * the value: the replay may call it more than once for the same row (a row with a component
 * missing is scored again by the row rule) and in any row order, so a scorer must not count,
 * log or keep state.
 */
export type Scorer = (value: number) => number;

// Each scorer limits its value to its range in one expression, `x < lo ? lo : x > hi ? hi : x`
// (NaN stays NaN, as does a signed zero inside the range), written out rather than through a
// shared clamp(): the streamed replay (fuseComposite) inlines the five scorers into one row loop,
// itself inlined into the backtest's target rule, and the extra level of a clamp() per scorer
// took V8 past its cumulative inlining budget in about half of all processes: one scorer was
// then called per row (~30 ms more over 2M rows; test/bench/backtestProfile.ts).

/**
 * Order-book imbalance: `2 * (v - 0.5)` where v is the bid share of depth
 * near mid (0..1). Values outside 0..1 are clamped into it first.
 * @example scoreImbalance(0.6305) // 0.261
 */
export function scoreImbalance(bidShare: number): number {
  const x = bidShare < 0 ? 0 : bidShare > 1 ? 1 : bidShare;
  return 2 * (x - 0.5);
}

/**
 * Funding: `clamp(-v * 1e4, -1, 1)` where v is the hourly funding rate as a
 * decimal (positive funding is bearish: longs crowd and pay).
 * @example scoreFunding(0.0000048) // -0.048
 */
export function scoreFunding(rate: number): number {
  const x = -rate * 1e4;
  return x < -1 ? -1 : x > 1 ? 1 : x;
}

/**
 * Basis: `clamp(-v / 50, -1, 1)` where v = (perp - spot) / spot in basis
 * points (a rich perp is bearish; saturates at 50 bps; weakly evidenced).
 * @example scoreBasis(12.5) // -0.25
 */
export function scoreBasis(basisBps: number): number {
  const x = -basisBps / 50;
  return x < -1 ? -1 : x > 1 ? 1 : x;
}

/**
 * Momentum: `clamp(v / 2, -1, 1)` where v is the 5-minute return in percent.
 * @example scoreMomentum(0.356) // 0.178
 */
export function scoreMomentum(returnPct: number): number {
  const x = returnPct / 2;
  return x < -1 ? -1 : x > 1 ? 1 : x;
}

/** Base fee (gwei) at or below which gas counts as cheap; all live samples were below it. */
export const CHEAP_GAS_GWEI = 1.1;
// scoreGas reads it through this module-local binding: the JIT folds a local const, not an exported
// binding (a module cell, loaded and hole-checked per call: gas scoring ~1.7x slower in a hot loop).
const CHEAP_GWEI = CHEAP_GAS_GWEI;

/**
 * The module constants the scorers of this file read, by the name their text uses: a generated
 * loop writing a scorer's text in place of its call (inlineStatements) writes these as their values.
 * @internal
 */
export const SCORER_CONSTANTS: Readonly<Record<string, number>> = Object.freeze({ CHEAP_GWEI });

/**
 * Gas: 0.3 while the Ethereum base fee is cheap (<= 1.1 gwei, the only regime
 * seen on the live service). Above that the live rule is unknown; this
 * library's assumption falls linearly by 0.1 per gwei, `clamp(0.3 - (v - 1.1) / 10, -1, 0.3)`,
 * reaching 0 at 4.1 gwei and -1 at 14.1 gwei. Replace it if you know better.
 * @example scoreGas(0.8) // 0.3
 */
export function scoreGas(baseFeeGwei: number): number {
  // At or below 1.1 gwei, v - 1.1 <= 0 (rounding keeps the sign), so the line is >= 0.3 and the
  // cap at 0.3 gives exactly 0.3: one branch-free expression for both regimes (-Infinity -> 0.3, NaN -> NaN).
  const x = 0.3 - (baseFeeGwei - CHEAP_GWEI) / 10;
  return x < -1 ? -1 : x > 0.3 ? 0.3 : x;
}

/**
 * Optional extra component (named in the service's prose, absent from its
 * samples): annualised 24h realized volatility in percent as a risk-off
 * component. 0 while vol is below the `normal` cutoff of DEFAULT_VOL_CUTOFFS
 * (50 %), falling linearly to -1 at the `extreme` cutoff (90 %) and beyond:
 * `clamp(-(v - 50) / 40, -1, 0)`. This library's assumption; replace it at will.
 * @example scoreVolatility(70) // -0.5
 */
export function scoreVolatility(volPct: number): number {
  const x = -(volPct - 50) / 40;
  return x < -1 ? -1 : x > 0 ? 0 : x;
}

/**
 * Optional extra component: correlation of the coin's returns with the market
 * (e.g. with BTC), -1..1, as a risk-off component (crowded, undiversified
 * moves): 0 up to 0.5, falling linearly to -1 at perfect correlation:
 * `clamp(-(rho - 0.5) / 0.5, -1, 0)`. This library's assumption; replace it at will.
 * @example scoreCorrelation(0.9) // -0.8
 */
export function scoreCorrelation(rho: number): number {
  const x = -(rho - 0.5) / 0.5;
  return x < -1 ? -1 : x > 0 ? 0 : x;
}

/** Scorers of the optional extra components; used when a weight names them. */
export const EXTRA_SCORERS = Object.freeze({
  volatility: scoreVolatility,
  correlation: scoreCorrelation,
}) satisfies Readonly<Record<string, Scorer>>;

/** The default scorer of each service component. */
export const DEFAULT_SCORERS = Object.freeze({
  imbalance: scoreImbalance,
  funding: scoreFunding,
  basis_spread: scoreBasis,
  momentum_5m: scoreMomentum,
  gas: scoreGas,
}) satisfies Readonly<Record<string, Scorer>>;

const NAN_TO_NAN: ReadonlySet<Scorer> = new Set<Scorer>([...Object.values(DEFAULT_SCORERS), ...Object.values(EXTRA_SCORERS)]);

/**
 * The rule "a NaN value scores NaN", for any scorer: the scorers of this file
 * keep it themselves (test/signals/scorerEdges.test.ts) and are returned as they
 * are, so the JIT can inline them where they are called; any other scorer is
 * wrapped, `(v) => (v !== v ? v : f(v))`.
 * @example scoringNaNAsNaN(scoreGas) === scoreGas // true
 * @example scoringNaNAsNaN(() => 0)(Number.NaN) // NaN
 * @internal
 */
export function scoringNaNAsNaN(f: Scorer): Scorer {
  return NAN_TO_NAN.has(f) ? f : (v) => (v !== v ? v : f(v));
}
