import { BACKTEST_OPTION_SPECS } from "../backtest/backtestOptionSpecs.js";
import type { OptionSpec } from "../options/OptionSpec.js";
import type { SweepOptions } from "./sweepComposite.js";
import type { SweepStrategyOptions } from "./sweepStrategy.js";

/** The options that run a sweep (threads, shard, stop, progress), the same for both sweeps. */
const RUN = {
  workers: { unit: "threads, 0..256 (0 = calling thread)", default: "0 under 2e7 bar-evaluations, else the cores" },
  shard: { unit: "{ index, count }", default: "all variants" },
  signal: { unit: "AbortSignal", default: "none" },
  onProgress: { unit: "({ done, total }) => void", default: "none" },
} as const satisfies Readonly<Record<string, OptionSpec>>;

const { data: _data, position: _position, signal: _signal, outputs: _outputs, into: _into, ...SHARED_BACKTEST } = BACKTEST_OPTION_SPECS;

/**
 * Every option of {@link sweepStrategy}: the data, the grid, the backtest options every variant
 * shares (as backtest's) and the run's controls. The compiler holds the keys equal to
 * SweepStrategyOptions'.
 * @internal
 */
export const SWEEP_STRATEGY_OPTION_SPECS = {
  ...SHARED_BACKTEST,
  data: { unit: "columns by name, a Panel or a DataFrame", default: "— (required)" },
  grid: { unit: "parameter -> values, or a list of parameter objects", default: "— (required)" },
  periodsPerYear: { unit: "bars per year", default: "inferred from time" },
  variantTimeoutMs: { unit: "ms per variant (worker threads only)", default: "none" },
  ...RUN,
} as const satisfies Record<keyof SweepStrategyOptions, OptionSpec>;

/**
 * Every option of {@link sweepComposite}. The compiler holds the keys equal to SweepOptions'.
 * @internal
 */
export const SWEEP_COMPOSITE_OPTION_SPECS = {
  weights: { unit: "list of weight vectors", default: "— (required)" },
  thresholds: { unit: "fraction of the composite's range, each in [0, 1] (0.1 = buy at composite >= 0.1)", default: "[0.1]", scale: "fraction" },
  allowAnySum: { unit: "boolean", default: "false" },
  missing: { unit: '"renormalise" | "zero" | "nan"', default: '"renormalise"' },
  scorers: { unit: "component -> (value) => score", default: "the library's" },
  from: { unit: '"values" | "scores"', default: '"values"' },
  columns: { unit: "component -> input column name", default: "named after the component" },
  feeBps: BACKTEST_OPTION_SPECS.feeBps,
  slippageBps: BACKTEST_OPTION_SPECS.slippageBps,
  initialCash: BACKTEST_OPTION_SPECS.initialCash,
  fill: { unit: '"next_close"', default: '"next_close"' },
  neutral: BACKTEST_OPTION_SPECS.neutral,
  barFunding: { unit: "rate per bar (decimal)", default: "none" },
  periodsPerYear: { unit: "bars per year", default: "inferred from time, else 365" },
  time: BACKTEST_OPTION_SPECS.time,
  ...RUN,
} as const satisfies Record<keyof SweepOptions, OptionSpec>;
