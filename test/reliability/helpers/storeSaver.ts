/**
 * A store-writing process for the two-process test: argv = store dir, metric
 * id, first time (epoch ms), number of one-minute points, points per
 * saveHistory call, and `offset` (argv[6]): value i of the metric is
 * `i + offset`. Once its store is open it prints `ready` and reads a line
 * `go <epoch ms>` from stdin, then spins until that instant, so that two
 * savers start at once (the parent sends it when both are ready).
 * Prints `done <saves>` when every save has returned.
 */
import { createInterface } from "node:readline";
import { openStore } from "../../../src/store/index.js";

const [dir, metricId, from, points, chunk, offset] = process.argv.slice(2) as [string, string, string, string, string, string];
const store = openStore(dir);
const n = Number(points);
const step = Number(chunk);
process.stdout.write("ready\n");
const lines = createInterface({ input: process.stdin });
let at = Number.NaN;
for await (const line of lines) {
  at = Number(line.split(" ")[1]);
  break;
}
lines.close();
while (Date.now() < at) {
  // spin: both savers leave this loop within the same millisecond
}
let saves = 0;
for (let i0 = 0; i0 < n; i0 += step) {
  const m = Math.min(step, n - i0);
  const time = Array.from({ length: m }, (_, k) => Number(from) + (i0 + k) * 60_000);
  const value = Array.from({ length: m }, (_, k) => i0 + k + Number(offset));
  await store.saveHistory({ metricId, time, value });
  saves++;
}
store.close();
process.stdout.write(`done ${saves}\n`);
