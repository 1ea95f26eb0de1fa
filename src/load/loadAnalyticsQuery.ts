import type { MarketIntelClient } from "../api/createClient.js";
import type { AnalyticsQueryParams } from "../api/analyticsParams.js";
import type { AnalyticsCoverage } from "../api/analyticsCoverage.js";
import type { DataFrame } from "../data/danfo.js";
import { toDataFrame } from "../data/toDataFrame.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { checkOptions, type OptionsCheck } from "../options/checkOptions.js";
import { LOAD_ANALYTICS_OPTION_SPECS } from "./loaderOptionSpecs.js";
import { analyticsToColumns, type AnalyticsShape } from "./analyticsToColumns.js";

/** How loadAnalyticsQuery's options are checked where they enter (checkOptions). */
const LOAD_ANALYTICS_CHECK: OptionsCheck = { where: "loadAnalyticsQuery", specs: LOAD_ANALYTICS_OPTION_SPECS, example: 'loadAnalyticsQuery(client, params, { shape: "long" })' };

/**
 * Run `/v3/analytics/query` (every page, see `client.analyticsQuery`) and
 * return a danfo DataFrame with `time` in epoch ms UTC. By default the table
 * is wide, one row per time (ascending, unique), columns named as
 * {@link analyticsToColumns} says (`btc_price`, or `close` / `btc_close` for
 * candles); `{ shape: "long" }` keeps the service's rows (time, coin, ...).
 * A candle row is labelled by its bar's open time and known only at its close.
 * `df.coverage` says what the service did not give: the window asked against the window it
 * echoed (a start it clamped to its retention), bars missing between the first and last row, and
 * whether the last bar was still open (partial values); the client's `onEvent` gets one
 * `coverage` event when anything is missing.
 * @throws InvalidArgumentError for bad parameters (before any request)
 * @example
 * const df = await loadAnalyticsQuery(client, { dataset: "candles", coin: "BTC", interval: "1h" });
 * df.columns // ["time", "open", "high", "low", "close", "volume"]
 */
export async function loadAnalyticsQuery(
  client: MarketIntelClient,
  params: AnalyticsQueryParams,
  options: { readonly shape?: AnalyticsShape } = {},
): Promise<DataFrame & { readonly coverage: AnalyticsCoverage }> {
  const shape = checkOptions(options, LOAD_ANALYTICS_CHECK).shape ?? "wide";
  if (shape !== "wide" && shape !== "long") {
    throw new InvalidArgumentError("shape", `loadAnalyticsQuery: shape must be "wide" or "long", got ${JSON.stringify(shape)}`);
  }
  const result = await client.analyticsQuery(params);
  const frame = toDataFrame(analyticsToColumns(result, { shape }));
  // What the service did not give (a clamped range, gaps, a partial last bar), on the frame itself (not a column)
  Object.defineProperty(frame, "coverage", { value: result.coverage, enumerable: false });
  return frame as DataFrame & { readonly coverage: AnalyticsCoverage };
}
