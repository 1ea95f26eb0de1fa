/**
 * `market-intel-lab/schemas`: the response boundary for specialists. The zod
 * schemas of each resource in its observed and its documented shape (spec
 * section 2), the normalisers that turn either into the canonical shape the
 * client returns, and the tolerant parsers the client uses for `/v1/history`,
 * record arrays, analytics pages and methodology weights. A user of the client
 * never needs them; they are here to validate or normalise bodies obtained
 * some other way (a file, another HTTP stack). The types of what they return
 * (`Snapshot`, `Composite`, `HistorySeries`, ...) are exported from the root.
 */
export { parseHistory } from "../parseHistory.js";
export { firstRecordArray } from "../firstRecordArray.js";
export { parseMethodologyWeights } from "../parseMethodologyWeights.js";
export { normaliseSnapshot, snapshotSchema, documentedSnapshotSchema } from "./snapshot.js";
export { normaliseVolatility, volatilitySchema, documentedVolatilitySchema } from "./volatility.js";
export { normaliseWhaleFlow, observedWhaleFlowEntrySchema, documentedWhaleFlowSchema } from "./whaleFlow.js";
export { normaliseComposite, compositeSchema, documentedCompositeSchema } from "./composite.js";
export { normaliseRegime, regimeSchema, documentedRegimeSchema } from "./regime.js";
export { normaliseJsonObject } from "./jsonObject.js";
export { parseAnalyticsPage } from "./analytics.js";
