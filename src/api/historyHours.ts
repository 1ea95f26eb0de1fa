import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** Longest `/v1/history` window the service serves, in hours (30 days). */
export const MAX_HISTORY_HOURS = 720;

/**
 * Check a `/v1/history` window: an integer number of hours, 1 to
 * {@link MAX_HISTORY_HOURS}; undefined gives the default, 24.
 * @throws InvalidArgumentError naming `where` and the value
 * @example historyHours(undefined, "history") // 24
 */
export function historyHours(value: unknown, where: string): number {
  if (value === undefined) return 24;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_HISTORY_HOURS) {
    throw new InvalidArgumentError("hours", `${where}: hours must be a positive integer up to ${MAX_HISTORY_HOURS}, got ${String(value)}`);
  }
  return value;
}
