import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { readColumns, type ColumnInput } from "../signals/readColumns.js";
import type { StrategyFunction } from "./strategyVariant.js";
import type { SweepValue } from "./SweepResult.js";

type Params = Readonly<Record<string, SweepValue>>;

/** Options of {@link checkLookahead}. */
export interface CheckLookaheadOptions {
  /** The parameter set(s) to probe (one object or a list); default one empty set `{}`. */
  readonly params?: Params | readonly Params[];
  /**
   * Where to cut the data: a count of cuts spread evenly over the bars (at 30 % … 90 % of them; more cuts, more chances to catch a peek that happens to give the same position) or
   * the bars themselves (each a prefix length in 2..n−1). Default 8.
   */
  readonly cuts?: number | readonly number[];
}

/** A parameter set whose positions changed when later bars were added. */
export interface LookaheadFinding {
  readonly params: Params;
  /** The first bar (0-based) whose position differs, over every cut, and its time when the data has one. */
  readonly firstBar: number;
  readonly time?: number;
  /** The prefix length (cut) at which it was seen, and the two positions at `firstBar`: on all the data, and on the prefix. */
  readonly cut: number;
  readonly full: number;
  readonly prefix: number;
}

/** How long a parameter set's positions depend on the history before them. */
export interface WarmUpDependence {
  readonly params: Params;
  /**
   * Bars after a fresh start (the data from the first cut on) until its positions equal those on all the
   * data and stay equal: 0 when they never differ, Infinity when they differ up to the last bar (a
   * recursive state, e.g. an EMA seeded at the first bar or a running total, that never forgets where it began).
   */
  readonly bars: number;
}

/** The result of {@link checkLookahead}. */
export interface LookaheadReport {
  /** True when any parameter set's positions change as later bars are added. */
  readonly lookahead: boolean;
  /** One per parameter set with lookahead. */
  readonly findings: readonly LookaheadFinding[];
  /** One per parameter set. */
  readonly warmUp: readonly WarmUpDependence[];
  /** The prefix lengths used. */
  readonly cuts: readonly number[];
}

/**
 * Does a strategy function look ahead? Like freqtrade's lookahead-analysis and recursive-analysis:
 * the strategy is run on all the data and on prefixes of it (the first `cut` bars of every column,
 * at each cut); a position at a bar before the cut must not change when later bars are added, since
 * at that bar's close the later bars did not exist. A position that differs (numbers compared to
 * 1e-12 relative, NaN equal to NaN) is lookahead, reported with its first bar and parameter set.
 * The same runs on the data from the first cut on tell warm-up dependence: for how many bars after a
 * fresh start the positions differ from those that had all the history before them.
 * The strategy gets copies of the columns (a strategy that writes into them cannot spoil the probe).
 * @throws InvalidArgumentError on a strategy that is not a function, data without 3 bars, bad params or cuts,
 *   or a strategy that does not return one position per bar
 * @example
 * const peek = (c) => c.close.map((_, i) => (c.close[i + 1] > c.close[i] ? 1 : 0));
 * checkLookahead(peek, candles).findings[0] // { firstBar: 299, cut: 300, ... }: bar 299's position needed bar 300
 */
