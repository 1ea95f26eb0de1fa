import { parseCoin, type Coin } from "../domain/coins.js";
import { parseMetricId } from "../domain/metricIds.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { refuseRenamedOptions } from "../errors/refuseRenamedOptions.js";
import { analyticsParams, type AnalyticsQueryParams } from "./analyticsParams.js";
import { checkQueryParams, type QueryParams } from "./checkQueryParams.js";
import { checkOptions } from "../options/checkOptions.js";
import { COIN_PARAM_SPECS, HISTORY_PARAM_SPECS, queryParamsCheck } from "./queryParamSpecs.js";
import { ENDPOINTS } from "./endpoints.js";
import { historyHours } from "./historyHours.js";
import { parseHistory, type HistorySeries } from "./parseHistory.js";
import { scanHistoryBytes } from "./scanHistoryBytes.js";
import { queryAnalytics, type AnalyticsResult } from "./queryAnalytics.js";
import { normaliseComposite, type Composite } from "./schemas/composite.js";
import { normaliseJsonObject, type JsonObject } from "./schemas/jsonObject.js";
import { normaliseRegime, type Regime } from "./schemas/regime.js";
import { normaliseSnapshot, type Snapshot } from "./schemas/snapshot.js";
import { normaliseVolatility, type Volatility } from "./schemas/volatility.js";
import { normaliseWhaleFlow, type WhaleFlow } from "./schemas/whaleFlow.js";
import type { ClientEvent } from "./transport/ClientEvent.js";
import { redactError } from "./transport/redactError.js";
import { registerSecrets } from "./transport/clientSecrets.js";
import { createTransport, type Transport } from "./transport/createTransport.js";

