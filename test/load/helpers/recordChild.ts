/**
 * Child process of the kill test: records the replay server at argv[2] into
 * argv[3] as fast as it can, printing `W <endpoint> <key>` after each
 * completed append (so the parent knows which records were complete).
 */
import { createClient } from "../../../src/api/index.js";
import { record } from "../../../src/load/index.js";
import { scaledMs } from "../../support/timeScale.js";

const [url, dir] = process.argv.slice(2) as [string, string];
const client = createClient({ baseUrl: url, cacheTtlMs: 0, rateLimitPerMinute: 1_000_000, retries: 0, timeoutMs: scaledMs(5_000) });
const rec = record(client, {
  dir,
  endpoints: ["composite", "snapshot", "volatility", "regime"],
  everyMs: 20,
  onLog: (l) => {
    if (l.event === "write") process.stdout.write(`W ${l.endpoint} ${l.key}\n`);
  },
});
await rec.done;
