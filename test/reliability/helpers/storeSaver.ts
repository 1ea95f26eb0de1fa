/**
 * A store-writing process for the two-process test: argv = store dir, metric
 * id, first time (epoch ms), number of one-minute points, points per
 * saveHistory call, and an instant (epoch ms) to spin until, so that two
 * savers start at once. Value i of the metric is `i + offset` (argv[7]).
 * Prints `done <saves>` when every save has returned.
 */
import { openStore } from "../../../src/store/index.js";

const [dir, metricId, from, points, chunk, at, offset] = process.argv.slice(2) as [string, string, string, string, string, string, string];
const store = openStore(dir);
const n = Number(points);
const step = Number(chunk);
while (Date.now() < Number(at)) {
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
