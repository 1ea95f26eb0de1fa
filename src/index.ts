/**
 * market-intel-lab: the curated public API. Each stage of the data flow has
 * its own folder and barrel; this file re-exports them.
 */
export * from "./errors/index.js";
export * from "./domain/index.js";
export * from "./signals/index.js";
