import { MarketIntelError } from "./MarketIntelError.js";

/**
 * The request never got an HTTP answer (connection refused, reset, DNS
 * failure), on every attempt. The underlying error is in `cause`.
 * @example
 * catch (e) { if (e instanceof NetworkError) console.log(e.url, e.cause); }
 */
export class NetworkError extends MarketIntelError {
  /** Request URL (credentials never appear in it). */
  readonly url: string;

  constructor(url: string, cause: unknown) {
    const why = cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause);
    super(
      "NETWORK_ERROR",
      `GET ${url} failed before any HTTP answer (${why}): check baseUrl / MI_BASE_URL and that the service is running`,
      { cause },
    );
    this.url = url;
  }
}
