import { toStudyOptions, type StudyCliOptions } from "./addStudyOptions.js";
import type { Progress } from "./progress.js";
import { loadJobData } from "./loadJobData.js";
import { runRealDataStudy, type RealDataStudy } from "./study/realDataStudy.js";
import { runStudy, type Study } from "./study/runStudy.js";
import { runVariants, type VariantRow } from "./study/runVariants.js";

/** What a study run produced, with where its data came from. */
export interface StudyRun {
  readonly study: Study;
  readonly real: RealDataStudy | undefined;
  /** The same data under other rules (in-sample), unless turned off. */
  readonly variants: readonly VariantRow[] | undefined;
  /** Human description of the data source (never the API key). */
  readonly source: string;
  readonly live: boolean;
  readonly seed: number | undefined;
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
    const { data, source, live, seed, loadMs } = await loadJobData(o, progress);
    const t1 = performance.now();
    progress.step("backtesting", 3);
    const study = runStudy(data, toStudyOptions(o));
    progress.update(1);
    const real = o.realData ? runRealDataStudy(toStudyOptions(o)) : undefined;
    progress.update(2);
    const variants = o.variants ? runVariants(data, toStudyOptions(o)) : undefined;
    progress.update(3);
    const t2 = performance.now();
    progress.stop();
    return { study, real, variants, source, live, seed, requests: data.requests, loadMs, computeMs: t2 - t1 };
  } finally {
    progress.stop();
  }
}
