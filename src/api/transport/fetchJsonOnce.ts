import { HttpError } from "../../errors/HttpError.js";
import { CrossOriginRedirectError } from "../../errors/CrossOriginRedirectError.js";
import { MarketIntelError } from "../../errors/MarketIntelError.js";
import { MalformedResponseError } from "../../errors/MalformedResponseError.js";
import { NetworkError } from "../../errors/NetworkError.js";
import { RateLimitedError } from "../../errors/RateLimitedError.js";
import { RequestTimeoutError } from "../../errors/RequestTimeoutError.js";
import { parseRetryAfter } from "./parseRetryAfter.js";
import { readLimitedBody } from "./readLimitedBody.js";
import { redactSecrets } from "./redactSecrets.js";
import { redactUrl } from "./redactUrl.js";

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
  readonly now: () => number;
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
/** Most redirects followed for one attempt. */
const MAX_REDIRECTS = 5;
/** UTF-8, a leading BOM dropped (WHATWG decode). */
const UTF8 = new TextDecoder();

/**
 * The error behind a failed fetch, safe to show and keep: its message (and
 * its cause's, where Node puts the reason) with every secret redacted, and
 * its `code` (e.g. `ECONNRESET`). The original error is dropped, so no
 * secret survives in `cause` either.
 */
function safeCause(err: unknown, secrets: readonly string[]): Error {
  const e = err instanceof Error ? err : undefined;
  const inner = e?.cause instanceof Error ? e.cause : undefined;
  const message = redactSecrets(inner?.message ?? e?.message ?? String(err), secrets);
  const out = new Error(message);
  const code = (inner as NodeJS.ErrnoException | undefined)?.code ?? (e as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined) Object.assign(out, { code });
  return out;
}

/** True when two absolute URLs share scheme, host and port (RFC 6454). */
function sameOrigin(a: string, b: string): boolean {
  return new URL(a).origin === new URL(b).origin;
}

/**
 * One GET: time limit over headers AND body (AbortController; none when
 * `timeoutMs` is Infinity), same-origin redirects followed with the same
 * headers (up to 5), status check, size limit, JSON parse. Every failure is
 * a typed error; an HTTP error carries the server's Retry-After (if any) as
 * `retryAfterMs`. No message, cause or excerpt contains a secret.
 * @throws CrossOriginRedirectError on a redirect to another origin or more than 5 hops
 */
export async function fetchJsonOnce(req: AttemptRequest): Promise<AttemptResult> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = Number.isFinite(req.timeoutMs)
    ? setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, req.timeoutMs)
    : undefined;
  try {
    let res: Response;
    let url = req.url;
    for (let hop = 0; ; hop++) {
      try {
        const fetchImpl = req.fetch; // called unbound: browser-style fetch rejects a foreign `this`
        res = await fetchImpl(url, { method: "GET", headers: { ...req.headers }, signal: controller.signal, redirect: "manual" });
      } catch (err) {
        throw timedOut ? new RequestTimeoutError(req.safeUrl, req.timeoutMs) : new NetworkError(req.safeUrl, safeCause(err, req.secrets));
      }
      const location = res.status >= 300 && res.status <= 399 ? res.headers.get("location") : null;
      if (location === null) break;
      await res.body?.cancel().catch(() => undefined);
      let next: string;
      try {
        next = new URL(location, url).toString();
      } catch {
        throw new HttpError(res.status, req.safeUrl, "", { message: `GET ${req.safeUrl} redirected to an invalid location` });
      }
      const shown = redactUrl(next, req.secrets);
      if (!sameOrigin(next, req.url)) throw new CrossOriginRedirectError(req.safeUrl, shown, "cross-origin");
      if (hop >= MAX_REDIRECTS) throw new CrossOriginRedirectError(req.safeUrl, shown, "too-many");
      url = next;
    }
    let raw: Uint8Array;
    let bytes: number;
    try {
      ({ body: raw, bytes } = await readLimitedBody(res, req.maxResponseBytes, req.safeUrl));
    } catch (err) {
      if (timedOut) throw new RequestTimeoutError(req.safeUrl, req.timeoutMs);
      if (err instanceof MarketIntelError) throw err;
      throw new NetworkError(req.safeUrl, safeCause(err, req.secrets));
    }
    if (res.status < 200 || res.status > 299) {
      const text = UTF8.decode(raw);
      const excerpt = redactSecrets(text, req.secrets).slice(0, EXCERPT);
      const retryAfterMs = parseRetryAfter(res.headers.get("retry-after"), req.now());
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
      throw new MalformedResponseError(req.safeUrl, redactSecrets(text, req.secrets).slice(0, EXCERPT), safeCause(err, req.secrets));
    }
    return { body, status: res.status, bytes, cacheControl: res.headers.get("cache-control") };
  } finally {
    clearTimeout(timer);
  }
}
