/**
 * Child process of the recorder + compaction test: compacts the recording
 * argv[2] again and again until the instant argv[3] (epoch ms), its clock
 * skewed by argv[4] ms (0: the same clock as the recorder). Prints `done <runs>`.
 */
import { compactRecording } from "../../../src/store/index.js";

const [dir, until, skew] = process.argv.slice(2) as [string, string, string];
let runs = 0;
while (Date.now() < Number(until)) {
  await compactRecording(dir, { clock: () => Date.now() + Number(skew) });
  runs++;
}
process.stdout.write(`done ${runs}\n`);
