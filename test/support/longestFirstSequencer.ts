import { relative } from "node:path";
import { statSync } from "node:fs";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Seconds each slow test file took in `npm test` on the 2-core machine (the lead's run of
 * 2026-11-28 13:02 UTC on the merged tree, clean build, nothing else running), for a run with
 * no timing cache yet (a fresh clone, CI). Only the order uses them: the longest files start
 * first so that none of them starts last and leaves the other worker idle at the end of the run.
 */
const KNOWN_SECONDS: Readonly<Record<string, number>> = {
  "test/notebooks/notebooks.test.ts": 147,
  "test/packaging/packedTarball.test.ts": 45,
  "test/cli/demo.test.ts": 41,
  "test/cli/cli.test.ts": 33,
  "test/research/verdictCalibration.test.ts": 26,
  "test/cli/sweepSignals.test.ts": 21,
  "test/report/studyReportAgrees.test.ts": 20,
  "test/report/tearsheet.test.ts": 14,
  "test/backtest/loopJit.test.ts": 14,
  "test/report/chartsDraw.test.ts": 12,
  "test/backtest/compositeFused.test.ts": 12,
  "test/reliability/recorder.test.ts": 11,
  "test/load/record.test.ts": 10,
  "test/store/compactRecording.test.ts": 9,
  "test/signals/labelJit.test.ts": 8,
  "test/reliability/storeConcurrency.test.ts": 8,
  "test/reliability/recorderCompaction.test.ts": 8,
  "test/paper/paperTrade.test.ts": 8,
  "test/notebooks/chartBundle.test.ts": 8,
  "test/readme/firstHour.test.ts": 7,
  "test/docs/apiReport.test.ts": 7,
};

/**
 * Longest first: the project with the most work first, and in each project its longest file
 * first (vitest's own sequencer runs the projects by name, so the `utc` project's notebooks
 * and CLI files, the longest of all, started last). The files of a project stay together
 * because a worker runs the next file in the same process only when it is of the same project
 * (isolate: false); the time-zone projects' short files fill the end of the run. The duration
 * is vitest's cached one of the last run when there is one, else {@link KNOWN_SECONDS}, else
 * the file's size as a small tie-breaker (vitest's own fallback).
 */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const weight = new Map<TestSpecification, number>();
    const projectWeight = new Map<string, number>();
    for (const spec of files) {
      const path = relative(root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      let ms = cached?.duration ?? (KNOWN_SECONDS[path] ?? 0) * 1000;
      if (ms === 0) {
        try {
          ms = statSync(spec.moduleId).size / 1e6; // bytes, far below any measured millisecond
        } catch {
          ms = 0;
        }
      }
      weight.set(spec, ms);
      projectWeight.set(spec.project.name, (projectWeight.get(spec.project.name) ?? 0) + ms);
    }
    return [...files].sort(
      (a, b) =>
        (projectWeight.get(b.project.name) as number) - (projectWeight.get(a.project.name) as number) ||
        (a.project.name < b.project.name ? -1 : a.project.name > b.project.name ? 1 : 0) ||
        (weight.get(b) as number) - (weight.get(a) as number),
    );
  }
}
