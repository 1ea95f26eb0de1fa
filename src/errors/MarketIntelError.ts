/**
 * Base class of every error the library throws on purpose. Catch this to
 * handle all of them; check the subclass (or `code`) to tell them apart.
 */
export class MarketIntelError extends Error {
  /** Stable machine-readable code, e.g. `"INVALID_ARGUMENT"`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}
