import type { Trade } from "../backtest/Trade.js";
import type { DataFrame } from "../data/danfo.js";
import { toDataFrame } from "../data/toDataFrame.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { annualVolatility } from "./annualVolatility.js";
import { cumReturnsFinal } from "./cumReturns.js";
import { maxDrawdown } from "./maxDrawdown.js";
import { nanMoments } from "./nanMoments.js";
import { checkReturns, periodsPerYearOf } from "./ReturnsOptions.js";
import { sharpeRatio } from "./sharpeRatio.js";
import { sortinoRatio } from "./sortinoRatio.js";
import { tradeStatistics } from "./tradeStatistics.js";

/** A scalar metric of a return series, e.g. `(r) => sharpeRatio(r, { periodsPerYear: 8760 })`. */
export type ReturnsMetric = (returns: Float64Array) => number;

/** Options of `metricsByRegime`. */
export interface MetricsByRegimeOptions {
  /**
   * Group codes per bar, one array per grouping variable, each the returns'
   * length, e.g. `{ volRegime: classifyVolRegimes(...), label: replay.label }`.
   * Rows are every combination that occurs. NaN codes are left out.
   */
  readonly by: Readonly<Record<string, ArrayLike<number>>>;
  /** Metrics per group; default: totalReturn, meanReturn, annualVolatility, sharpeRatio, sortinoRatio, maxDrawdown, positiveShare. */
  readonly metrics?: Readonly<Record<string, ReturnsMetric>>;
  /** Bars per year for the default metrics (default 365). */
  readonly periodsPerYear?: number;
  /**
   * Bars between the regime and the return it is credited with (default 1):
   * `returns[t]` is grouped by the codes of bar `t - lag`. With the default
   * fill (docs/DESIGN.md), the return of bar t comes from the position chosen at the
   * close of bar t - 1, so lag 1 groups each return by the regime known when
   * its position was taken; lag 0 groups by the regime of the bar itself
   * (which was not yet known when the position was taken).
   */
  readonly lag?: number;
  /** Trades to break down too (trades, winRate, profitFactor, avgTrade per group), grouped by the codes at their `entryIndex`. */
  readonly trades?: readonly Trade[];
  /** Add a first row over all bars (group codes NaN). Default true. */
  readonly includeAll?: boolean;
}

/** A small table: one Float64Array per column, all `rows` long. */
export interface RegimeTable {
  readonly rows: number;
  readonly columns: Readonly<Record<string, Float64Array>>;
  /** The same table as a danfo DataFrame (danfo loads on first call). */
  toDataFrame(): DataFrame;
}

/**
 * Any metric broken down by regime: the returns are split by the group codes
 * (for example volatility regime x signal label) and every metric is computed
 * on each group's returns. Columns: the grouping variables, `bars` (returns
 * in the group), `share` (of all grouped returns), then one column per
 * metric (and per trade statistic with `trades`). Rows are sorted by the codes.
 *
 * Note: a group's returns are not contiguous in time; path metrics (total
 * return, max drawdown) treat them as if traded back to back, i.e. "what the
 * strategy earned while in this regime".
 * @throws InvalidArgumentError when a `by` array or lag is bad
 * @example metricsByRegime(result.returns, { by: { volRegime: regimes, label: replay.label }, periodsPerYear: 525_600 }).columns.sharpeRatio
 */
