import { MarketIntelError } from "./MarketIntelError.js";

/**
 * A caller passed a bad argument. Thrown before any request is sent or any
 * computation starts. The message names the function, the argument, what was
 * received and what is allowed, e.g.
 * `history: hours must be a positive integer up to 720, got -3`.
 */
export class InvalidArgumentError extends MarketIntelError {
  /** Name of the offending argument, e.g. `"hours"`. */
  readonly argument: string;

  constructor(argument: string, message: string) {
    super("INVALID_ARGUMENT", message);
    this.argument = argument;
  }
}
