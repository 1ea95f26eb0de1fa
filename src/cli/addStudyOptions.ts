import { Command, Option } from "commander";
import type { Weights } from "../signals/weights.js";
import { choiceOption, integerOption, numberOption, parseCoins, parseWeights, timeOption } from "./options.js";
import { engineFlag } from "./engineFlags.js";
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

/** The backtest-option flags addStudyOptions adds (with the study's defaults); a command adding the rest of the flag table leaves these out. */
export const STUDY_ENGINE_FLAGS: ExceptFlags = ["--fee-bps", "--slippage-bps", "--fill", "--units", "--no-shorts", "--cash"];

/** Long flags a command leaves out of the shared options (they do not apply to it), e.g. `["--seed"]`. */
export type ExceptFlags = readonly string[];

function addAll(cmd: Command, options: readonly Option[], except: ExceptFlags): Command {
  for (const o of options) if (o.long === undefined || !except.includes(o.long)) cmd.addOption(o);
  return cmd;
}

/** The data-source options: embedded server or live service, coins, window, bar size. */
function dataSourceOptions(): Option[] {
  const d = DEFAULT_STUDY;
  return [
    new Option("--base-url <url>", "use a live service instead of the embedded replay server [env MI_BASE_URL]; key from env MI_API_KEY"),
    new Option("--seed <n>", "simulator seed of the embedded replay server").argParser(integerOption("seed", 0, 2 ** 31 - 1)).default(42),
    new Option("--clock <time>", 'end of the period on the embedded server: ISO date/time (UTC), epoch ms, or "now"')
      .argParser(timeOption("clock"))
      .default(DEMO_CLOCK, new Date(DEMO_CLOCK).toISOString().slice(0, 10)),
    new Option("--coins <list>", `coins, comma-separated, or "all"`).argParser(parseCoins).default([...d.coins]),
    new Option("--hours <n>", "history window in hours, up to the service's 720").argParser(integerOption("hours", 2, 720)).default(720),
    new Option("--bar <minutes>", "bar size in minutes: the signal is read and positions set at each bar's close").argParser(integerOption("bar", 1, 1440)).default(d.barMinutes),
  ];
}

/** Add the data-source options (embedded server or live service, coins, window, bar size) to a command, but those in `except`: `milab sweep` and the study commands. */
export function addDataSourceOptions(cmd: Command, except: ExceptFlags = []): Command {
  return addAll(cmd, dataSourceOptions(), except);
}

/** Add the data-source and strategy options to a command, but those in `except` (flags that do not apply to it). */
export function addStudyOptions(cmd: Command, except: ExceptFlags = []): Command {
  const d = DEFAULT_STUDY;
  return addAll(
    cmd,
    [
      ...dataSourceOptions(),
      new Option("--weights <list>", "composite weights, e.g. imbalance=0.4,funding=0.3,basis_spread=0.3 (sum 1) [the service's]").argParser(parseWeights),
      new Option("--threshold <x>", "|composite| below this is neutral (flat)").argParser(numberOption("threshold", 0, 1)).default(d.threshold),
      // the backtest options' flags come from the one flag table (engineFlags), with the study's defaults
      engineFlag("feeBps", d.feeBps),
      engineFlag("slippageBps", d.slippageBps),
      engineFlag("fill", d.fill),
      engineFlag("units", d.units),
      new Option("--sizing <mode>", "fixed (full size) or confidence (size x the composite's confidence)").argParser(choiceOption("sizing", ["fixed", "confidence"] as const)).default(d.sizing),
      engineFlag("shorts", undefined, "sell signals go flat instead of short"),
      new Option("--no-regime-filter", "trade through extreme volatility too"),
      new Option("--no-funding", "do not charge perpetual funding"),
      engineFlag("initialCash", d.initialCash, "starting cash of each backtest (the CLI's own default below; the library's backtest() starts at 10,000)"),
      new Option("--no-real-data", "skip the section on real Coinbase + Hyperliquid data"),
      new Option("--no-variants", "skip the what-if sweep (your rule vs the best of a weight x threshold sweep, in and out of sample, DSR and PBO)"),
      new Option("-q, --quiet", "no progress bar").default(false),
    ],
    except,
  );
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
