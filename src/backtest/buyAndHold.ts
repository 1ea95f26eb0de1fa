import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** Options of {@link buyAndHold}. */
export interface BuyAndHoldOptions {
  /** Starting cash. Default 10 000. */
  readonly initialCash?: number;
  /** Share of the starting cash put in each coin (non-negative, summing to at most 1; the rest stays cash). Default: equal shares. */
  readonly weights?: Readonly<Record<string, number>>;
}

/**
 * Equity of a true buy & hold, the benchmark a strategy is judged against:
 * each coin is bought once, with `weights[coin] × initialCash`, at its first
 * valid (non-NaN) close, and never traded again, so its holding drifts with
 * its price (no rebalancing, no costs, no funding). Before a coin's first
 * valid close its share is held as cash; a NaN close later carries the last
 * price. `equity[i] = Σ_c cash_c × p_c[i] / p_c[first_c]`.
 * Not a constant mix: a portfolio reset to fixed weights every bar (e.g.
 * `backtestPortfolio` with constant positions) is a rebalanced mix.
 * @param closes one close series, or one per coin (all the same length)
 * @throws InvalidArgumentError on series of unequal lengths, no series, a bad initialCash or bad weights
 * @example buyAndHold([100, 110, 99], { initialCash: 1000 }) // [1000, 1100, 990]
 * @example buyAndHold({ A: [100, 200], B: [50, 25] }, { initialCash: 1000 }) // [1000, 1000 + 250 = 1250]
 */
export function buyAndHold(closes: ArrayLike<number> | Readonly<Record<string, ArrayLike<number>>>, options: BuyAndHoldOptions = {}): Float64Array {
  const series: Record<string, ArrayLike<number>> = isSeries(closes) ? { close: closes } : { ...closes };
  const names = Object.keys(series);
  if (names.length === 0) throw new InvalidArgumentError("closes", "buyAndHold: closes must be a price series or a record of at least one coin's prices");
  const n = (series[names[0]!] as ArrayLike<number>).length;
  for (const name of names) {
    const s = series[name] as ArrayLike<number>;
    if (s === null || typeof s !== "object" || typeof s.length !== "number") {
      throw new InvalidArgumentError("closes", `buyAndHold: closes.${name} must be an array of prices, got ${String(s)}`);
    }
    if (s.length !== n) throw new InvalidArgumentError("closes", `buyAndHold: every series must have ${n} prices like ${names[0]}, ${name} has ${s.length}`);
  }
  const cash = options.initialCash ?? 10_000;
  if (typeof cash !== "number" || !Number.isFinite(cash) || cash <= 0) {
    throw new InvalidArgumentError("initialCash", `buyAndHold: initialCash must be a finite amount > 0, got ${String(cash)}`);
  }
  const weights = options.weights ?? Object.fromEntries(names.map((c) => [c, 1 / names.length]));
  let total = 0;
  for (const [c, w] of Object.entries(weights)) {
    if (!names.includes(c)) throw new InvalidArgumentError("weights", `buyAndHold: weights.${c} names no series; series are ${names.join(", ")}`);
    if (typeof w !== "number" || !Number.isFinite(w) || w < 0) throw new InvalidArgumentError("weights", `buyAndHold: weights.${c} must be a finite share >= 0, got ${String(w)}`);
    total += w;
  }
  if (total > 1 + 1e-12) throw new InvalidArgumentError("weights", `buyAndHold: weights must sum to at most 1 (the rest is cash), got ${total}`);
  const out = new Float64Array(n).fill(cash * (1 - total));
  for (const c of names) {
    const share = cash * (weights[c] ?? 0);
    const p = series[c] as ArrayLike<number>;
    let first = Number.NaN;
    let last = Number.NaN;
    for (let i = 0; i < n; i++) {
      const x = p[i] as number;
      if (x === x) {
        if (first !== first) first = x;
        last = x;
      }
      out[i] = (out[i] as number) + (first === first ? (share * last) / first : share);
    }
  }
  return out;
}

function isSeries(x: unknown): x is ArrayLike<number> {
  return Array.isArray(x) || ArrayBuffer.isView(x);
}
