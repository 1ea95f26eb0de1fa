import type { OptionSpec } from "../options/OptionSpec.js";
import type { BacktestOptions } from "./backtest.js";

/**
 * Every option of {@link backtest}, its unit and default (the option table of docs/api.md is
 * written from this), checked where it enters by checkOptions. The compiler holds the keys
 * equal to BacktestOptions'.
 * @internal
 */
export const BACKTEST_OPTION_SPECS = {
  data: { unit: "table with time/close/open/high/low/funding columns", default: "none" },
  time: { unit: "epoch ms UTC per bar", default: "bar index" },
  close: { unit: "price per bar", default: "data's close" },
  open: { unit: "price per bar", default: "data's open" },
  high: { unit: "price per bar", default: "data's high" },
  low: { unit: "price per bar", default: "data's low" },
  funding: { unit: "rate per bar (decimal), or { rate, intervalMs } / { rate, times }", default: "none" },
  coin: { unit: "name", default: "none" },
  outputs: { unit: "list of result fields", default: '["equity"]' },
  periodsPerYear: { unit: "bars per year", default: "inferred from time" },
  position: { unit: "fraction of equity per bar", default: "— (position or signal)" },
  signal: { unit: "> 0 buy, < 0 sell, or labels", default: "— (position or signal)" },
  size: { unit: "fraction of equity", default: "1" },
  neutral: { unit: '"flat" | "hold"', default: '"flat"' },
  shorts: { unit: "boolean", default: "true" },
  sizing: { unit: '{ by: "fixed" | "confidence" | "volatility" }', default: '{ by: "fixed" }' },
  maxLeverage: { unit: "multiple of equity", default: "1" },
  flatWhen: { unit: "truthy per bar = flat", default: "none" },
  initialCash: { unit: "cash", default: "10 000" },
  feeBps: { unit: "bps of traded notional", default: "0", scale: "bps" },
  slippageBps: { unit: "bps of traded notional", default: "0", scale: "bps" },
  spreadBps: { unit: "bps per bar (half paid)", default: "none" },
  fill: { unit: '"next_close" | "next_open"', default: '"next_close"' },
  units: { unit: '"fractional" | "whole"', default: '"fractional"' },
  rebalance: { unit: '"every_bar" | "on_change"', default: '"every_bar" ("on_change" with whole units)' },
  stopLoss: { unit: "fraction of the entry price (0.03 = 3%)", default: "none", scale: "fraction", max: 1, maxExclusive: true },
  takeProfit: { unit: "fraction of the entry price (0.1 = 10%)", default: "none", scale: "fraction" },
  delayBars: { unit: "bars", default: "0" },
  maintenanceMargin: { unit: "fraction of notional (0.005 = 0.5%)", default: "none", scale: "fraction", max: 1, maxExclusive: true },
  liquidationFeeBps: { unit: "bps of liquidated notional", default: "0", scale: "bps" },
  impact: { unit: "{ volume, coefficient?, volatility?, volatilityBars? }", default: "none" },
  into: { unit: "{ equity?, returns?, ... } caller's arrays of the run's length, written in place", default: "fresh arrays" },
} as const satisfies Record<keyof BacktestOptions, OptionSpec>;
