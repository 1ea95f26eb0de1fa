import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { VOL_REGIMES, type VolRegime } from "./volRegime.js";

/** The documented market regime of the regime endpoint. */
export type MarketRegime = "risk_on" | "risk_off" | "neutral";

/** Market regimes by code + 1: code -1 risk_off, 0 neutral, 1 risk_on (`MARKET_REGIMES[code + 1]`). */
export const MARKET_REGIMES: readonly MarketRegime[] = Object.freeze(["risk_off", "neutral", "risk_on"]);

/** Inputs of one coin at one time. */
export interface CoinState {
  readonly composite: number;
  readonly volRegime: VolRegime | undefined;
  /** Hourly funding rate, decimal. */
  readonly funding: number;
}

/** Parameters of the market-regime rule (defaults in brackets). */
export interface MarketRegimeOptions {
  /** |breadth| at or beyond which the market leans risk_on / risk_off [0.05]. */
  readonly breadth?: number;
  /** Mean hourly funding at or above which longs count as crowded, blocking risk_on [0.0001]. */
  readonly crowdedFunding?: number;
  /** Share of coins in `extreme` volatility that forces risk_off [0.5]. */
  readonly extremeShare?: number;
  /** |breadth| giving full confidence [0.2]. */
  readonly confidenceScale?: number;
}

interface Rule {
  readonly breadth: number;
  readonly crowdedFunding: number;
  readonly extremeShare: number;
  readonly confidenceScale: number;
}

function rule(o: MarketRegimeOptions, where: string): Rule {
  const r = {
    breadth: o.breadth ?? 0.05,
    crowdedFunding: o.crowdedFunding ?? 0.0001,
    extremeShare: o.extremeShare ?? 0.5,
    confidenceScale: o.confidenceScale ?? 0.2,
  };
  if (!(Number.isFinite(r.breadth) && r.breadth >= 0 && r.breadth <= 1)) {
    throw new InvalidArgumentError("breadth", `${where}: breadth must be a number in [0, 1], got ${r.breadth}`);
  }
  if (!Number.isFinite(r.crowdedFunding)) {
    throw new InvalidArgumentError("crowdedFunding", `${where}: crowdedFunding must be a finite hourly rate, got ${r.crowdedFunding}`);
  }
  if (!(r.extremeShare > 0 && r.extremeShare <= 1)) {
    throw new InvalidArgumentError("extremeShare", `${where}: extremeShare must be in (0, 1], got ${r.extremeShare}`);
  }
  if (!(Number.isFinite(r.confidenceScale) && r.confidenceScale > 0)) {
    throw new InvalidArgumentError("confidenceScale", `${where}: confidenceScale must be a positive number, got ${r.confidenceScale}`);
  }
  return r;
}

/** The rule on aggregated inputs; code -1/0/1 and confidence. NaN breadth is neutral with confidence 0. */
function decide(breadth: number, extreme: number, funding: number, r: Rule): [code: number, confidence: number] {
  if (breadth !== breadth) return [0, 0];
  const conf = Math.min(1, Math.abs(breadth) / r.confidenceScale);
  if (breadth <= -r.breadth || extreme >= r.extremeShare) return [-1, Math.max(conf, extreme)];
  if (breadth >= r.breadth && !(funding >= r.crowdedFunding)) return [1, conf];
  return [0, 1 - conf];
}

/**
 * This library's market-regime rule (the service documents the labels, not the
 * rule). Breadth b = mean composite over coins whose composite is a number;
 * `risk_off` when b <= -0.05 or at least half of the coins are in `extreme`
 * volatility; `risk_on` when b >= 0.05 and the mean hourly funding (over coins
 * with a funding number) is below 0.0001 (longs not crowded); else `neutral`.
 * Confidence: min(1, |b| / 0.2) for risk_on, the larger of that and the extreme
 * share for risk_off, 1 minus it for neutral. No coin with a composite: neutral,
 * confidence 0. Thresholds are options.
 * @throws InvalidArgumentError on bad options
 * @example marketRegime([{ composite: 0.2, volRegime: "normal", funding: 0.00001 }]) // { regime: "risk_on", confidence: 1 }
 */
