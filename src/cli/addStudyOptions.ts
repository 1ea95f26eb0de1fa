import { Command, Option } from "commander";
import type { Weights } from "../signals/weights.js";
import { choiceOption, integerOption, numberOption, parseCoins, parseWeights, timeOption } from "./options.js";
import type { DataSourceOptions } from "./loadJobData.js";
import { DEFAULT_STUDY, type StudyOptions } from "./study/runStudy.js";

/** The demo's default fixed clock: reproducible numbers on every machine. */
export const DEMO_CLOCK = Date.UTC(2026, 10, 1);

/** Options shared by `demo`, `backtest` and `report`, as commander parses them. */
export interface StudyCliOptions extends DataSourceOptions {
  readonly bar: number;
  readonly weights?: Weights | undefined;
  readonly threshold: number;
  readonly feeBps: number;
  readonly slippageBps: number;
  readonly fill: "next_close" | "next_open";
  readonly units: "fractional" | "whole";
  readonly sizing: "fixed" | "confidence";
  readonly shorts: boolean;
  readonly regimeFilter: boolean;
  readonly funding: boolean;
  readonly cash: number;
  readonly realData: boolean;
  readonly variants: boolean;
  readonly quiet: boolean;
}

/** Add the data-source options (embedded server or live service, coins, window, bar size) to a command: `milab sweep` and the study commands. */
export function addDataSourceOptions(cmd: Command): Command {
  const d = DEFAULT_STUDY;
  return cmd
    .option("--base-url <url>", "use a live service instead of the embedded replay server [env MI_BASE_URL]; key from env MI_API_KEY")
    .option("--seed <n>", "simulator seed of the embedded replay server", integerOption("seed", 0, 2 ** 31 - 1), 42)
    .option("--clock <time>", 'end of the period on the embedded server: ISO date/time (UTC), epoch ms, or "now"', timeOption("clock"), DEMO_CLOCK)
    .option("--coins <list>", `coins, comma-separated, or "all"`, parseCoins, [...d.coins])
    .option("--hours <n>", "history window in hours, up to the service's 720", integerOption("hours", 2, 720), 720)
    .option("--bar <minutes>", "bar size in minutes: the signal is read and positions set at each bar's close", integerOption("bar", 1, 1440), d.barMinutes);
}

/** Add the data-source and strategy options to a command. */
export function addStudyOptions(cmd: Command): Command {
  const d = DEFAULT_STUDY;
  return addDataSourceOptions(cmd)
    .option("--weights <list>", "composite weights, e.g. imbalance=0.4,funding=0.3,basis_spread=0.3 (sum 1) [the service's]", parseWeights)
    .option("--threshold <x>", "|composite| below this is neutral (flat)", numberOption("threshold", 0, 1), d.threshold)
    .option("--fee-bps <x>", "taker fee per side, bps of traded notional", numberOption("fee-bps", 0, 1000), d.feeBps)
    .option("--slippage-bps <x>", "slippage per side, bps of traded notional", numberOption("slippage-bps", 0, 1000), d.slippageBps)
    .addOption(new Option("--fill <mode>", "fill at the decision bar's close (next_close) or the next bar's open").argParser(choiceOption("fill", ["next_close", "next_open"] as const)).default(d.fill))
    .addOption(new Option("--units <mode>", "fractional or whole coins").argParser(choiceOption("units", ["fractional", "whole"] as const)).default(d.units))
    .addOption(new Option("--sizing <mode>", "fixed (full size) or confidence (size x the composite's confidence)").argParser(choiceOption("sizing", ["fixed", "confidence"] as const)).default(d.sizing))
    .option("--no-shorts", "sell signals go flat instead of short")
    .option("--no-regime-filter", "trade through extreme volatility too")
    .option("--no-funding", "do not charge perpetual funding")
    .option("--cash <x>", "starting cash", numberOption("cash", 1, 1e12), d.initialCash)
    .option("--no-real-data", "skip the section on real Coinbase + Hyperliquid data")
    .option("--no-variants", "skip the what-if sweep (your rule vs the best of a weight x threshold sweep, in and out of sample, DSR and PBO)")
    .option("-q, --quiet", "no progress bar", false);
}

/** Study options from parsed CLI options. */
export function toStudyOptions(o: StudyCliOptions): StudyOptions {
  return {
    ...DEFAULT_STUDY,
    coins: o.coins,
    barMinutes: o.bar,
    weights: o.weights,
    threshold: o.threshold,
    feeBps: o.feeBps,
    slippageBps: o.slippageBps,
    fill: o.fill,
    units: o.units,
    sizing: o.sizing,
    shorts: o.shorts,
    regimeFilter: o.regimeFilter,
    funding: o.funding,
    initialCash: o.cash,
  };
}
