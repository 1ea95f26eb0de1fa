/**
 * Child process of the pinFile test: replaces `argv[2]` by renaming a freshly
 * written file over it, as every store write does, `argv[3]` times, then
 * prints `done <renames>`.
 */
import { renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const [target, count] = process.argv.slice(2) as [string, string];
const tmp = join(dirname(target), `.tmp-${process.pid}`);
let i = 0;
for (; i < Number(count); i++) {
  writeFileSync(tmp, `version ${i}\n`);
  renameSync(tmp, target);
}
process.stdout.write(`done ${i}\n`);
