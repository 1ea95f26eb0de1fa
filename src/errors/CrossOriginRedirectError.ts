import { MarketIntelError } from "./MarketIntelError.js";

/**
 * The service answered a redirect the client will not follow: to another
 * origin (scheme, host or port differ; the API key and any credentials would
 * go to a third party, so the client refuses rather than forward or drop them;
 * code `CROSS_ORIGIN_REDIRECT`), or more than 5 hops (a loop; code
 * `TOO_MANY_REDIRECTS`). Same-origin redirects are followed with the same
 * headers. Never retried.
 * @example
 * catch (e) { if (e instanceof CrossOriginRedirectError) console.log(e.location); }
 */
export class CrossOriginRedirectError extends MarketIntelError {
  /** Request URL (credentials never appear in it). */
  readonly url: string;
  /** Where the service pointed (redacted like `url`). */
  readonly location: string;

  constructor(url: string, location: string, kind: "cross-origin" | "too-many") {
    super(
      kind === "cross-origin" ? "CROSS_ORIGIN_REDIRECT" : "TOO_MANY_REDIRECTS",
      kind === "cross-origin"
        ? `GET ${url} redirected to another origin (${location}); the client does not follow it so the API key never leaves ` +
            "the configured service: point baseUrl at the final address"
        : `GET ${url} redirected more than 5 times (last to ${location}): a redirect loop; point baseUrl at the final address`,
    );
    this.url = url;
    this.location = location;
  }
}
