import { MarketIntelError } from "./MarketIntelError.js";

/**
 * A 2xx response body was not valid JSON (truncated, HTML error page, ...).
 * `bodyExcerpt` holds its first 300 characters.
 * @example
 * catch (e) { if (e instanceof MalformedResponseError) console.log(e.bodyExcerpt); }
 */
export class MalformedResponseError extends MarketIntelError {
  /** Request URL (credentials never appear in it). */
  readonly url: string;
  /** Start of the body (at most 300 characters). */
  readonly bodyExcerpt: string;

  constructor(url: string, bodyExcerpt: string, cause: unknown) {
    super(
      "MALFORMED_RESPONSE",
      `GET ${url} returned a body that is not valid JSON (${cause instanceof Error ? cause.message : String(cause)}); ` +
        `check that baseUrl points at the Market Intelligence API. Body starts: ${bodyExcerpt}`,
      { cause },
    );
    this.url = url;
    this.bodyExcerpt = bodyExcerpt;
  }
}
