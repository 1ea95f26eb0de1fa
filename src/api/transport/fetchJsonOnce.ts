import { HttpError } from "../../errors/HttpError.js";
import { MarketIntelError } from "../../errors/MarketIntelError.js";
import { MalformedResponseError } from "../../errors/MalformedResponseError.js";
import { NetworkError } from "../../errors/NetworkError.js";
import { RateLimitedError } from "../../errors/RateLimitedError.js";
import { RequestTimeoutError } from "../../errors/RequestTimeoutError.js";
import { parseRetryAfter } from "./parseRetryAfter.js";
import { readLimitedBody } from "./readLimitedBody.js";
import { redactSecrets } from "./redactSecrets.js";

/** One attempt's inputs. `url` is sent; `safeUrl` is what errors show. */
export interface AttemptRequest {
  readonly fetch: typeof globalThis.fetch;
  readonly url: string;
  readonly safeUrl: string;
  /** Strings never to show (the API key): removed from body excerpts. */
  readonly secrets: readonly string[];
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly rateLimitPerMinute: number;
  readonly clock: () => number;
  /**
   * A faster reader for one known body shape, tried on the raw bytes of a 2xx
   * response before `JSON.parse`; it returns `undefined` for anything it does
   * not recognise, and the body is then parsed as JSON as usual.
   */
  readonly decode?: ((bytes: Uint8Array) => unknown) | undefined;
}

/** A successful attempt: parsed JSON and the caching header. */
export interface AttemptResult {
  readonly body: unknown;
  readonly status: number;
  readonly bytes: number;
  readonly cacheControl: string | null;
}

const EXCERPT = 300;
/** UTF-8, a leading BOM dropped (WHATWG decode). */
const UTF8 = new TextDecoder();

/**
 * One GET: time limit over headers AND body (AbortController), status check,
 * size limit, JSON parse. Every failure is a typed error; an HTTP error
 * carries the server's Retry-After (if any) as `retryAfterMs`.
 */
export async function fetchJsonOnce(req: AttemptRequest): Promise<AttemptResult> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, req.timeoutMs);
  try {
    let res: Response;
    try {
      const fetchImpl = req.fetch; // called unbound: browser-style fetch rejects a foreign `this`
      res = await fetchImpl(req.url, { method: "GET", headers: { ...req.headers }, signal: controller.signal });
    } catch (err) {
      throw timedOut ? new RequestTimeoutError(req.safeUrl, req.timeoutMs) : new NetworkError(req.safeUrl, err);
    }
    let raw: Uint8Array;
    let bytes: number;
    try {
      ({ body: raw, bytes } = await readLimitedBody(res, req.maxResponseBytes, req.safeUrl));
    } catch (err) {
      if (timedOut) throw new RequestTimeoutError(req.safeUrl, req.timeoutMs);
      if (err instanceof MarketIntelError) throw err;
      throw new NetworkError(req.safeUrl, err);
    }
    if (res.status < 200 || res.status > 299) {
      const text = UTF8.decode(raw);
      const excerpt = redactSecrets(text, req.secrets).slice(0, EXCERPT);
      const retryAfterMs = parseRetryAfter(res.headers.get("retry-after"), req.clock());
      throw res.status === 429
        ? new RateLimitedError(req.safeUrl, retryAfterMs, excerpt, req.rateLimitPerMinute)
        : new HttpError(res.status, req.safeUrl, excerpt, { retryAfterMs });
    }
    const fast = req.decode?.(raw);
    if (fast !== undefined) return { body: fast, status: res.status, bytes, cacheControl: res.headers.get("cache-control") };
    const text = UTF8.decode(raw);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (err) {
      throw new MalformedResponseError(req.safeUrl, redactSecrets(text, req.secrets).slice(0, EXCERPT), err);
    }
    return { body, status: res.status, bytes, cacheControl: res.headers.get("cache-control") };
  } finally {
    clearTimeout(timer);
  }
}
