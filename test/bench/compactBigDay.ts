/**
 * Compaction of one large day file (issue 31 item 9: a 200 MB day took
 * 5 min 51 s and 2.3 GB and held the store lock past its 120 s timeout).
 * Usage: `/usr/bin/time -v npx tsx test/bench/compactBigDay.ts <MB> [dir]`
 * writes `<dir>/composite/2026-11-01.jsonl` (recorder lines, ~2.4 KB
 * composite bodies of 12 coins, one a second) of about <MB> MB, compacts
 * it with a clock days later, and prints the wall and CPU time and the
 * longest time the store's write lock file existed (a child process
 * polls it every 2 ms). Peak memory: `Maximum resident set size` of
 * /usr/bin/time -v.
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatRecordingLine } from "../../src/load/recordingLine.js";
import { compactRecording } from "../../src/store/index.js";

const mb = Number(process.argv[2] ?? 200);
const dir = process.argv[3] ?? mkdtempSync(join(tmpdir(), "milab-bigday-"));
const T0 = Date.UTC(2026, 10, 1);
const COINS = ["BTC", "ETH", "SOL", "XRP", "DOGE", "ADA", "AVAX", "LINK", "DOT", "MATIC", "LTC", "BCH"];
mkdirSync(join(dir, "composite"), { recursive: true });
const file = join(dir, "composite", "2026-11-01.jsonl");
if (!existsSync(file)) {
  const fd = openSync(file, "w");
  let bytes = 0;
  for (let i = 0; bytes < mb * 1e6; i++) {
    const time = T0 + i * 1000;
    const body = {
      timestamp: new Date(time).toISOString(),
      signals: COINS.map((coin, c) => ({
        coin,
        composite_score: Math.sin(i / 97 + c),
        confidence: 0.5 + 0.5 * Math.cos(i / 13 + c),
        components: { imbalance: Math.sin(i + c) * 3, funding: 1e-4 * Math.cos(i * c), basis_spread: 0.01 * Math.sin(i / 7), momentum_5m: Math.cos(i / 5 + c), gas: 20 + c },
      })),
    };
    const line = formatRecordingLine({ endpoint: "composite", key: body.timestamp, time, fetchedAt: time + 250, body });
    bytes += writeSync(fd, line);
  }
  closeSync(fd);
}
const lockPath = join(dir, "store", ".store.lock");
const watcher = spawn(
  process.execPath,
  [
    "-e",
    `const fs=require("fs");let since=0,max=0,n=0;const t=setInterval(()=>{const now=performance.now();if(fs.existsSync(${JSON.stringify(lockPath)})){if(!since){since=now;n++}}else if(since){max=Math.max(max,now-since);since=0}},2);process.on("SIGTERM",()=>{if(since)max=Math.max(max,performance.now()-since);process.stdout.write(JSON.stringify({max,n}));process.exit(0)});`,
  ],
  { stdio: ["ignore", "pipe", "inherit"] },
);
let out = "";
watcher.stdout.on("data", (d: Buffer) => (out += d.toString()));
await new Promise((r) => setTimeout(r, 300));
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const stats = await compactRecording(dir, { clock: () => T0 + 5 * 86_400_000 });
const wall = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const exited = new Promise((r) => watcher.on("exit", r));
watcher.kill("SIGTERM");
await exited;
const lock = JSON.parse(out) as { max: number; n: number };
console.log(
  `compact ${mb} MB day (${stats.lines} lines, ${stats.records} records, removed ${stats.removed}): wall ${(wall / 1000).toFixed(1)} s, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, lock held ${lock.n} times, longest ${(lock.max / 1000).toFixed(2)} s`,
);
if (process.argv[3] === undefined) rmSync(dir, { recursive: true, force: true });
