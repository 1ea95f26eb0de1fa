import { HttpError } from "../../errors/HttpError.js";
import { NetworkError } from "../../errors/NetworkError.js";
import { RequestTimeoutError } from "../../errors/RequestTimeoutError.js";

/**
 * Whether a failed attempt is worth repeating: no HTTP answer (network error,
 * dropped or truncated connection), a timeout, or HTTP 408, 429 or 5xx. Other
 * 4xx, bodies that are too large or not JSON, and schema errors are not:
 * the same request would fail the same way.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof NetworkError || error instanceof RequestTimeoutError) return true;
  if (error instanceof HttpError) return error.status === 408 || error.status === 429 || error.status >= 500;
  return false;
}
