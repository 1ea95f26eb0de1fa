/**
 * Child process of the recorder + compaction test: a recorder of argv[2]
 * that is descheduled between opening a file and writing its line, as a
 * recorder on a loaded machine can be: every `writeSync` of this process
 * first sleeps argv[4] ms (node:fs patched, then synced into the ES module
 * exports before the recorder is loaded). Half the responses are stamped
 * three or more days ago (late data). Polls every 10 ms until the file
 * argv[3] exists; appends each acknowledged key (the recorder's `write` log)
 * to `<argv[3]>.acked`, one a line, and prints `done <acked>`.
 */
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";

const [dir, stopFile, pauseMs] = process.argv.slice(2) as [string, string, string];
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const writeSync = fs.writeSync;
fs.writeSync = ((...args: Parameters<typeof fs.writeSync>) => {
  Atomics.wait(sleeper, 0, 0, Number(pauseMs));
  return writeSync(...args);
}) as typeof fs.writeSync;
syncBuiltinESMExports();

const { record } = await import("../../../src/load/index.js");
const DAY_MS = 86_400_000;
const start = Date.now();
let n = 0;
const client = {
  raw: async () => {
    n++;
    const t = n % 2 === 1 ? start - 3 * DAY_MS - n * 1000 : start + n * 1000;
    return { timestamp: new Date(t).toISOString(), signals: [], n };
  },
};
const acked: string[] = [];
const rec = record(client as never, { dir, endpoints: ["composite"], everyMs: 10, onLog: (l) => l.event === "write" && l.key !== undefined && acked.push(l.key) });
while (!fs.existsSync(stopFile)) await new Promise((r) => setTimeout(r, 50));
await rec.stop();
writeSync(fs.openSync(`${stopFile}.acked`, "w"), acked.map((k) => `${k}\n`).join(""));
process.stdout.write(`done ${acked.length}\n`);
