/**
 * A recorder process for the lock race: for each stdin line
 * `go <dir> <atEpochMs>` it spins until that instant (so both racers ask at
 * once), starts `record` on <dir> and prints `WIN` or `LOSE <code>`; on
 * `stop` it stops the recorder it holds and prints `STOPPED`.
 */
import { createInterface } from "node:readline";
import { createClient } from "../../../src/api/createClient.js";
import { MarketIntelError } from "../../../src/errors/MarketIntelError.js";
import { record, type Recorder } from "../../../src/load/record.js";

const client = createClient({ baseUrl: "http://127.0.0.1:9", retries: 0, fetch: (async () => new Response("{}", { status: 503 })) as unknown as typeof fetch });
let held: Recorder | undefined;
for await (const line of createInterface({ input: process.stdin })) {
  const [cmd, dir, at] = line.split(" ");
  if (cmd === "go") {
    while (Date.now() < Number(at)) {
      // spin: both racers leave this loop within the same millisecond
    }
    try {
      held = record(client, { dir: dir as string, endpoints: ["composite"], everySeconds: 3600 });
      process.stdout.write("WIN\n");
    } catch (err) {
      process.stdout.write(`LOSE ${err instanceof MarketIntelError ? err.code : `UNTYPED ${String(err)}`}\n`);
    }
  } else if (cmd === "stop") {
    await held?.stop().catch(() => undefined);
    held = undefined;
    process.stdout.write("STOPPED\n");
  }
}
