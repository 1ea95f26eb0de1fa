/**
 * Child process of the compaction kill test: compacts argv[2] with the clock
 * at argv[3] and SIGKILLs itself right after step argv[4] (a partition
 * written, or a JSON-lines file removed), the moments where a crash could
 * lose or duplicate records. argv[4] = 0 never kills itself: it prints `step`
 * after each step and the parent kills it at a moment of its choosing.
 */
import { compactRecording } from "../../../src/store/index.js";

const [dir, clock, killAt] = process.argv.slice(2) as [string, string, string];
let steps = 0;
await compactRecording(dir, {
  clock: () => Number(clock),
  onProgress: () => {
    steps++;
    if (steps === Number(killAt)) process.kill(process.pid, "SIGKILL");
    if (Number(killAt) === 0) process.stdout.write("step\n");
  },
});
process.stdout.write("done\n");
