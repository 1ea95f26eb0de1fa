/**
 * market-intel-lab: the curated public API, what a user calls. Each stage of
 * the data flow has its own folder and barrel (`src/<stage>/index.ts`, which
 * lists exactly what that stage makes public); this file re-exports them, in
 * data-flow order.
 *
 * Specialist surfaces are subpath exports (package.json "exports"), not here:
 * `market-intel-lab/schemas` (zod schemas, normalisers, response parsers),
 * `market-intel-lab/charts` (vega-lite specs behind the charts),
 * `market-intel-lab/server` (the replay server) and `market-intel-lab/sim`
 * (the seeded market simulator that feeds it). Every export of every entry
 * point is listed in docs/api.md (`npm run api:report` regenerates it).
 */
export * from "./errors/index.js";
export * from "./domain/index.js";
export * from "./api/index.js";
export * from "./data/index.js";
export * from "./load/index.js";
export * from "./signals/index.js";
export * from "./backtest/index.js";
export * from "./metrics/index.js";
export * from "./research/index.js";
export * from "./report/index.js";
export * from "./store/index.js";
export * from "./paper/index.js";
