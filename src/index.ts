/**
 * market-intel-lab: the curated public API. Each stage of the data flow has
 * its own folder and barrel (`src/<stage>/index.ts`, which lists exactly what
 * that stage makes public); this file re-exports them, in data-flow order.
 */
export * from "./errors/index.js";
export * from "./domain/index.js";
export * from "./api/index.js";
export * from "./data/index.js";
export * from "./load/index.js";
export * from "./signals/index.js";
export * from "./backtest/index.js";
export * from "./metrics/index.js";
export * from "./report/index.js";
export * from "./server/index.js";
export * from "./sim/index.js";
export * from "./research/index.js";