/** Options of `createClient`. Every one is optional; defaults in brackets. */
export interface ClientOptions {
  /**
   * Service root, e.g. `"http://127.0.0.1:8080"` [env `MI_BASE_URL`; required one way or the other].
   * Credentials in it (`http://user:pass@host`) are removed from the URL and sent as an `Authorization: Basic` header; they are never shown.
   */
  readonly baseUrl?: string | undefined;
  /**
   * API key, sent as the `X-API-Key` header only; never logged, recorded or shown in errors [none: public tier].
   * Printable Latin-1 only: a key with a control character (CR, LF, NUL, tab, DEL) or beyond U+00FF is refused at creation.
   */
  readonly apiKey?: string | undefined;
  /** fetch implementation [global `fetch`]. */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** Time limit per attempt, headers and body, in ms: 1 ms to 2 147 483 647 ms (Node's largest timer), or `Infinity` for none [10 000]. */
  readonly timeoutMs?: number | undefined;
  /** Retries after the first attempt, on network errors, timeouts, 408, 429 and 5xx [3]. */
  readonly retries?: number | undefined;
  /** Base of the exponential backoff between retries, in ms (doubles per retry, jitter x0.5-1.5) [500]. */
  readonly retryDelayMs?: number | undefined;
  /** Cap on one backoff wait, in ms [30 000]. */
  readonly maxRetryDelayMs?: number | undefined;
  /** Longest `Retry-After` the client waits for; a longer one fails at once with the error [60 000]. */
  readonly maxRetryAfterMs?: number | undefined;
  /** Attempts per rolling minute, shared by every call of this client (the public tier allows 60) [60]. */
  readonly rateLimitPerMinute?: number | undefined;
  /** How long a response is reused when it has no `Cache-Control: max-age`, in ms; 0 disables caching [45 000]. */
  readonly cacheTtlMs?: number | undefined;
  /** Largest response body accepted, in bytes [64 MiB]. */
  readonly maxResponseBytes?: number | undefined;
  /** Most pages `analyticsQuery` follows before returning `truncated: true` [100]. */
  readonly maxPages?: number | undefined;
  /** Called with request / response / failure / retry / cache-hit / dedupe / rate-limit-wait / truncated events (URLs redacted, never the key or headers) [none]. */
  readonly onEvent?: ((event: ClientEvent) => void) | undefined;
  /** `User-Agent` header [`market-intel-lab/0.1`]. */
  readonly userAgent?: string | undefined;
  /** Clock for cache expiry and HTTP-date Retry-After, epoch ms [Date.now]. (Named `now` before 0.2.) */
  readonly clock?: (() => number) | undefined;
}

/** `{coin?}` parameters of the per-coin signal endpoints. */
export interface CoinParams {
  /** BTC, ETH, SOL or HYPE (lower case accepted); omitted = all coins. */
  readonly coin?: string | undefined;
  /** Other query parameters, passed through (plain values only). */
  readonly extraParams?: QueryParams | undefined;
}

/** Parameters of `history`. */
export interface HistoryParams {
  /** BTC, ETH, SOL or HYPE (lower case accepted). */
  readonly coin?: string | undefined;
  /** Catalog metric id, e.g. `"btc_price"`; sent as both `metric_id` and `metric`. */
  readonly metricId: string;
  /** Window in hours, integer 1..720 [24]. */
  readonly hours?: number | undefined;
  /** Other query parameters, passed through (plain values only). */
  readonly extraParams?: QueryParams | undefined;
}

/** A metric's history with the request that produced it. */
export type History = HistorySeries & { readonly coin?: Coin; readonly hours: number };

/** The typed Market Intelligence client: one method per endpoint (17). */
export interface MarketIntelClient {
  /** Normalised service root, without a trailing slash. */
  readonly baseUrl: string;
  /** GET /v1/snapshot: every catalog metric. */
  snapshot(): Promise<Snapshot>;
  /** GET /v1/signals/volatility: realized vol and ATR per coin. */
  volatility(params?: CoinParams): Promise<Volatility>;
  /** GET /v1/signals/whale-flow: large orders / net flow per coin. */
  whaleFlow(params?: CoinParams): Promise<WhaleFlow>;
  /** GET /v1/signals/composite: composite score and components per coin. */
  composite(params?: CoinParams): Promise<Composite>;
  /** GET /v3/signals/regime: regime classification. */
  regime(params?: QueryParams): Promise<Regime>;
  /** GET /v1/signals/liquidations. */
  liquidations(params?: QueryParams): Promise<JsonObject>;
  /** GET /v3/signals/safety. */
  safety(params?: QueryParams): Promise<JsonObject>;
  /** GET /v1/history: one metric's series, columnar. */
  history(params: HistoryParams): Promise<History>;
  /** GET /v1/signals/spreads. */
  spreads(params?: QueryParams): Promise<JsonObject>;
  /** GET /v1/signals/correlation. */
  correlation(params?: QueryParams): Promise<JsonObject>;
  /** GET /v1/signals/depth. */
  depth(params?: QueryParams): Promise<JsonObject>;
  /** GET /v1/signals/imbalance. */
  imbalance(params?: QueryParams): Promise<JsonObject>;
  /** GET /v1/signals/priority-gas. */
  priorityGas(params?: QueryParams): Promise<JsonObject>;
  /** GET /v3/signals/squeeze. */
  squeeze(params?: QueryParams): Promise<JsonObject>;
  /** GET /v3/signals/arbitrage. */
  arbitrage(params?: QueryParams): Promise<JsonObject>;
  /** GET /v3/signals/smart-money. */
  smartMoney(params?: QueryParams): Promise<JsonObject>;
  /** GET /v3/analytics/query, all pages (up to `maxPages`). */
  analyticsQuery(params?: AnalyticsQueryParams): Promise<AnalyticsResult>;
  /** Escape hatch: GET any path, parsed JSON, through the same cache / limits / retries. */
  raw(path: string, params?: QueryParams): Promise<unknown>;
  /** Forget every cached response (the next calls go to the service). */
  clearCache(): void;
}

function positive(name: string, value: number | undefined, fallback: number, opts: { integer?: boolean; min?: number } = {}): number {
  if (value === undefined) return fallback;
  const min = opts.min ?? Number.MIN_VALUE;
  if (typeof value !== "number" || Number.isNaN(value) || value < min || (opts.integer === true && !Number.isInteger(value))) {
    throw new InvalidArgumentError(
      name,
      `createClient: ${name} must be ${opts.integer === true ? "an integer" : "a number"} ${min === Number.MIN_VALUE ? "> 0" : `>= ${min}`}, got ${String(value)}`,
    );
  }
  return value;
}

/** Node's largest timer delay; a larger one (or Infinity) fires after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function timeoutOption(value: number | undefined): number {
  if (value === undefined) return 10_000;
  if (value === Infinity) return Infinity;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || value > MAX_TIMER_MS) {
    throw new InvalidArgumentError(
      "timeoutMs",
      `createClient: timeoutMs must be a number > 0 and <= ${MAX_TIMER_MS} (Node's largest timer), or Infinity for no time limit, got ${String(value)}`,
    );
  }
  return value;
}

/** `//user:pass@` of a URL-looking string replaced, for messages about a URL that did not parse. */
function hideUserinfo(raw: string): string {
  return raw.replace(/\/\/[^/?#@]*@/, "//REDACTED@");
}

/** The service root without credentials, and the credentials as an `Authorization: Basic` value. */
interface ResolvedBaseUrl {
  readonly baseUrl: string;
  readonly authorization: string | undefined;
  /** The password (as written and decoded) and the header value: strings never to show. */
  readonly secrets: readonly string[];
}

function resolveBaseUrl(given: string | undefined): ResolvedBaseUrl {
  const raw = given ?? process.env["MI_BASE_URL"];
  if (raw === undefined || typeof raw !== "string" || raw.trim() === "") {
    throw new InvalidArgumentError(
      "baseUrl",
      "createClient: no service address: pass baseUrl (e.g. createClient({ baseUrl: \"http://127.0.0.1:8080\" })) or set MI_BASE_URL",
    );
  }
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new InvalidArgumentError("baseUrl", `createClient: baseUrl must be an absolute http(s) URL, got ${JSON.stringify(hideUserinfo(raw))}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidArgumentError("baseUrl", `createClient: baseUrl must use http or https, got ${JSON.stringify(url.protocol)}`);
  }
  let authorization: string | undefined;
  const secrets: string[] = [];
  if (url.username !== "" || url.password !== "") {
    const user = decodeURIComponent(url.username);
    const pass = decodeURIComponent(url.password);
    authorization = `Basic ${Buffer.from(`${user}:${pass}`, "utf8").toString("base64")}`;
    // The password and the header value are secret; the user name is not (and a short one would redact too much).
    secrets.push(url.password, pass, authorization.slice(6));
    url.username = "";
    url.password = "";
  }
  url.search = "";
  url.hash = "";
  return { baseUrl: url.toString().replace(/\/+$/, ""), authorization, secrets: secrets.filter((x) => x !== "") };
}

/**
 * Check an API key: a non-empty string of printable Latin-1 characters
 * (what an HTTP header value may hold). The message gives the position of
 * the first bad character and never the key.
 */
function checkApiKey(key: unknown): string | undefined {
  if (key === undefined) return undefined;
  if (typeof key !== "string" || key === "") {
    throw new InvalidArgumentError("apiKey", "createClient: apiKey must be a non-empty string when given");
  }
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0) || c > 0xff) {
      throw new InvalidArgumentError(
        "apiKey",
        `createClient: apiKey has a ${c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0) ? "control" : "non-Latin-1"} character (U+${c.toString(16).toUpperCase().padStart(4, "0")}) ` +
          `at position ${i} (the key is not shown): check for a pasted newline or a trailing CR in MI_API_KEY`,
      );
    }
  }
  return key;
}

function coinParams(where: string, given: CoinParams | undefined): Record<string, string | number | boolean> {
  const params = checkOptions(given, queryParamsCheck(where, COIN_PARAM_SPECS, `${where}({ coin: "BTC" })`));
  const out = checkQueryParams(where, params?.extraParams);
  if (params?.coin !== undefined) out["coin"] = parseCoin(params.coin, where);
  return out;
}

/** The history body read straight from bytes when it is in the service's own shape (see scanHistoryBytes); cached apart from raw JSON. */
const HISTORY_READER = { name: "history-series", decode: scanHistoryBytes };

/**
 * A history body from the transport as a series: already scanned from bytes
 * (then copied: the cached series is never handed out, so a caller that
 * writes into its arrays changes nobody else's), else parsed from JSON by the
 * tolerant parser.
 */
function historyFromBody(body: unknown): HistorySeries {
  if (typeof body === "object" && body !== null && (body as HistorySeries).time instanceof Float64Array) {
    const s = body as HistorySeries;
    return { ...s, time: s.time.slice(), value: s.value.slice(), dropped: { ...s.dropped } };
  }
  return parseHistory(body, ENDPOINTS.history);
}

function historyParams(given: HistoryParams): { query: Record<string, string | number | boolean>; coin?: Coin; hours: number } {
  if (typeof given !== "object" || given === null) {
    throw new InvalidArgumentError("params", `history: params must be an object like { metricId: "btc_price" }, got ${JSON.stringify(given)}`);
  }
  const params = checkOptions(given, queryParamsCheck("history", HISTORY_PARAM_SPECS, 'history({ metricId: "btc_price", hours: 24 })'));
  const id = parseMetricId(params.metricId, "history");
  const hours = historyHours(params.hours, "history");
  const query = checkQueryParams("history", params.extraParams);
  query["metric_id"] = id;
  query["metric"] = id;
  query["hours"] = hours;
  if (params.coin === undefined) return { query, hours };
  const coin = parseCoin(params.coin, "history");
  query["coin"] = coin;
  return { query, coin, hours };
}

/**
 * Create a client of the Market Intelligence read API. Every call goes
 * through one pipeline per client: response cache (45 s or the response's
 * max-age) and de-duplication of identical concurrent requests, a rate limiter
 * shared by all calls, retries with backoff honouring Retry-After, a timeout
 * and a size limit per attempt. Arguments are checked before any request.
 * Responses are validated (zod) and normalised to the observed shape, with the
 * shape they came in as `variant`.
 * @throws InvalidArgumentError for bad options (e.g. no baseUrl and no MI_BASE_URL)
 * @example
 * const client = createClient({ baseUrl: "http://127.0.0.1:8080" });
 * const { signals } = await client.composite({ coin: "btc" });
 * const btc = await client.history({ coin: "BTC", metricId: "btc_price", hours: 24 });
 * btc.time.length // 1440 one-minute points
 */
export function createClient(options: ClientOptions = {}): MarketIntelClient {
  refuseRenamedOptions(options, "createClient", { now: '"clock" (the same () => epoch ms function)' });
  const { baseUrl, authorization, secrets } = resolveBaseUrl(options.baseUrl);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== "function") {
    throw new InvalidArgumentError("fetch", "createClient: fetch must be a function (Node >= 20 has a global fetch)");
  }
  const apiKey = checkApiKey(options.apiKey);
  const rateLimitPerMinute = positive("rateLimitPerMinute", options.rateLimitPerMinute, 60, { integer: true, min: 1 });
  const maxPages = positive("maxPages", options.maxPages, 100, { integer: true, min: 1 });
  const onEvent = options.onEvent;
  const transport: Transport = createTransport({
    baseUrl,
    apiKey,
    authorization,
    secrets: [...(apiKey === undefined ? [] : [apiKey]), ...secrets],
    fetch: fetchImpl,
    timeoutMs: timeoutOption(options.timeoutMs),
    retries: positive("retries", options.retries, 3, { integer: true, min: 0 }),
    retryDelayMs: positive("retryDelayMs", options.retryDelayMs, 500, { min: 0 }),
    maxRetryDelayMs: positive("maxRetryDelayMs", options.maxRetryDelayMs, 30_000, { min: 0 }),
    maxRetryAfterMs: positive("maxRetryAfterMs", options.maxRetryAfterMs, 60_000, { min: 0 }),
    rateLimitPerMinute,
    cacheTtlMs: positive("cacheTtlMs", options.cacheTtlMs, 45_000, { min: 0 }),
    maxResponseBytes: positive("maxResponseBytes", options.maxResponseBytes, 64 * 1024 * 1024, { integer: true, min: 1 }),
    userAgent: options.userAgent ?? "market-intel-lab/0.1",
    onEvent,
    clock: options.clock ?? Date.now,
    random: Math.random,
  });
  const emit = (event: ClientEvent): void => {
    try {
      onEvent?.(event);
    } catch {
      // A logging hook must never break a request.
    }
  };
  const get = async (path: string, params?: Record<string, string | number | boolean>): Promise<unknown> =>
    (await transport(path, params)).body;
  const object = (name: keyof typeof ENDPOINTS) => async (params?: QueryParams): Promise<JsonObject> => {
    const query = checkQueryParams(name, params);
    return normaliseJsonObject(await get(ENDPOINTS[name], query), ENDPOINTS[name]);
  };

  const client: MarketIntelClient = {
    baseUrl,
    snapshot: async () => normaliseSnapshot(await get(ENDPOINTS.snapshot)),
    volatility: async (params) => normaliseVolatility(await get(ENDPOINTS.volatility, coinParams("volatility", params))),
    whaleFlow: async (params) => normaliseWhaleFlow(await get(ENDPOINTS.whaleFlow, coinParams("whaleFlow", params))),
    composite: async (params) => normaliseComposite(await get(ENDPOINTS.composite, coinParams("composite", params))),
    regime: async (params) => normaliseRegime(await get(ENDPOINTS.regime, checkQueryParams("regime", params))),
    liquidations: object("liquidations"),
    safety: object("safety"),
    history: async (params) => {
      const { query, coin, hours } = historyParams(params);
      const series = historyFromBody((await transport(ENDPOINTS.history, query, HISTORY_READER)).body);
      const metricId = series.metricId ?? query["metric_id"];
      return { ...series, metricId: String(metricId), ...(coin === undefined ? {} : { coin }), hours };
    },
    spreads: object("spreads"),
    correlation: object("correlation"),
    depth: object("depth"),
    imbalance: object("imbalance"),
    priorityGas: object("priorityGas"),
    squeeze: object("squeeze"),
    arbitrage: object("arbitrage"),
    smartMoney: object("smartMoney"),
    analyticsQuery: async (params) => queryAnalytics(transport, analyticsParams(params), maxPages, emit),
    raw: async (path, params) => {
      if (typeof path !== "string" || !path.startsWith("/")) {
        throw new InvalidArgumentError("path", `raw: path must start with "/", e.g. "/v1/snapshot", got ${JSON.stringify(path)}`);
      }
      return structuredClone(await get(path, checkQueryParams("raw", params)));
    },
    clearCache: () => transport.clearCache(),
  };
  const allSecrets = [...(apiKey === undefined ? [] : [apiKey]), ...secrets];
  // The error boundary: whatever layer throws (transport, schema, time parsing), no secret leaves in an error.
  const guarded = Object.fromEntries(
    Object.entries(client).map(([name, member]) => [
      name,
      typeof member === "function"
        ? (...args: unknown[]) => {
            try {
              const out = (member as (...a: unknown[]) => unknown)(...args);
              return out instanceof Promise ? out.catch((err: unknown) => Promise.reject(redactError(err, allSecrets))) : out;
            } catch (err) {
              throw redactError(err, allSecrets);
            }
          }
        : member,
    ]),
  ) as unknown as MarketIntelClient;
  registerSecrets(guarded, allSecrets);
  return guarded;
}
