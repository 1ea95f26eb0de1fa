/**
 * `npm run bench`: runs every `*.bench.ts` beside this file, one after the
 * other in its own process (so peak-memory figures do not mix), and exits
 * non-zero if any fails. Pass a substring to run only matching files:
 * `npm run bench -- backtest`.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? "";
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts") && f.includes(filter))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const res = spawnSync(process.execPath, ["--import", "tsx", "--expose-gc", join(here, file)], {
    stdio: "inherit",
    env: { ...process.env, TZ: "UTC" },
  });
  if (res.status !== 0) failed += 1;
}
if (files.length === 0) console.log("no benchmarks matched");
process.exit(failed === 0 ? 0 : 1);