export function checkLookahead(strategy: StrategyFunction, data: ColumnInput, options: CheckLookaheadOptions = {}): LookaheadReport {
  const where = "checkLookahead";
  if (typeof strategy !== "function") throw new InvalidArgumentError("strategy", `${where}: strategy must be a function (columns, params) => target positions, got ${strategy === null ? "null" : typeof strategy}`);
  if (options === null || typeof options !== "object") throw new InvalidArgumentError("options", `${where}: options must be an object like { params, cuts }, got ${String(options)}`);
  const read = readColumns(data, where);
  const n = read.length;
  if (n < 3) throw new InvalidArgumentError("data", `${where}: needs at least 3 bars to cut, got ${n}`);
  const columns: Record<string, Float64Array> = {};
  if (read.time !== undefined) columns["time"] = read.time;
  for (const [name, col] of read.columns) columns[name] = col;
  const given = options.params ?? {};
  const sets: readonly Params[] = Array.isArray(given) ? (given as readonly Params[]) : [given as Params];
  sets.forEach((p, j) => {
    if (p === null || typeof p !== "object") throw new InvalidArgumentError("params", `${where}: params must be a parameter object or a list of them, item ${j} is ${String(p)}`);
  });
  const cuts = cutsOf(options.cuts ?? 8, n, where);
  const run = (params: Params, lo: number, hi: number): Float64Array => {
    const part: Record<string, Float64Array> = {};
    for (const [name, col] of Object.entries(columns)) part[name] = col.slice(lo, hi);
    // a fresh `out` and `shared` per run: a value shared across runs would carry the full data's indicator into a prefix
    const cache = new Map<string, unknown>();
    const shared = <T>(key: string, compute: () => T): T => (cache.has(key) ? (cache.get(key) as T) : (cache.set(key, compute()), cache.get(key) as T));
    const out = strategy(part, params, new Float64Array(hi - lo), shared);
    if (out === null || typeof out !== "object" || out.length !== hi - lo) {
      throw new InvalidArgumentError("strategy", `${where}: the strategy must return one position per bar, got ${out === null || typeof out !== "object" ? String(out) : out.length} for ${hi - lo} bars (params ${JSON.stringify(params)})`);
    }
    return Float64Array.from(out, Number);
  };
  const findings: LookaheadFinding[] = [];
  const warmUp: WarmUpDependence[] = [];
  for (const params of sets) {
    const full = run(params, 0, n);
    let found: LookaheadFinding | undefined;
    for (const cut of cuts) {
      const prefix = run(params, 0, cut);
      for (let i = 0; i < cut; i++) {
        if (same(prefix[i] as number, full[i] as number)) continue;
        if (found === undefined || i < found.firstBar) {
          found = { params, firstBar: i, ...(read.time !== undefined ? { time: read.time[i] as number } : {}), cut, full: full[i] as number, prefix: prefix[i] as number };
        }
        break;
      }
    }
    if (found !== undefined) findings.push(found);
    const start = cuts[0] as number;
    const fresh = run(params, start, n);
    let last = -1;
    for (let j = 0; j < fresh.length; j++) if (!same(fresh[j] as number, full[start + j] as number)) last = j;
    warmUp.push({ params, bars: last === fresh.length - 1 ? Number.POSITIVE_INFINITY : last + 1 });
  }
  return { lookahead: findings.length > 0, findings, warmUp, cuts };
}

/** Equal positions: the same number to 1e-12 relative, or both NaN. */
function same(a: number, b: number): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  return Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** The prefix lengths: a count spread over 30 %..90 % of the bars, or the bars given (sorted, distinct). */
function cutsOf(cuts: number | readonly number[], n: number, where: string): number[] {
  if (typeof cuts === "number") {
    if (!Number.isInteger(cuts) || cuts < 1) throw new InvalidArgumentError("cuts", `${where}: cuts must be a whole number of cuts >= 1 or a list of prefix lengths, got ${String(cuts)}`);
    const at = Array.from({ length: cuts }, (_, j) => Math.round(n * (cuts === 1 ? 0.5 : 0.3 + (0.6 * j) / (cuts - 1))));
    return [...new Set(at.map((c) => Math.min(n - 1, Math.max(2, c))))].sort((a, b) => a - b);
  }
  if (!Array.isArray(cuts) || cuts.length === 0 || !cuts.every((c) => Number.isInteger(c) && c >= 2 && c <= n - 1)) {
    throw new InvalidArgumentError("cuts", `${where}: cuts must be prefix lengths, whole numbers in 2..${n - 1}, got ${JSON.stringify(cuts)}`);
  }
  return [...new Set(cuts)].sort((a, b) => a - b);
}
