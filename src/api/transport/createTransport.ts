import pRetry from "p-retry";
import pThrottle from "p-throttle";
import { HttpError } from "../../errors/HttpError.js";
import { MarketIntelError } from "../../errors/MarketIntelError.js";
import { backoffDelay } from "./backoffDelay.js";
import type { ClientEvent } from "./ClientEvent.js";
import { createRequestMemo } from "./createRequestMemo.js";
import { fetchJsonOnce, type AttemptResult } from "./fetchJsonOnce.js";
import { isRetryable } from "./isRetryable.js";
import { parseMaxAge } from "./parseMaxAge.js";
import { redactUrl } from "./redactUrl.js";

/** Resolved transport settings (the client fills in every default). */
export interface TransportOptions {
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  /** `Authorization` header value made from credentials in baseUrl (already removed from it). */
  readonly authorization?: string | undefined;
  /** Strings never shown in errors or events (the key, URL credentials, the auth header value). */
  readonly secrets?: readonly string[] | undefined;
  readonly fetch: typeof globalThis.fetch;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryDelayMs: number;
  readonly maxRetryDelayMs: number;
  readonly maxRetryAfterMs: number;
  readonly rateLimitPerMinute: number;
  readonly cacheTtlMs: number;
  readonly maxResponseBytes: number;
  readonly userAgent: string;
  readonly onEvent: ((event: ClientEvent) => void) | undefined;
  readonly now: () => number;
  readonly random: () => number;
}

/** Query values the transport can encode. */
export type QueryValue = string | number | boolean;

/** A fetched JSON body and where it came from. */
export interface TransportResponse {
  readonly body: unknown;
  /** Redacted URL (safe to show). */
  readonly url: string;
  readonly fromCache: boolean;
}

/**
 * A fast reader for one endpoint's body (see `AttemptRequest.decode`). Its
 * results are cached apart from plain JSON bodies of the same URL (`name` is
 * part of the cache key), so `raw()` never sees them.
 */
export interface BodyReader {
  readonly name: string;
  readonly decode: (bytes: Uint8Array) => unknown;
}

/** GET `path` with `params` as JSON through cache, de-duplication, rate limit and retries. */
export type Transport = ((
  path: string,
  params?: Readonly<Record<string, QueryValue | undefined>>,
  reader?: BodyReader,
) => Promise<TransportResponse>) & {
  /** Forget every cached response. */
  clearCache(): void;
};

/**
 * Build the request pipeline shared by all calls of one client:
 * cache (URL key; TTL from `Cache-Control: max-age`, else `cacheTtlMs`) ->
 * in-flight de-duplication of identical concurrent GETs -> retries (p-retry;
 * network errors, timeouts, 408, 429, 5xx; delay = the server's Retry-After
 * when given, else exponential backoff with jitter; a Retry-After longer than
 * `maxRetryAfterMs` is not waited for, the error is thrown at once) ->
 * rate limiter (p-throttle, `rateLimitPerMinute` attempts per rolling
 * minute, counting retries) -> one attempt with a timeout and a size limit
 * (same-origin redirects followed, up to 5; a cross-origin one refused).
 */
export function createTransport(options: TransportOptions): Transport {
  const memo = createRequestMemo(options.now);
  // Never shown: the API key, credentials given in baseUrl (user:pass@host) and the header made from them.
  const secrets = [options.apiKey ?? "", new URL(options.baseUrl).password, ...(options.secrets ?? [])].filter((x) => x !== "");
  const emit = (event: ClientEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // A logging hook must never break a request.
    }
  };
  const headers: Record<string, string> = { accept: "application/json", "user-agent": options.userAgent };
  if (options.apiKey !== undefined) headers["x-api-key"] = options.apiKey;
  if (options.authorization !== undefined) headers["authorization"] = options.authorization;

  const throttle = pThrottle({
    limit: options.rateLimitPerMinute,
    interval: 60_000,
    strict: true,
    // p-throttle passes the delayed call's arguments: (url, safeUrl, attempt).
    onDelay: (_url: string, safeUrl: string) => emit({ type: "rate-limit-wait", url: safeUrl }),
  });
  const attempt = throttle(async (url: string, safeUrl: string, n: number, reader?: BodyReader): Promise<AttemptResult> => {
    emit({ type: "request", url: safeUrl, attempt: n });
    const started = performance.now();
    let result: AttemptResult;
    try {
      result = await fetchJsonOnce({
        fetch: options.fetch,
        url,
        safeUrl,
        secrets,
        headers,
        timeoutMs: options.timeoutMs,
        maxResponseBytes: options.maxResponseBytes,
        rateLimitPerMinute: options.rateLimitPerMinute,
        now: options.now,
        decode: reader?.decode,
      });
    } catch (error) {
      const code = error instanceof MarketIntelError ? error.code : "UNKNOWN";
      const message = error instanceof Error ? error.message : String(error);
      emit({ type: "failure", url: safeUrl, attempt: n, code, ...(error instanceof HttpError ? { status: error.status } : {}), message });
      throw error;
    }
    emit({ type: "response", url: safeUrl, status: result.status, bytes: result.bytes, durationMs: performance.now() - started });
    return result;
  });

  const fetchWithRetries = (url: string, safeUrl: string, reader: BodyReader | undefined): Promise<AttemptResult> =>
    pRetry((n) => attempt(url, safeUrl, n, reader), {
      retries: options.retries,
      minTimeout: 0, // the delay is chosen in onFailedAttempt (Retry-After or backoff)
      shouldRetry: ({ error }) => isRetryable(error),
      onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
        if (retriesLeft <= 0 || !isRetryable(error)) return;
        const hinted = error instanceof HttpError ? error.retryAfterMs : Number.NaN;
        if (hinted > options.maxRetryAfterMs) throw error;
        const delayMs = Number.isNaN(hinted)
          ? backoffDelay(attemptNumber, options.retryDelayMs, options.maxRetryDelayMs, options.random)
          : hinted;
        emit({ type: "retry", url: safeUrl, attempt: attemptNumber, delayMs, reason: error.message });
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      },
    });

  const get = async (
    path: string,
    params: Readonly<Record<string, QueryValue | undefined>> = {},
    reader?: BodyReader,
  ): Promise<TransportResponse> => {
    const query = new URLSearchParams();
    for (const key of Object.keys(params).sort()) {
      const value = params[key];
      if (value !== undefined) query.append(key, String(value));
    }
    const qs = query.toString();
    const url = `${options.baseUrl}${path}${qs === "" ? "" : `?${qs}`}`;
    const safeUrl = redactUrl(url, secrets);
    const { body, source } = await memo.run(reader === undefined ? url : `${url}#${reader.name}`, async () => {
      const result = await fetchWithRetries(url, safeUrl, reader);
      const ttlMs = options.cacheTtlMs <= 0 ? 0 : parseMaxAge(result.cacheControl, options.cacheTtlMs);
      return { body: result.body, ttlMs };
    });
    if (source === "cache") emit({ type: "cache-hit", url: safeUrl });
    if (source === "in-flight") emit({ type: "dedupe", url: safeUrl });
    return { body, url: safeUrl, fromCache: source !== "network" };
  };
  return Object.assign(get, { clearCache: () => memo.clear() });
}
