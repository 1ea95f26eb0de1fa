import { Command } from "commander";
import { startReplayServer } from "../../server/startReplayServer.js";
import { liveClock } from "../../server/liveClock.js";
import { integerOption, timeOption } from "../options.js";

/** Options of `milab serve`, as parsed. */
interface ServeOptions {
  readonly host: string;
  readonly port: number;
  readonly seed: number;
  readonly clock?: number | undefined;
  readonly rateLimit: number;
  readonly log: boolean;
  readonly live: boolean;
  readonly stepMs: number;
  readonly everyMs?: number;
}

/**
 * `milab serve`: run the replay server (every endpoint of the API, fed by the
 * seeded simulator) until Ctrl-C. Loopback only unless `--host` says otherwise;
 * on any other address one warning line goes to stderr (the server is then
 * reachable from other machines, without authentication).
 */
export function serveCommand(): Command {
  return new Command("serve")
    .description("run the local replay server: every Market Intelligence endpoint, fed by the seeded simulator")
    .option("--host <host>", "interface to bind (loopback only by default; any other address is reachable from other machines, and warns)", "127.0.0.1")
    .option("--port <n>", "TCP port (0 = any free port)", integerOption("port", 0, 65_535), 8080)
    .option("--seed <n>", "simulator seed (same seed and clock = identical responses)", integerOption("seed", 0, 2 ** 31 - 1), 42)
    .option("--clock <time>", 'fixed "now": ISO date/time (UTC) or epoch ms; "now" follows the wall clock', timeOption("clock"))
    .option("--rate-limit <n>", "requests per client per minute before 429 (0 = unlimited)", integerOption("rate-limit", 0, 1_000_000), 60)
    .option("--log", "log each request to stderr", false)
    .option("--live", "live mode: the clock starts at --clock (or now) and moves on by --step-ms every --every-ms of real time, new bars appearing as it does", false)
    .option("--step-ms <ms>", "live mode: simulated time per step (60000: a one-minute bar; 3600000: an hour)", integerOption("step-ms", 60_000, 86_400_000), 60_000)
    .option("--every-ms <ms>", "live mode: real ms per step (50: a bar every 50 ms) [--step-ms: real time]", integerOption("every-ms", 1, 86_400_000))
    .addHelpText(
      "after",
      "\nExamples:\n  milab serve                       # http://127.0.0.1:8080, wall clock\n  milab serve --live --clock 2026-11-01 --every-ms 50   # a new one-minute bar every 50 ms\n  milab serve --port 0 --clock 2026-11-01 --seed 7\n  MI_BASE_URL=http://127.0.0.1:8080 milab demo",
    )
    .action(async (opts: ServeOptions) => {
      const clockMs = opts.clock;
      const liveStart = Math.floor((clockMs ?? Date.now()) / 60_000) * 60_000;
      const live = opts.live ? liveClock({ start: liveStart, stepMs: opts.stepMs, everyMs: opts.everyMs ?? opts.stepMs }) : undefined;
      const server = await startReplayServer({
        host: opts.host,
        port: opts.port,
        seed: opts.seed,
        rateLimitPerMinute: opts.rateLimit,
        ...(live !== undefined ? { clock: live.now } : clockMs !== undefined ? { clock: () => clockMs } : {}),
        ...(opts.log
          ? { onRequest: (r: { method: string; path: string; status: number; ms: number }) => process.stderr.write(`${r.status} ${r.method} ${r.path} ${r.ms.toFixed(1)} ms\n`) }
          : {}),
      });
      if (!server.loopback) {
        process.stderr.write(
          `milab serve: warning: --host ${opts.host} is not a loopback address: the server (${server.url}) is reachable from other machines and serves its data without authentication; omit --host (default 127.0.0.1) to keep it on this machine\n`,
        );
      }
      // Listen for Ctrl-C before saying where the server is, so a caller that stops it as soon as it reads the URL gets a clean exit 0.
      const stopped = new Promise<void>((resolve) => {
        const stop = (): void => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          resolve();
        };
        process.on("SIGINT", stop);
        process.on("SIGTERM", stop);
      });
      const clockText =
        live !== undefined
          ? `live clock from ${new Date(liveStart).toISOString()}, ${opts.stepMs} ms of market time every ${opts.everyMs ?? opts.stepMs} ms`
          : clockMs === undefined
            ? "wall clock"
            : `clock fixed at ${new Date(clockMs).toISOString()}`;
      process.stdout.write(`replay server listening on ${server.url} (seed ${opts.seed}, ${clockText}); Ctrl-C to stop\n`);
      process.stdout.write(`use it from another shell: MI_BASE_URL=${server.url} milab demo   (or createClient({ baseUrl: "${server.url}" }))\n`);
      await stopped;
      live?.pause();
      await server.close();
      process.stderr.write("replay server stopped\n");
    });
}
