import { Command, InvalidArgumentError as CommanderArgumentError } from "commander";
import { createClient } from "../../api/createClient.js";
import { MarketIntelError } from "../../errors/MarketIntelError.js";
import { record, RECORDABLE_ENDPOINTS, type RecordableEndpoint, type RecordLog } from "../../load/record.js";
import { integerOption, numberOption } from "../options.js";

/** Options of `milab record`, as parsed. */
interface RecordCliOptions {
  readonly dir: string;
  readonly every: number;
  readonly endpoints: RecordableEndpoint[];
  readonly baseUrl?: string | undefined;
  readonly maxPolls?: number | undefined;
  readonly quiet: boolean;
  readonly fsync: boolean;
}

function endpointList(raw: string): RecordableEndpoint[] {
  const items = raw.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (items.length === 1 && items[0] === "all") return [...RECORDABLE_ENDPOINTS];
  const bad = items.filter((s) => !(RECORDABLE_ENDPOINTS as readonly string[]).includes(s));
  if (items.length === 0 || bad.length > 0) {
    throw new CommanderArgumentError(`endpoints must be "all" or a comma list of ${RECORDABLE_ENDPOINTS.join(", ")}, got ${raw}`);
  }
  return items as RecordableEndpoint[];
}

/**
 * `milab record`: poll the API and append every new response to a recording
 * directory (JSON lines per endpoint and day) until Ctrl-C; safe to kill and
 * restart (no loss, no duplicates). Building it has no side effects.
 * Ctrl-C stops it after the responses in flight are written, exit code 130.
 * Fails (exit code 1) when every request failed (nothing written or
 * already there), when the folder is held by another recorder, or on a disk
 * error.
 */
export function recordCommand(): Command {
  return new Command("record")
    .description("record the API over days: append each new response to DIR/<endpoint>/<day>.jsonl, resume without duplicates")
    .requiredOption("--dir <dir>", "recording directory (created if missing)")
    .option("--every <seconds>", "seconds between polls (the API caches responses for 45 s)", numberOption("every", 1, 86_400), 60)
    .option("--endpoints <list>", `"all" or a comma list of: ${RECORDABLE_ENDPOINTS.join(", ")}`, endpointList, ["composite", "volatility", "regime", "snapshot"])
    .option("--base-url <url>", "service root [env MI_BASE_URL]; the API key comes from env MI_API_KEY")
    .option("--max-polls <n>", "stop after this many polls", integerOption("max-polls", 1, Number.MAX_SAFE_INTEGER))
    .option("--fsync", "fsync each append (survives power loss, not only a killed process)", false)
    .option("--quiet", "log only warnings and errors", false)
    .addHelpText(
      "after",
      "\nExamples:\n  milab record --dir rec --every 60\n  milab record --dir rec --endpoints composite,volatility --base-url http://127.0.0.1:8080\n\nRead it back in TypeScript: loadRecording(\"rec\").compositeByCoin()",
    )
    .action(async (opts: RecordCliOptions) => {
      const client = createClient({ baseUrl: opts.baseUrl ?? process.env["MI_BASE_URL"], apiKey: process.env["MI_API_KEY"] });
      const controller = new AbortController();
      let interrupted = false;
      const stop = (): void => controller.abort();
      const onInt = (): void => {
        interrupted = true;
        stop();
      };
      process.once("SIGINT", onInt);
      process.once("SIGTERM", stop);
      try {
        const rec = record(client, {
          dir: opts.dir,
          endpoints: opts.endpoints,
          everyMs: opts.every * 1000,
          signal: controller.signal,
          fsync: opts.fsync,
          ...(opts.maxPolls === undefined ? {} : { maxPolls: opts.maxPolls }),
          onLog: (l: RecordLog) => {
            if (opts.quiet && l.level === "info" && l.event !== "start" && l.event !== "stop") return;
            process.stderr.write(`${new Date().toISOString()} ${l.level} ${l.message}\n`);
          },
        });
        const stats = await rec.done;
        if (stats.errors > 0 && stats.written === 0 && stats.unchanged === 0) {
          throw new MarketIntelError(
            "NOTHING_RECORDED",
            `record: every request failed (${stats.errors} of ${stats.errors}), nothing was recorded: check --base-url / MI_BASE_URL, MI_API_KEY and the log above`,
          );
        }
        // Ctrl-C is how a recording ends: everything polled is on disk, and the exit code says it was stopped
        if (interrupted) process.exitCode = 130; // EXIT.interrupted of runCli
      } finally {
        process.off("SIGINT", onInt);
        process.off("SIGTERM", stop);
      }
    });
}
