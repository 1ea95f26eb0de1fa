/**
 * The key under which a sweep's `best().params` / `paramsOf(i)` lists the parameters that are
 * the strategy's own (a strategy function's `fast`, a composite's `w_<component>`, `threshold`,
 * `regime`), not backtest options. A symbol key is copied by an object spread, so
 * `backtest({ ...data, position, ...best.params })` carries the list along and the backtest's
 * option check leaves those names alone (they set nothing there) while still refusing a
 * mistyped option of the caller's own. Registered (`Symbol.for`) so every copy of the library
 * agrees on it.
 * @internal
 */
export const STRATEGY_PARAMETERS: unique symbol = Symbol.for("market-intel-lab.strategyParameters") as never;

/**
 * Mark `names` in `params` as the strategy's own parameters (see STRATEGY_PARAMETERS); returns params.
 * @internal
 */
export function markStrategyParameters<T extends object>(params: T, names: readonly string[]): T {
  if (names.length > 0) Object.defineProperty(params, STRATEGY_PARAMETERS, { value: Object.freeze([...names]), enumerable: true, writable: false, configurable: false });
  return params;
}

/** The strategy parameters an options object carries (from a sweep's params spread into it), none when unmarked. @internal */
export function strategyParametersOf(options: object): readonly string[] {
  const names = (options as { [STRATEGY_PARAMETERS]?: unknown })[STRATEGY_PARAMETERS];
  return Array.isArray(names) ? (names as readonly string[]) : [];
}
