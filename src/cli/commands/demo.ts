import { Command } from "commander";
import { createClient } from "../../api/createClient.js";
import { startReplayServer } from "../../server/startReplayServer.js";
import { textTable } from "../../report/textTable.js";
import { integerOption, timeOption } from "../options.js";

/** The demo's default fixed clock: reproducible numbers on every machine. */
export const DEMO_CLOCK = Date.UTC(2026, 10, 1);

interface DemoOptions {
  readonly baseUrl?: string | undefined;
  readonly seed: number;
  readonly clock?: number | undefined;
  readonly out: string;
}

/**
 * `milab demo` (what `npm start` runs): the end-to-end job on the embedded
 * replay server, or on a live service with `--base-url` / `MI_BASE_URL`.
 */
export function demoCommand(): Command {
  return new Command("demo")
    .description("end-to-end demo: replay server -> history -> composite replay -> backtests -> scorecard + HTML report")
    .option("--base-url <url>", "use a live service instead of the embedded replay server [env MI_BASE_URL]")
    .option("--seed <n>", "simulator seed of the embedded replay server", integerOption("seed", 0, 2 ** 31 - 1), 42)
    .option("--clock <time>", 'fixed "now" of the embedded server: ISO date/time (UTC), epoch ms or "now"', timeOption("clock"), DEMO_CLOCK)
    .option("--out <dir>", "directory for report.html", "out")
    .action(async (opts: DemoOptions) => {
      const baseUrl = opts.baseUrl ?? process.env["MI_BASE_URL"];
      const clockMs = opts.clock;
      const server =
        baseUrl === undefined
          ? await startReplayServer({ seed: opts.seed, rateLimitPerMinute: 0, ...(clockMs !== undefined ? { clock: () => clockMs } : {}) })
          : undefined;
      try {
        const client = createClient({ baseUrl: server?.url ?? baseUrl, apiKey: process.env["MI_API_KEY"] });
        const source = server === undefined ? `live service ${client.baseUrl}` : `embedded replay server (seed ${opts.seed})`;
        process.stdout.write(`market-intel-lab demo on the ${source}\n\n`);
        const snap = await client.snapshot();
        process.stdout.write(`Snapshot: ${snap.catalog_total} catalog metrics\n`);
        process.stdout.write(
          `${textTable({
            metric: snap.metrics.map((m) => m.metric_id),
            value: snap.metrics.map((m) => m.value ?? Number.NaN),
            time: snap.metrics.map((m) => m.time_local),
          })}\n`,
        );
      } finally {
        await server?.close();
      }
    });
}
