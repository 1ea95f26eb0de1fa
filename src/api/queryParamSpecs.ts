import type { OptionSpec, OptionSpecs } from "../options/OptionSpec.js";
import type { OptionsCheck } from "../options/checkOptions.js";
import type { AnalyticsQueryParams } from "./analyticsParams.js";
import type { CoinParams, HistoryParams } from "./createClient.js";

/**
 * The query parameters each client call takes, by name: the boundary where a request's
 * parameters enter (checkOptions, strict). A key not listed is refused with the nearest listed
 * name (`interva` -> `interval`) before any request, instead of being sent to the service, which
 * ignores what it does not know and answers with its defaults. A parameter the library has no
 * name for goes, deliberately, in `extraParams`. @internal
 */
export const ANALYTICS_QUERY_PARAM_SPECS = {
  dataset: { unit: '"metrics" | "candles" | "composite"', default: '"metrics" (service)' },
  metricId: { unit: "metric id or list", default: "all (service)" },
  metric_id: { unit: "the service's name of metricId (comma list)", default: "—" },
  coin: { unit: "coin or list (lower case accepted)", default: "all four (service)" },
  start: { unit: "ISO 8601 (no offset = UTC), epoch ms or Date", default: "end − 24 h (service)" },
  end: { unit: "ISO 8601 (no offset = UTC), epoch ms or Date", default: "now (service)" },
  interval: { unit: '"1m" | "5m" | "15m" | "1h" | "4h" | "1d"', default: '"1m" (service)' },
  limit: { unit: "rows per page, 1..50 000", default: "10 000 (service)" },
  offset: { unit: "rows", default: "0" },
  extraParams: { unit: "other query parameters, sent as given (plain values)", default: "none" },
} as const satisfies Record<Exclude<keyof AnalyticsQueryParams, number | symbol>, OptionSpec>;

/** Parameters of `client.history` (and the loaders built on it). @internal */
export const HISTORY_PARAM_SPECS = {
  metricId: { unit: "metric id", default: "— (required)" },
  coin: { unit: "coin (lower case accepted)", default: "none" },
  hours: { unit: "hours, integer 1..720", default: "24" },
  extraParams: { unit: "other query parameters, sent as given (plain values)", default: "none" },
} as const satisfies Record<keyof HistoryParams, OptionSpec>;

/** Parameters of the per-coin calls (`volatility`, `whaleFlow`, `composite`). @internal */
export const COIN_PARAM_SPECS = {
  coin: { unit: "coin (lower case accepted)", default: "all coins" },
  extraParams: { unit: "other query parameters, sent as given (plain values)", default: "none" },
} as const satisfies Record<keyof CoinParams, OptionSpec>;

/** The check of one call's query parameters. @internal */
export function queryParamsCheck(where: string, specs: OptionSpecs, example: string): OptionsCheck {
  return { where, specs, example };
}
