import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { LongestFirstSequencer } from "./test/support/longestFirstSequencer.js";
import { SummaryReporter } from "./test/support/summaryReporter.js";
import { HOOK_TIMEOUT_MS, TEST_TIMEOUT_MS, scaledMs } from "./test/support/timeScale.js";

/**
 * The time-sensitive tests (data, signals, backtest, and the time rule's own
 * tests in test/data) run again in other time zones, inside the same
 * `npm test` run, so the one closing summary line counts everything. Each
 * zone is a project whose workers get `TZ` (Node reads a changed TZ at once);
 * test/data/timeZones.test.ts checks in every project that the process really
 * runs in the zone asked for. Lord Howe (a half-hour DST change) runs only the
 * time rule's tests, to keep the extra legs short.
 */
const ZONE_TESTS = ["test/data/**/*.test.ts", "test/signals/**/*.test.ts", "test/backtest/**/*.test.ts"];
const TIME_TESTS = ["test/data/toEpochMs.test.ts", "test/data/timeZones.test.ts"];
/** Files that need a process of their own: vi.mock("node:fs") reaches no module another file already loaded. */
const OWN_PROCESS = ["test/load/recordDiskErrors.test.ts"];

/**
 * Files of ZONE_TESTS that run once, in UTC only, because nothing they check can read the machine's zone.
 * test/data/oneTimeBoundary.test.ts proves for all of src that a time string or Date enters only through
 * toEpochMs and that no local-zone Date method is used; so a test can depend on the zone only if it feeds
 * time strings/Dates (toEpochMs, fromDataFrame, readColumns, the price table, parseHistory, the server), uses
 * a local-zone API itself, or exercises the time rules (calendars, resampling, funding/settlement times,
 * periodsPerYear inference). The files below do none of that: they have no `time` column or only numeric
 * epoch ms, and they stay in the zone legs' reach through the files that do (listed after each).
 */
const UTC_ONLY = [
  "test/data/oneTimeBoundary.test.ts", // a parse of src's text, no time at all
  "test/data/requireWithLazyMathjs.test.ts", // danfo's require of mathjs and its statistics on numeric columns (in a child too), no time column
  "test/data/requireWithDeferredModules.test.ts", // danfo's require of xlsx/request, a child's Excel and CSV round trip of numbers, no time column
  "test/backtest/loopJit.test.ts", // V8 traces of child processes started with TZ=UTC
  "test/backtest/fusedJit.test.ts", // V8 trace of a child process started with TZ=UTC (the zone never reached it)
  "test/backtest/compositeFused.test.ts", // fused vs reference engine on bar-indexed arrays, no time column
  "test/backtest/properties.test.ts", // random invariants on numeric epochs (i * 60 000); funding times: executionRealism, executionRules, backtest
  "test/backtest/backtestInto.test.ts", // caller-owned output buffers, no time column
  "test/backtest/backtestOutputs.test.ts", // lazy outputs, metrics vs numpy and a sweep's row, on bar-indexed arrays, no time column; periodsPerYear from time: backtest.test
  "test/backtest/closeCheckedInLoop.test.ts", // a bad close named at its bar index, no time column
  "test/backtest/inlineStatements.test.ts", // the engine's generated source, no time
  "test/backtest/kernel.test.ts", // the bar kernel on arrays, no time column
  "test/backtest/settingsMap.test.ts", // V8's %HaveSameMap in child processes on bar-indexed arrays, no time column
  "test/signals/labelJit.test.ts", // V8 traces of child processes started with TZ=UTC
  "test/signals/components.test.ts", // scorers on value arrays, no time column
  "test/signals/docExamples.test.ts", // the docs' numeric examples, no time column
  "test/signals/lookahead.test.ts", // no-lookahead properties on value arrays, time only as numeric epoch ms; time strings: componentsFromFeeds, replayComposite
  "test/signals/regimes.test.ts", // regime labels on value arrays, no time column
  "test/signals/replayCompositeBlocks.test.ts", // block-resumed replay on arrays, no time column; time strings: replayComposite
  "test/signals/scorerEdges.test.ts", // scorer edge values (NaN, constants), no time column
];

function zone(name: string, tz: string, include: string[]) {
  return {
    extends: true as const,
    test: { name, include, exclude: UTC_ONLY, env: { TZ: tz } },
  };
}

export default defineConfig({
  test: {
    // Idle-machine bounds times the load (test/support/timeScale.ts), measured again
    // before each file by the setup file: no correct run fails because the machine is busy.
    testTimeout: scaledMs(TEST_TIMEOUT_MS),
    hookTimeout: scaledMs(HOOK_TIMEOUT_MS),
    setupFiles: ["test/support/scaleTimeouts.ts"],
    pool: "forks",
    // vitest's default is one worker less than the cores: ONE on the 2-core CI machine, so
    // every file ran after the other while most of the slow ones (notebooks, CLI runs, the
    // python references) wait on a child process. Two workers at least; the longest files first.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: LongestFirstSequencer },
    // A worker runs file after file of one project in one process: each test file is evaluated
    // afresh, the modules it imports (src/, danfojs, arrow, duckdb...) load once per worker and
    // are shared (mocks are restored between files). utc's data, signals, backtest, metrics and
    // research files took 49.4 s isolated, 24.0 s so. A file whose vi.mock must reach modules
    // before anyone loads them gets a process of its own (OWN_PROCESS, project utc-isolated).
    isolate: false,
    // Transformed modules kept on disk (node_modules/.experimental-vitest-cache, keyed by content and config):
    // the time-zone projects below reuse what the utc project transformed in the same run (a zone leg's transform
    // 7.2 -> 1.3 s measured), and a second `npm test` reuses all of it. Measured on the whole suite from a cold
    // cache: 683 -> 674 s CPU. Vitest 5 makes this its default.
    experimental: { fsModuleCache: true },
    reporters: ["default", new SummaryReporter()],
    projects: [
      { extends: true, test: { name: "utc", include: ["test/**/*.test.ts", "src/**/*.test.ts"], exclude: OWN_PROCESS, env: { TZ: "UTC" } } },
      { extends: true, test: { name: "utc-isolated", include: OWN_PROCESS, isolate: true, env: { TZ: "UTC" } } },
      zone("tz-new-york", "America/New_York", ZONE_TESTS),
      zone("tz-kolkata", "Asia/Kolkata", ZONE_TESTS),
      zone("tz-lord-howe", "Australia/Lord_Howe", TIME_TESTS),
    ],
  },
});
