import { InvalidArgumentError } from "./InvalidArgumentError.js";

/**
 * Check that an options argument is an object (or undefined), so a call written
 * the 0.1 way, with the option as a bare positional value
 * (`cumReturns(r, 100)`), fails with the new form instead of being misread.
 * @param where the function's name, for the message
 * @param example the new call, e.g. `"cumReturns(returns, { startingValue: 100 })"`
 * @throws InvalidArgumentError when options is neither undefined nor a plain object
 * @example checkOptionsObject(100, "cumReturns", "cumReturns(returns, { startingValue: 100 })") // throws
 * @internal
 */
export function checkOptionsObject(options: unknown, where: string, example: string): void {
  if (options === undefined) return;
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new InvalidArgumentError(
      "options",
      `${where}: options must be an object, e.g. ${example} (options are no longer positional), got ${JSON.stringify(options) ?? String(options)}`,
    );
  }
}
