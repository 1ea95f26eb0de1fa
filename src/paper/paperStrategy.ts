import type { BacktestOptions } from "../backtest/backtest.js";
import { fundingPerBar } from "../backtest/fundingPerBar.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { gridPlan } from "../research/sweepGrid.js";
import type { SweepBest, SweepValue } from "../research/SweepResult.js";
import { compositeRule, type CompositeStrategy } from "../research/sweepStrategy.js";
import { variantOptions, type StrategyFunction, type StrategyPlan } from "../research/strategyVariant.js";

/**
 * A composite strategy for paper trading: {@link CompositeStrategy} whose regime filters are
 * functions of the bars' columns (a filter can only be computed from the bars seen so far), e.g.
 * `{ calm: (c) => c.btc_momentum_5m_pct.map((m) => (Math.abs(m) > 1 ? 1 : 0)) }`.
 */
export interface PaperCompositeStrategy extends Omit<CompositeStrategy, "regimes"> {
  readonly regimes?: Readonly<Record<string, (columns: Readonly<Record<string, Float64Array>>) => ArrayLike<number | boolean>>>;
}

/** What paperTrade runs: a strategy function `(columns, params) => target positions`, or a composite strategy. */
export type PaperStrategy = StrategyFunction | PaperCompositeStrategy;

/** The backtest options a paper trader passes through (everything but the data, the targets and the run's outputs). */
export type PaperBacktestOptions = Omit<
  BacktestOptions,
  "data" | "time" | "close" | "open" | "high" | "low" | "funding" | "position" | "signal" | "outputs" | "spreadBps" | "impact" | "flatWhen" | "confidence" | "volatility" | "coin" | "into"
>;

/**
 * A strategy bound to its parameters and backtest options: the backtest options of the
 * strategy over any prefix of the bars (the paper trader's decision at bar i reads the
 * prefix [0, i]; reconcile reads every recorded bar), built the way a sweep builds a
 * variant's (variantOptions), so a sweep's `best()` paper-trades as it was backtested.
 * @internal
 */
export interface BoundStrategy {
  /** The strategy's backtest options over these bars (columns of equal length: time, open, high, low, close and the feed's metrics). */
  optionsFor(columns: Readonly<Record<string, Float64Array>>): BacktestOptions;
  /** A text that names the strategy and its settings (a function's source; a composite's settings), for the ledger's header. */
  readonly description: string;
}

/**
 * Bind a paper strategy to its parameters (`params`, or a sweep's `best`) and backtest options.
 * `fundingColumn`: the column of an hourly funding rate charged per bar (fundingPerBar), or undefined.
 * @throws InvalidArgumentError on a strategy that is neither a function nor a composite
 * @internal
 */
export function bindStrategy(
  strategy: PaperStrategy,
  params: Readonly<Record<string, SweepValue>>,
  base: PaperBacktestOptions,
  fundingColumn: string | undefined,
  where: string,
): BoundStrategy {
  const isFunction = typeof strategy === "function";
  if (!isFunction && (typeof strategy !== "object" || strategy === null || strategy.kind !== "composite")) {
    throw new InvalidArgumentError(
      "strategy",
      `${where}: strategy must be a function (columns, params) => target positions, or { kind: "composite", weights?, threshold?, regimes? }, got ${strategy === null ? "null" : typeof strategy}`,
    );
  }
  const parameters = Object.keys(params);
  // a grid of this one row (variantOptions reads only its parameters' values, given here)
  const grid = gridPlan([parameters.length > 0 ? params : { none: 0 }], where);
  const description = isFunction
    ? Function.prototype.toString.call(strategy)
    : JSON.stringify({ ...strategy, regimes: Object.fromEntries(Object.entries(strategy.regimes ?? {}).map(([k, f]) => [k, String(f)])), scorers: Object.keys(strategy.scorers ?? {}) });
  return {
    description: `${description}\nparams ${JSON.stringify(params)}\noptions ${JSON.stringify(base)}\nfunding ${String(fundingColumn)}`,
    optionsFor(columns) {
      const time = columns["time"];
      if (time === undefined) throw new InvalidArgumentError("columns", `${where}: the bars have no time column`);
      const n = time.length;
      const shared: Record<string, unknown> = { ...base };
      if (fundingColumn !== undefined) {
        const rate = columns[fundingColumn];
        if (rate === undefined) throw new InvalidArgumentError("funding", `${where}: the feed has no ${fundingColumn} column to charge funding from`);
        shared["funding"] = fundingPerBar(time, rate);
      }
      let rule: StrategyPlan["strategy"];
      if (isFunction) rule = { kind: "function", source: "" };
      else {
        const { regimes, ...rest } = strategy;
        const masks: Record<string, ArrayLike<number | boolean>> = {};
        for (const [name, f] of Object.entries(regimes ?? {})) {
          if (typeof f !== "function") throw new InvalidArgumentError("regimes", `${where}: regime filter ${name} must be a function of the bars' columns (a paper trader sees the bars one at a time), got ${typeof f}`);
          masks[name] = f(columns);
        }
        const data = new Map(Object.entries(columns).filter(([k]) => k !== "time"));
        rule = compositeRule({ ...rest, regimes: masks }, data, n, parameters, where);
      }
      const plan: StrategyPlan = { n, columns, base: shared, grid, strategy: rule, periodsPerYear: Number.NaN };
      return variantOptions(plan, params, isFunction ? strategy : undefined, where);
    },
  };
}

/** The parameters of a paper strategy: `params` as given, or a sweep's `best().params`. @internal */
export function paperParams(params: Readonly<Record<string, SweepValue>> | undefined, best: SweepBest | undefined, where: string): Readonly<Record<string, SweepValue>> {
  if (params !== undefined && best !== undefined) throw new InvalidArgumentError("best", `${where}: give params or best (a sweep's best()), not both`);
  const p = best !== undefined ? best.params : (params ?? {});
  if (typeof p !== "object" || p === null || Array.isArray(p)) throw new InvalidArgumentError("params", `${where}: params must be an object of parameter -> value, got ${String(p)}`);
  return p;
}
