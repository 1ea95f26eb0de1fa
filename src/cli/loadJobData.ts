import { createClient } from "../api/createClient.js";
import type { Coin } from "../domain/coins.js";
import { startReplayServer } from "../server/startReplayServer.js";
import type { Progress } from "./progress.js";
import { loadStudyData, studyMetricIds, type StudyData } from "./study/loadStudyData.js";

/** Where a job's history comes from: the embedded replay server (seeded) or a live service. */
export interface DataSourceOptions {
  readonly baseUrl?: string | undefined;
  readonly seed: number;
  readonly clock?: number | undefined;
  readonly coins: readonly Coin[];
  readonly hours: number;
}

/** A job's history and where it came from. */
export interface JobData {
  readonly data: StudyData;
  /** Human description of the data source (never the API key). */
  readonly source: string;
  readonly live: boolean;
  readonly seed: number | undefined;
  /** The "now" the history ends at (epoch ms): the fixed --clock, else the wall clock when the load began. */
  readonly clock: number;
  readonly loadMs: number;
}

/**
 * Load the history a study or sweep needs: from the embedded replay server (started
 * for the load and closed after it) or from the live service at `baseUrl` / MI_BASE_URL
 * (key from MI_API_KEY), with a progress step over the series; warnings go to stderr.
 */
export async function loadJobData(o: DataSourceOptions, progress: Progress): Promise<JobData> {
  const baseUrl = o.baseUrl ?? process.env["MI_BASE_URL"];
  const clockMs = o.clock;
  const clock = clockMs ?? Date.now();
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
    const loadMs = performance.now() - t0;
    for (const w of data.warnings ?? []) {
      progress.stop();
      process.stderr.write(`milab: warning: ${w}\n`);
    }
    return {
      data,
      source: server === undefined ? `live service ${client.baseUrl}` : `embedded replay server (simulator seed ${o.seed})`,
      live: server === undefined,
      seed: server === undefined ? undefined : o.seed,
      clock,
      loadMs,
    };
  } finally {
    await server?.close();
  }
}
