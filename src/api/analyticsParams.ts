import { parseCoin, type Coin } from "../domain/coins.js";
import { parseMetricId } from "../domain/metricIds.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { checkQueryParams, type QueryParams } from "./checkQueryParams.js";
import type { QueryValue } from "./transport/createTransport.js";
import { toEpochMs } from "../data/toEpochMs.js";
import { checkOptions } from "../options/checkOptions.js";
import { ANALYTICS_QUERY_PARAM_SPECS, queryParamsCheck } from "./queryParamSpecs.js";

/** Datasets of `/v3/analytics/query`. */
export const ANALYTICS_DATASETS = ["metrics", "candles", "composite"] as const;
/** Bar intervals of `/v3/analytics/query`. */
export const ANALYTICS_INTERVALS = ["1m", "5m", "15m", "1h", "4h", "1d"] as const;
/** Largest `limit` the service accepts per page. */
export const ANALYTICS_MAX_LIMIT = 50_000;

/** Parameters of `client.analyticsQuery`. */
export interface AnalyticsQueryParams {
  /** `"metrics"` (service default), `"candles"` or `"composite"`. */
  readonly dataset?: (typeof ANALYTICS_DATASETS)[number] | undefined;
  /** Metric id(s) for the metrics dataset; sent as a comma list in `metric_id`. */
  readonly metricId?: string | readonly string[] | undefined;
  /** Coin(s), lower case accepted; omitted = all four. Sent as a comma list. */
  readonly coin?: string | readonly string[] | undefined;
  /** Window start: ISO 8601 string, epoch ms or Date (service default: end - 24 h). */
  readonly start?: string | number | Date | undefined;
  /** Window end: ISO 8601 string, epoch ms or Date (service default: now). */
  readonly end?: string | number | Date | undefined;
  /** Bar interval (service default `"1m"`). */
  readonly interval?: (typeof ANALYTICS_INTERVALS)[number] | undefined;
  /** Rows per page, 1..50 000 (service default 10 000). */
  readonly limit?: number | undefined;
  /** Row offset of the first page (default 0). */
  readonly offset?: number | undefined;
  /** The service's own name of `metricId` (a comma list), accepted as such; give one of the two. */
  readonly metric_id?: string | readonly string[] | undefined;
  /** Other query parameters, sent as given (plain values only): the one way to send a name not listed here. */
  readonly extraParams?: QueryParams | undefined;
}

/** How analyticsQuery's parameters are checked where they enter: strict, any other key refused with the nearest name. */
const ANALYTICS_CHECK = queryParamsCheck("analyticsQuery", ANALYTICS_QUERY_PARAM_SPECS, 'analyticsQuery({ dataset: "candles", coin: "BTC", interval: "1h" })');

const WHERE = "analyticsQuery";

function list(value: string | readonly string[], name: string, map: (s: string) => string): string {
  const items = typeof value === "string" ? value.split(",") : [...value];
  if (items.length === 0 || items.some((s) => typeof s !== "string" || s.trim() === "")) {
    throw new InvalidArgumentError(name, `${WHERE}: ${name} must be a non-empty string or list of strings, got ${JSON.stringify(value)}`);
  }
  return items.map((s) => map(s.trim())).join(",");
}

/** A window bound as epoch ms by the one time rule (NaN when it is not a time from 1970 to 2099). */
function epochMs(value: string | number | Date): number {
  return toEpochMs(value, { invalid: "nan" });
}

function time(value: string | number | Date, name: string): string | number {
  if (Number.isNaN(epochMs(value))) {
    throw new InvalidArgumentError(
      name,
      `${WHERE}: ${name} must be an ISO 8601 time (no offset = UTC), epoch ms or a valid Date from 1970 to 2099, got ${JSON.stringify(value)}`,
    );
  }
  return value instanceof Date ? value.toISOString() : value;
}

function int(value: number, name: string, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new InvalidArgumentError(name, `${WHERE}: ${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
  return value;
}

/**
 * Check `analyticsQuery` parameters (before any request) and turn them into
 * the service's query parameters (`metric_id`, `coin` comma lists, ...).
 * Strict: a key other than the documented ones is refused with the nearest
 * valid name (`interva` -> `interval`), never sent (the service ignores what it
 * does not know and would answer with its defaults, silently). The service's
 * own `metric_id` is accepted for `metricId`; any other parameter goes in
 * `extraParams`, sent as given (plain string / number / boolean values only).
 * @throws InvalidArgumentError naming the parameter, the value and what is allowed
 */
export function analyticsParams(params: AnalyticsQueryParams | undefined): Record<string, QueryValue> {
  const p = checkOptions(params, ANALYTICS_CHECK) ?? {};
  if (p.metricId !== undefined && p.metric_id !== undefined) {
    throw new InvalidArgumentError("metric_id", `${WHERE}: give metricId or metric_id (the service's name of the same list), not both`);
  }
  const out: Record<string, QueryValue> = checkQueryParams(WHERE, p.extraParams);
  if (p.dataset !== undefined) {
    if (!(ANALYTICS_DATASETS as readonly string[]).includes(p.dataset)) {
      throw new InvalidArgumentError("dataset", `${WHERE}: dataset must be one of ${ANALYTICS_DATASETS.join(", ")}, got ${JSON.stringify(p.dataset)}`);
    }
    out["dataset"] = p.dataset;
  }
  const metricId = p.metricId ?? p.metric_id;
  if (metricId !== undefined) out["metric_id"] = list(metricId, p.metricId !== undefined ? "metricId" : "metric_id", (s) => parseMetricId(s, WHERE));
  if (p.coin !== undefined) out["coin"] = list(p.coin, "coin", (s): Coin => parseCoin(s, WHERE));
  if (p.start !== undefined) out["start"] = time(p.start, "start");
  if (p.end !== undefined) out["end"] = time(p.end, "end");
  if (p.start !== undefined && p.end !== undefined) {
    const a = epochMs(p.start);
    const b = epochMs(p.end);
    if (!(a < b)) throw new InvalidArgumentError("end", `${WHERE}: end must be after start, got start=${String(p.start)} end=${String(p.end)}`);
  }
  if (p.interval !== undefined) {
    if (!(ANALYTICS_INTERVALS as readonly string[]).includes(p.interval)) {
      throw new InvalidArgumentError("interval", `${WHERE}: interval must be one of ${ANALYTICS_INTERVALS.join(", ")}, got ${JSON.stringify(p.interval)}`);
    }
    out["interval"] = p.interval;
  }
  if (p.limit !== undefined) out["limit"] = int(p.limit, "limit", 1, ANALYTICS_MAX_LIMIT);
  if (p.offset !== undefined) out["offset"] = int(p.offset, "offset", 0, Number.MAX_SAFE_INTEGER);
  return out;
}
