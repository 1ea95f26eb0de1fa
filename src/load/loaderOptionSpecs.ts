import type { OptionSpec } from "../options/OptionSpec.js";
import type { AnalyticsShape } from "./analyticsToColumns.js";
import type { LoadHistoryParams } from "./loadHistoryPanel.js";
import type { LoadRecordingOptions } from "./loadRecording.js";

/** Every parameter of {@link loadHistory} / {@link loadHistoryPanel}. @internal */
export const LOAD_HISTORY_OPTION_SPECS = {
  metricId: { unit: "metric id or list", default: "— (required)" },
  coin: { unit: "coin or list", default: "none (ids name their coin)" },
  hours: { unit: "hours, 1..720", default: "24" },
  fill: { unit: '"exact" | "last"', default: '"exact"' },
  maxStalenessMs: { unit: "ms", default: "Infinity", scale: "ms" },
  concurrency: { unit: "requests in flight", default: "6" },
  store: { unit: "openStore(dir)", default: "none" },
} as const satisfies Record<keyof LoadHistoryParams, OptionSpec>;

/** Every option of {@link loadAnalyticsQuery} (its third argument; the query's parameters are the client's). @internal */
export const LOAD_ANALYTICS_OPTION_SPECS = {
  shape: { unit: '"wide" | "long"', default: '"wide"' },
} as const satisfies Record<keyof { readonly shape?: AnalyticsShape }, OptionSpec>;

/** Every option of {@link loadRecording}. @internal */
export const LOAD_RECORDING_OPTION_SPECS = {
  endpoints: { unit: "endpoint folder names", default: "all" },
  start: { unit: "epoch ms, ISO 8601 or Date (inclusive)", default: "none" },
  end: { unit: "epoch ms, ISO 8601 or Date (inclusive)", default: "none" },
} as const satisfies Record<keyof LoadRecordingOptions, OptionSpec>;
