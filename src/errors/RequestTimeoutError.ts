import { MarketIntelError } from "./MarketIntelError.js";

/**
 * A request (headers and body) did not complete within `timeoutMs`, on every
 * attempt.
 * @example
 * createClient({ timeoutMs: 30_000 }) // give slow history queries more time
 */
export class RequestTimeoutError extends MarketIntelError {
  /** Request URL (credentials never appear in it). */
  readonly url: string;
  /** The per-attempt time limit that was exceeded, in ms. */
  readonly timeoutMs: number;

  constructor(url: string, timeoutMs: number) {
    super(
      "REQUEST_TIMEOUT",
      `GET ${url} did not answer within ${timeoutMs} ms: raise timeoutMs, ask for a shorter window ` +
        `(e.g. fewer hours), or check that the service is reachable`,
    );
    this.url = url;
    this.timeoutMs = timeoutMs;
  }
}
