import { createClient } from "../api/createClient.js";
import { startReplayServer } from "../server/startReplayServer.js";
import { toStudyOptions, type StudyCliOptions } from "./addStudyOptions.js";
import type { Progress } from "./progress.js";
import { loadStudyData, studyMetricIds } from "./study/loadStudyData.js";
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
  const baseUrl = o.baseUrl ?? process.env["MI_BASE_URL"];
  const clockMs = o.clock;
  const server =
    baseUrl === undefined
      ? await startReplayServer({ seed: o.seed, rateLimitPerMinute: 0, ...(clockMs !== undefined ? { clock: () => clockMs } : {}) })
      : undefined;
  try {
    const total = studyMetricIds(o.coins).length;
    let done = 0;
    progress.step("loading history", total);
    const client = createClient({
      baseUrl: server?.url ?? baseUrl,
      apiKey: process.env["MI_API_KEY"],
      ...(server !== undefined ? { rateLimitPerMinute: 100_000 } : {}),
      onEvent: (e) => {
        if (e.type === "response" || e.type === "cache-hit") progress.update(++done);
      },
    });
    const t0 = performance.now();
    const data = await loadStudyData(client, o.coins, o.hours);
    const t1 = performance.now();
    for (const w of data.warnings ?? []) {
      progress.stop();
      process.stderr.write(`milab: warning: ${w}\n`);
    }
    progress.step("backtesting", 3);
    const study = runStudy(data, toStudyOptions(o));
    progress.update(1);
    const real = o.realData ? runRealDataStudy(toStudyOptions(o)) : undefined;
    progress.update(2);
    const variants = o.variants ? runVariants(data, toStudyOptions(o)) : undefined;
    progress.update(3);
    const t2 = performance.now();
    progress.stop();
    return {
      study,
      real,
      variants,
      source: server === undefined ? `live service ${client.baseUrl}` : `embedded replay server (simulator seed ${o.seed})`,
      live: server === undefined,
      seed: server === undefined ? undefined : o.seed,
      requests: data.requests,
      loadMs: t1 - t0,
      computeMs: t2 - t1,
    };
  } finally {
    progress.stop();
    await server?.close();
  }
}
