import { InvalidArgumentError as CommanderArgumentError } from "commander";
import { decimalNumber } from "../data/decimalNumber.js";
import { toEpochMs } from "../data/toEpochMs.js";
import { COINS, parseCoin, type Coin } from "../domain/coins.js";
import { COMPONENT_NAMES, validateWeights, type Weights } from "../signals/weights.js";
import { inCliTerms } from "./cliTerms.js";

/**
 * Argument parsers for commander options. Each throws commander's own
 * InvalidArgumentError, which commander prints as one line naming the option,
 * e.g. `error: option '--port <n>' argument '-3' is invalid. port must be an integer 0..65535, got -3`,
 * and exits with the usage code (2).
 */

/** An integer in [min, max]. */
export function integerOption(name: string, min: number, max: number): (raw: string) => number {
  return (raw: string) => {
    const value = decimalNumber(raw);
    if (raw.trim() === "" || !Number.isInteger(value) || value < min || value > max) {
      throw new CommanderArgumentError(`${name} must be an integer ${min}..${max}, got ${raw}`);
    }
    return value;
  };
}

/** A finite number in [min, max]. */
export function numberOption(name: string, min: number, max: number): (raw: string) => number {
  return (raw: string) => {
    const value = decimalNumber(raw);
    if (raw.trim() === "" || !Number.isFinite(value) || value < min || value > max) {
      throw new CommanderArgumentError(`${name} must be a number ${min}..${max}, got ${raw}`);
    }
    return value;
  };
}

/**
 * A point in time: `now`, an ISO 8601 date or date-time (UTC unless it says
 * otherwise), or epoch milliseconds (10 digits or more), read by the library's
 * one time rule (`toEpochMs`, 1970..2099). Returns epoch ms, or undefined for `now`.
 */
export function timeOption(name: string): (raw: string) => number | undefined {
  return (raw: string) => {
    const text = raw.trim();
    if (text.toLowerCase() === "now") return undefined;
    const ms = /^\d{10,}$/.test(text) || /^\d{4}-\d{2}-\d{2}/.test(text) ? toEpochMs(text, { invalid: "nan" }) : Number.NaN;
    if (Number.isNaN(ms)) {
      throw new CommanderArgumentError(`${name} must be "now", an ISO date like 2026-11-01 or 2026-11-01T12:00Z, or epoch ms, got ${raw}`);
    }
    return ms;
  };
}

/** One of a fixed set of words (case-insensitive); returns the canonical spelling. */
export function choiceOption<T extends string>(name: string, choices: readonly T[]): (raw: string) => T {
  return (raw: string) => {
    const found = choices.find((c) => c.toLowerCase() === raw.trim().toLowerCase());
    if (found === undefined) throw new CommanderArgumentError(`${name} must be one of ${choices.join(", ")}, got ${raw}`);
    return found;
  };
}

/** Parse `btc,eth` (or `all`) into coins. */
export function parseCoins(raw: string): Coin[] {
  if (raw.trim().toLowerCase() === "all") return [...COINS];
  const coins: Coin[] = [];
  const bad: string[] = [];
  for (const part of raw.split(",")) {
    try {
      const coin = parseCoin(part, "coins");
      if (!coins.includes(coin)) coins.push(coin);
    } catch {
      bad.push(JSON.stringify(part.trim()));
    }
  }
  // every bad item named, not only the list
  if (bad.length > 0) throw new CommanderArgumentError(`coins must be a comma-separated list of ${COINS.join(", ")} (or "all"); ${bad.join(", ")} ${bad.length === 1 ? "is not one" : "are not"} (got ${raw})`);
  return coins;
}

/** Parse `imbalance=0.4,funding=0.6` into validated weights (they must sum to 1). */
export function parseWeights(raw: string): Weights {
  const w: Record<string, number> = {};
  const malformed: string[] = [];
  const unknown: string[] = [];
  for (const part of raw.split(",")) {
    const [name, value, extra] = part.split("=").map((s) => s.trim());
    const v = decimalNumber(value ?? "");
    if (name === undefined || value === undefined || extra !== undefined || value === "" || !Number.isFinite(v)) malformed.push(JSON.stringify(part.trim()));
    else if (!(COMPONENT_NAMES as readonly string[]).includes(name)) unknown.push(JSON.stringify(name));
    else w[name] = v;
  }
  if (malformed.length > 0) {
    throw new CommanderArgumentError(`weights must look like imbalance=0.3,funding=0.25,... got ${raw}: not name=number: ${malformed.join(", ")}`);
  }
  if (unknown.length > 0) {
    throw new CommanderArgumentError(`weights: unknown component${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}; components are ${COMPONENT_NAMES.join(", ")}`);
  }
  try {
    return validateWeights(w, "weights");
  } catch (err) {
    throw new CommanderArgumentError(inCliTerms(err instanceof Error ? err.message : String(err), ["--weights"]));
  }
}
