import { MarketIntelError } from "./MarketIntelError.js";

/**
 * The service answered with a non-2xx HTTP status (after any retries).
 * `url` never contains credentials (the API key travels in a header and is
 * never part of a URL, message or event); `bodyExcerpt` is the first 300
 * characters of the response body, for diagnosis.
 * @example
 * try { await client.snapshot(); } catch (e) { if (e instanceof HttpError) console.log(e.status); }
 */
export class HttpError extends MarketIntelError {
  /** HTTP status code, e.g. 503. */
  readonly status: number;
  /** Request URL, with any secret-looking query parameter redacted. */
  readonly url: string;
  /** Start of the response body (at most 300 characters). */
  readonly bodyExcerpt: string;
  /** Wait the service asked for with `Retry-After`, in ms; NaN when it sent none. */
  readonly retryAfterMs: number;

  constructor(
    status: number,
    url: string,
    bodyExcerpt: string,
    options?: { message?: string; code?: string; cause?: unknown; retryAfterMs?: number },
  ) {
    super(
      options?.code ?? "HTTP_ERROR",
      options?.message ?? HttpError.describe(status, url, bodyExcerpt),
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.status = status;
    this.url = url;
    this.bodyExcerpt = bodyExcerpt;
    this.retryAfterMs = options?.retryAfterMs ?? Number.NaN;
  }

  private static describe(status: number, url: string, bodyExcerpt: string): string {
    const hint =
      status >= 500
        ? "the service failed; it was retried already, try again later or raise `retries`"
        : status === 404
          ? "check the path and the query parameters"
          : status === 400
            ? "the service rejected the query parameters; see the body below"
            : status === 401 || status === 403
              ? "the service refused access; check `apiKey`"
              : "see the body below";
    const body = bodyExcerpt === "" ? "" : `; body: ${bodyExcerpt}`;
    return `GET ${url} answered HTTP ${status}: ${hint}${body}`;
  }
}