export function metricsByRegime(returns: ArrayLike<number>, options: MetricsByRegimeOptions): RegimeTable {
  checkReturns(returns, "metricsByRegime");
  const n = returns.length;
  const by = options?.by;
  if (by === null || typeof by !== "object" || Object.keys(by).length === 0) {
    throw new InvalidArgumentError("by", `metricsByRegime: by must name at least one array of group codes, e.g. { label: replay.label }, got ${String(by)}`);
  }
  const keys = Object.keys(by);
  for (const k of keys) {
    const a = by[k] as ArrayLike<number>;
    if (a === null || typeof a !== "object" || a.length !== n) {
      throw new InvalidArgumentError("by", `metricsByRegime: by.${k} must have one code per return (${n}), got ${a?.length ?? String(a)}`);
    }
  }
  const lag = options.lag ?? 1;
  if (!Number.isInteger(lag) || lag < 0) {
    throw new InvalidArgumentError("lag", `metricsByRegime: lag must be a non-negative integer (bars), got ${String(lag)}`);
  }
  const ppy = periodsPerYearOf(options, "metricsByRegime");
  const metrics: Readonly<Record<string, ReturnsMetric>> = options.metrics ?? {
    totalReturn: (r) => cumReturnsFinal(r),
    meanReturn: (r) => nanMoments(r, 0).mean,
    annualVolatility: (r) => annualVolatility(r, { periodsPerYear: ppy }),
    sharpeRatio: (r) => sharpeRatio(r, { periodsPerYear: ppy }),
    sortinoRatio: (r) => sortinoRatio(r, { periodsPerYear: ppy }),
    maxDrawdown: (r) => maxDrawdown(r),
    positiveShare: (r) => {
      let pos = 0;
      let valid = 0;
      for (const v of r) {
        if (Number.isNaN(v)) continue;
        valid++;
        if (v > 0) pos++;
      }
      return valid > 0 ? pos / valid : Number.NaN;
    },
  };
  for (const [name, f] of Object.entries(metrics)) {
    if (typeof f !== "function") {
      throw new InvalidArgumentError("metrics", `metricsByRegime: metrics.${name} must be a function (returns: Float64Array) => number, got ${typeof f}`);
    }
  }

  const byArrays = keys.map((k) => by[k] as ArrayLike<number>);
  const codesAt = (i: number): number[] | undefined => {
    if (i < 0 || i >= n) return undefined;
    const c: number[] = [];
    for (const a of byArrays) {
      const v = a[i] as number;
      if (Number.isNaN(v)) return undefined;
      c.push(v);
    }
    return c;
  };
  // One pass assigns each return a group id (-1 when its codes are unknown);
  // group members are then copied into one Float64Array per group.
  const ids = new Map<string, number>();
  const groupCodes: number[][] = [];
  const groupOf = (codes: number[]): number => {
    const key = codes.join("|");
    let g = ids.get(key);
    if (g === undefined) {
      g = groupCodes.length;
      ids.set(key, g);
      groupCodes.push(codes);
    }
    return g;
  };
  // Group id of bar i's codes through nested maps, one level per grouping
  // variable: no allocation per bar. -1 when a code is NaN or i is out of range.
  type Node = Map<number, Node | number>;
  const root: Node = new Map();
  const idAt = (i: number): number => {
    if (i < 0 || i >= n) return -1;
    let node = root;
    for (let j = 0; j < byArrays.length; j++) {
      const v = (byArrays[j] as ArrayLike<number>)[i] as number;
      if (Number.isNaN(v)) return -1;
      const next = node.get(v);
      if (j === byArrays.length - 1) {
        if (next !== undefined) return next as number;
        const g = groupOf(codesAt(i) as number[]);
        node.set(v, g);
        return g;
      }
      if (next === undefined) {
        const child: Node = new Map();
        node.set(v, child);
        node = child;
      } else node = next as Node;
    }
    return -1;
  };
  const gid = new Int32Array(n).fill(-1);
  for (let t = lag; t < n; t++) gid[t] = idAt(t - lag);
  const trades = options.trades;
  const tradeGroups: Trade[][] = [];
  if (trades) {
    for (const tr of trades) {
      const g = idAt(tr.entryIndex);
      if (g < 0) continue;
      (tradeGroups[g] ??= []).push(tr);
    }
  }
  const G = groupCodes.length;
  const sizes = new Int32Array(G);
  let grouped = 0;
  for (let t = 0; t < n; t++) {
    const g = gid[t] as number;
    if (g >= 0) {
      sizes[g]! += 1;
      grouped++;
    }
  }
  const members = Array.from({ length: G }, (_, g) => new Float64Array(sizes[g] as number));
  const all = new Float64Array(grouped);
  const fill = new Int32Array(G);
  let k = 0;
  for (let t = 0; t < n; t++) {
    const g = gid[t] as number;
    if (g < 0) continue;
    const v = returns[t] as number;
    (members[g] as Float64Array)[fill[g]!++] = v;
    all[k++] = v;
  }
  const order = Array.from({ length: G }, (_, g) => g).sort((a, b) => {
    const ca = groupCodes[a] as number[];
    const cb = groupCodes[b] as number[];
    for (let j = 0; j < keys.length; j++) {
      const d = (ca[j] as number) - (cb[j] as number);
      if (d !== 0) return d;
    }
    return 0;
  });
  const includeAll = options.includeAll ?? true;
  const rowsList: { codes: number[]; returns: Float64Array; trades: readonly Trade[] }[] = [];
  if (includeAll) rowsList.push({ codes: keys.map(() => Number.NaN), returns: all, trades: trades ?? [] });
  for (const g of order) rowsList.push({ codes: groupCodes[g] as number[], returns: members[g] as Float64Array, trades: tradeGroups[g] ?? [] });
  const rows = rowsList.length;
  const columns: Record<string, Float64Array> = {};
  keys.forEach((key, j) => {
    columns[key] = Float64Array.from(rowsList, (r) => r.codes[j] as number);
  });
  columns["bars"] = Float64Array.from(rowsList, (r) => r.returns.length);
  columns["share"] = Float64Array.from(rowsList, (r) => (grouped > 0 ? r.returns.length / grouped : Number.NaN));
  for (const [name, f] of Object.entries(metrics)) columns[name] = Float64Array.from(rowsList, (r) => f(r.returns));
  if (trades) {
    const stats = rowsList.map((r) => tradeStatistics(r.trades));
    columns["trades"] = Float64Array.from(stats, (s) => s.trades);
    columns["winRate"] = Float64Array.from(stats, (s) => s.winRate);
    columns["profitFactor"] = Float64Array.from(stats, (s) => s.profitFactor);
    columns["avgTrade"] = Float64Array.from(stats, (s) => s.avgTrade);
  }
  return { rows, columns, toDataFrame: () => toDataFrame(columns) };
}