export function marketRegime(
  coins: readonly CoinState[],
  options: MarketRegimeOptions = {},
): { regime: MarketRegime; confidence: number } {
  const r = rule(options, "marketRegime");
  let sum = 0;
  let valid = 0;
  let extreme = 0;
  let fsum = 0;
  let fcount = 0;
  for (const c of coins) {
    if (c.volRegime === "extreme") extreme++;
    if (c.composite !== c.composite) continue;
    sum += c.composite;
    valid++;
    if (c.funding === c.funding) {
      fsum += c.funding;
      fcount++;
    }
  }
  const [code, confidence] = decide(
    valid > 0 ? sum / valid : Number.NaN,
    coins.length > 0 ? extreme / coins.length : 0,
    fcount > 0 ? fsum / fcount : Number.NaN,
    r,
  );
  return { regime: MARKET_REGIMES[code + 1] as MarketRegime, confidence };
}

/** Aligned per-coin columns for {@link marketRegimes}. */
export interface MarketRegimeInput {
  /** Composite per coin (e.g. `replayComposite(...).composite`), all the same length. */
  readonly composite: Readonly<Record<string, ArrayLike<number>>>;
  /** Volatility-regime codes per coin (classifyVolRegimes: 3 = extreme, -1 unknown). Optional. */
  readonly volRegime?: Readonly<Record<string, ArrayLike<number>>>;
  /** Hourly funding per coin, decimal. Optional (without it funding never blocks risk_on). */
  readonly funding?: Readonly<Record<string, ArrayLike<number>>>;
}

/** The market regime at every row. */
export interface MarketRegimeSeries {
  /** -1 risk_off, 0 neutral, 1 risk_on (`MARKET_REGIMES[code + 1]`). */
  readonly regime: Int8Array;
  readonly confidence: Float64Array;
  /** Mean composite over the coins with a number (NaN when none). */
  readonly breadth: Float64Array;
}

/**
 * {@link marketRegime} at every row of aligned per-coin columns, in one pass
 * over typed arrays. Row t uses row t of each column only (causal when the
 * inputs are). The coins are the keys of `composite`.
 * @throws InvalidArgumentError on unequal lengths, a coin missing from volRegime
 *   or funding when those are given, or bad options
 * @example marketRegimes({ composite: { BTC: [0.2, -0.1], ETH: [0.1, -0.2] } }).regime // Int8Array [1, -1]
 */
export function marketRegimes(input: MarketRegimeInput, options: MarketRegimeOptions = {}): MarketRegimeSeries {
  const where = "marketRegimes";
  const r = rule(options, where);
  const coins = Object.keys(input.composite);
  if (coins.length === 0) {
    throw new InvalidArgumentError("composite", `${where}: composite must hold at least one coin's column, e.g. { BTC: composite }`);
  }
  const n = (input.composite[coins[0] as string] as ArrayLike<number>).length;
  const pick = (what: "composite" | "volRegime" | "funding"): ArrayLike<number>[] | undefined => {
    const rec = input[what];
    if (rec === undefined) return undefined;
    return coins.map((coin) => {
      const col = rec[coin];
      if (col === undefined) {
        throw new InvalidArgumentError(what, `${where}: ${what} has no column for ${coin}; give one per coin of composite (${coins.join(", ")})`);
      }
      if (col.length !== n) {
        throw new InvalidArgumentError(what, `${where}: every column must have ${n} rows, got ${col.length} in ${what}.${coin}`);
      }
      return col;
    });
  };
  const comp = pick("composite") as ArrayLike<number>[];
  const vol = pick("volRegime");
  const fund = pick("funding");
  const k = coins.length;
  const extremeCode = VOL_REGIMES.indexOf("extreme");
  const regime = new Int8Array(n);
  const confidence = new Float64Array(n);
  const breadth = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    let valid = 0;
    let extreme = 0;
    let fsum = 0;
    let fcount = 0;
    for (let j = 0; j < k; j++) {
      if (vol !== undefined && (vol[j] as ArrayLike<number>)[i] === extremeCode) extreme++;
      const c = (comp[j] as ArrayLike<number>)[i] as number;
      if (c !== c) continue;
      sum += c;
      valid++;
      if (fund !== undefined) {
        const f = (fund[j] as ArrayLike<number>)[i] as number;
        if (f === f) {
          fsum += f;
          fcount++;
        }
      }
    }
    const b = valid > 0 ? sum / valid : Number.NaN;
    const [code, conf] = decide(b, extreme / k, fcount > 0 ? fsum / fcount : Number.NaN, r);
    regime[i] = code;
    confidence[i] = conf;
    breadth[i] = b;
  }
  return { regime, confidence, breadth };
}
