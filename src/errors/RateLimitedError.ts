import { HttpError } from "./HttpError.js";

/**
 * The service kept answering HTTP 429 (too many requests) after every retry.
 * `retryAfterMs` (inherited) is the wait the service asked for
 * (`Retry-After`), or NaN if it sent none. The public tier allows 60 requests a minute per IP address.
 * @example
 * catch (e) { if (e instanceof RateLimitedError) await sleep(e.retryAfterMs); }
 */
export class RateLimitedError extends HttpError {
  constructor(url: string, retryAfterMs: number, bodyExcerpt: string, limitPerMinute: number) {
    const wait = Number.isFinite(retryAfterMs) ? `wait ${Math.ceil(retryAfterMs / 1000)} s` : "wait a minute";
    super(429, url, bodyExcerpt, {
      code: "RATE_LIMITED",
      retryAfterMs,
      message:
        `GET ${url} was rate limited (HTTP 429) on every attempt: the service allows 60 requests a minute ` +
        `(this client sends at most ${limitPerMinute}); lower rateLimitPerMinute, share one client between ` +
        `loaders, or ${wait} and try again`,
    });
  }
}
