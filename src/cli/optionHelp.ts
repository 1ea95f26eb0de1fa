import type { Option } from "commander";

/**
 * How `--help` describes an option: its text and, when it has one, its default
 * as a user would type it: a list as `btc,eth`, a word without quotes, a
 * time as the ISO date the option was given (its `defaultValueDescription`),
 * and no default for a flag that takes no value. Used for every command.
 * @example optionHelp(new Option("--coins <list>", "coins").default(["BTC", "ETH"])) // "coins (default: BTC,ETH)"
 */
export function optionHelp(option: Option): string {
  const d: unknown = option.defaultValue;
  const shown =
    option.defaultValueDescription ??
    (d === undefined || typeof d === "boolean" || option.isBoolean() ? undefined : Array.isArray(d) ? d.join(",") : String(d));
  const env = option.envVar !== undefined ? ` [env ${option.envVar}]` : "";
  return shown === undefined || shown === "" ? `${option.description}${env}` : `${option.description} (default: ${shown})${env}`;
}
