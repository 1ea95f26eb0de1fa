import { toStudyOptions, type StudyCliOptions } from "./addStudyOptions.js";
import type { Progress } from "./progress.js";
import { loadJobData } from "./loadJobData.js";
import { runRealDataStudy, type RealDataStudy } from "./study/realDataStudy.js";
import { runStudy, type Study } from "./study/runStudy.js";
import { runSweepWhatIf, type CoinWhatIf, type WhatIfRow } from "./study/runSweepWhatIf.js";

/** What a study run produced, with where its data came from. */
export interface StudyRun {
  readonly study: Study;
  readonly real: RealDataStudy | undefined;
  /** The what-if sweep (your rule and the best of the sweep, in and out of sample), unless turned off. */
  readonly variants: readonly WhatIfRow[] | undefined;
  /** Each coin's what-if sweep and its assessment (DSR, PBO, walk-forward). */
  readonly whatIf: readonly CoinWhatIf[] | undefined;
  /** Human description of the data source (never the API key). */
  readonly source: string;
  readonly live: boolean;
  readonly seed: number | undefined;
  /** The "now" the history ends at (epoch ms): --clock, else the wall clock when the load began. */
  readonly clock: number;
  /** History window in hours (--hours). */
  readonly hours: number;
  readonly requests: number;
  readonly loadMs: number;
  readonly computeMs: number;
}

/**
 * Run the composite study end to end: start the embedded replay server (or use
 * the live service), load the history, replay, backtest and evaluate, and the
 * real-data study unless turned off.
 */
export async function runStudyJob(o: StudyCliOptions, progress: Progress): Promise<StudyRun> {
  try {
    const { data, source, live, seed, clock, loadMs } = await loadJobData(o, progress);
    const t1 = performance.now();
    progress.step("backtesting", 3);
    const study = runStudy(data, toStudyOptions(o));
    progress.update(1);
    const real = o.realData ? runRealDataStudy(toStudyOptions(o)) : undefined;
    progress.update(2);
    const whatIf = o.variants ? await runSweepWhatIf(data, toStudyOptions(o)) : undefined;
    progress.update(3);
    const t2 = performance.now();
    progress.stop();
    return { study, real, variants: whatIf?.rows, whatIf: whatIf?.coins, source, live, seed, clock, hours: o.hours, requests: data.requests, loadMs, computeMs: t2 - t1 };
  } finally {
    progress.stop();
  }
}
