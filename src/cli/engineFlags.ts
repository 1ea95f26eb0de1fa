import { Option, type Command } from "commander";
import type { PaperBacktestOptions } from "../paper/paperStrategy.js";
import { choiceOption, integerOption, numberOption } from "./options.js";

/** One backtest option as a flag: the library option it sets, its flag, help and parser. */
interface EngineFlag {
  /** The backtest option (BacktestOptions' key) the flag sets. */
  readonly key: keyof PaperBacktestOptions;
  /** The flag with its argument, e.g. `--stop-loss <fraction>`; a `--no-x` flag turns the boolean option off. */
  readonly flag: string;
  readonly help: string;
  readonly parse?: (raw: string) => unknown;
}

/**
 * The backtest options a `milab` command takes as flags, written once: `milab paper`,
 * `milab backtest` (the composite study and `--strategy`) and `milab sweep --strategy` add them
 * from here ({@link engineFlag}, {@link addEngineFlags}) and read them back with
 * {@link engineOptions}. The flag is the option's name in kebab case (the rule of cliTerms),
 * `initialCash` is `--cash`. Ranges are the flag's; the library checks the rest once.
 */
export const ENGINE_FLAGS: readonly EngineFlag[] = [
  { key: "feeBps", flag: "--fee-bps <bps>", help: "taker fee per side, bps of traded notional", parse: numberOption("fee-bps", 0, 1000) },
  { key: "slippageBps", flag: "--slippage-bps <bps>", help: "slippage per side, bps of traded notional", parse: numberOption("slippage-bps", 0, 1000) },
  { key: "stopLoss", flag: "--stop-loss <fraction>", help: "stop-loss: exit when the price moves this fraction against the entry (0.02 = 2%)", parse: numberOption("stop-loss", 0, 1) },
  { key: "takeProfit", flag: "--take-profit <fraction>", help: "take-profit: exit when the price moves this fraction for the entry (0.05 = 5%)", parse: numberOption("take-profit", 0, 1000) },
  { key: "fill", flag: "--fill <mode>", help: "fill at the decision bar's close (next_close) or the next bar's open", parse: choiceOption("fill", ["next_close", "next_open"] as const) },
  { key: "units", flag: "--units <mode>", help: "fractional or whole coins", parse: choiceOption("units", ["fractional", "whole"] as const) },
  { key: "size", flag: "--size <fraction>", help: "position size, fraction of equity per unit of target", parse: numberOption("size", 0, 100) },
  { key: "maxLeverage", flag: "--max-leverage <x>", help: "largest |position|, multiple of equity", parse: numberOption("max-leverage", 0, 100) },
  { key: "delayBars", flag: "--delay-bars <n>", help: "bars between a decision and its fill (latency)", parse: integerOption("delay-bars", 0, 10_000) },
  { key: "neutral", flag: "--neutral <mode>", help: "a neutral target goes flat or holds the position", parse: choiceOption("neutral", ["flat", "hold"] as const) },
  { key: "initialCash", flag: "--cash <x>", help: "starting cash", parse: numberOption("cash", 1, 1e12) },
  { key: "shorts", flag: "--no-shorts", help: "sell targets go flat instead of short" },
];

const BY_KEY = new Map(ENGINE_FLAGS.map((f) => [f.key, f]));

/** The long flag of an entry, e.g. `--stop-loss` (and `--no-shorts`). */
function longOf(f: EngineFlag): string {
  return f.flag.split(" ")[0] as string;
}

/** The commander option of one backtest option, with the command's default if it has one (`milab backtest`'s study costs). */
export function engineFlag(key: keyof PaperBacktestOptions, defaultValue?: unknown, help?: string): Option {
  const f = BY_KEY.get(key);
  if (f === undefined) throw new Error(`engineFlag: internal: no flag for ${String(key)}`);
  const o = new Option(f.flag, help ?? f.help);
  if (f.parse !== undefined) o.argParser(f.parse);
  if (defaultValue !== undefined) o.default(defaultValue);
  return o;
}

/** Add every backtest-option flag to a command but those in `except` (long flags the command already has). */
export function addEngineFlags(cmd: Command, except: readonly string[] = []): Command {
  for (const f of ENGINE_FLAGS) if (!except.includes(longOf(f))) cmd.addOption(engineFlag(f.key));
  return cmd;
}

/** The backtest options set by the flags in `parsed` (commander's camel-case values): only those given (and `shorts` only when off). */
export function engineOptions(parsed: Readonly<Record<string, unknown>>): PaperBacktestOptions {
  const out: Record<string, unknown> = {};
  for (const f of ENGINE_FLAGS) {
    const name = f.key === "initialCash" ? "cash" : f.key;
    const v = parsed[name];
    if (v === undefined || (f.key === "shorts" && v === true)) continue;
    out[f.key] = v;
  }
  return out as PaperBacktestOptions;
}
