import { ANALYTICS_QUERY_PARAM_SPECS, COIN_PARAM_SPECS, HISTORY_PARAM_SPECS } from "../api/queryParamSpecs.js";
import { BACKTEST_OPTION_SPECS } from "../backtest/backtestOptionSpecs.js";
import { LOAD_ANALYTICS_OPTION_SPECS, LOAD_HISTORY_OPTION_SPECS, LOAD_RECORDING_OPTION_SPECS } from "../load/loaderOptionSpecs.js";
import { TEARSHEET_OPTION_SPECS } from "../report/tearsheet.js";
import { SWEEP_COMPOSITE_OPTION_SPECS, SWEEP_STRATEGY_OPTION_SPECS } from "../research/sweepOptionSpecs.js";
import type { OptionSpecs } from "./OptionSpec.js";
import { PAPER_TRADE_OPTION_SPECS } from "../paper/paperTradeOptionSpecs.js";

/**
 * Every public options object checked by checkOptions, by the function that takes it: the
 * source of the option table in docs/api.md (scripts/apiReport.ts writes it from this list).
 * @internal
 */
export const OPTION_TABLES: readonly { readonly fn: string; readonly specs: OptionSpecs }[] = [
  { fn: "backtest", specs: BACKTEST_OPTION_SPECS },
  { fn: "sweepStrategy", specs: SWEEP_STRATEGY_OPTION_SPECS },
  { fn: "sweepComposite", specs: SWEEP_COMPOSITE_OPTION_SPECS },
  { fn: "loadHistory / loadHistoryPanel", specs: LOAD_HISTORY_OPTION_SPECS },
  { fn: "loadAnalyticsQuery (options)", specs: LOAD_ANALYTICS_OPTION_SPECS },
  { fn: "loadRecording", specs: LOAD_RECORDING_OPTION_SPECS },
  { fn: "tearsheet", specs: TEARSHEET_OPTION_SPECS },
  { fn: "paperTrade", specs: PAPER_TRADE_OPTION_SPECS },
  { fn: "client.analyticsQuery / loadAnalyticsQuery (query parameters)", specs: ANALYTICS_QUERY_PARAM_SPECS },
  { fn: "client.history (query parameters)", specs: HISTORY_PARAM_SPECS },
  { fn: "client.volatility / whaleFlow / composite (query parameters)", specs: COIN_PARAM_SPECS },
];
