/**
 * Child process of the recorder + compaction test: compacts the recording
 * argv[2] again and again until the file argv[3] exists, its clock skewed by
 * argv[4] ms (0: the same clock as the recorder). After each run it rewrites
 * `<argv[3]>.runs` with the number of runs so far. Prints `done <runs>`.
 */
import { existsSync, writeFileSync } from "node:fs";
import { compactRecording } from "../../../src/store/index.js";

const [dir, stopFile, skew] = process.argv.slice(2) as [string, string, string];
let runs = 0;
while (!existsSync(stopFile)) {
  await compactRecording(dir, { clock: () => Date.now() + Number(skew) });
  runs++;
  writeFileSync(`${stopFile}.runs`, String(runs));
}
process.stdout.write(`done ${runs}\n`);
