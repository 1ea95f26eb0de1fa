/**
 * `npm run bench -- store` (with store.bench.ts): readParquet of files written
 * by other tools with their defaults against the files this library writes,
 * issue 32's "Parquet written by others, as fast as our own". One year of
 * one-minute rows x 20 DOUBLE columns + time (the shape of store.bench's
 * single file), written three ways:
 * - ours: writeParquet's defaults (LZ4_RAW, PLAIN, one row group, checksums);
 * - DuckDB: `COPY ... (FORMAT parquet)` with no options (SNAPPY, PLAIN,
 *   row groups of 122,880 rows, TIMESTAMP µs, OPTIONAL columns);
 * - pyarrow: pandas' `df.to_parquet(path)` defaults with pyarrow itself
 *   (SNAPPY, dictionary then PLAIN pages, 1 MiB pages, TIMESTAMP ns index),
 *   when Debian's python3 can import pyarrow (test/support/pyarrowParquet.ts
 *   says how it is installed); otherwise written by arrow-rs with pyarrow's
 *   settings (test/support/foreignParquet.ts), and the bench says so.
 * Each file is first read here and checked bit for bit against DuckDB's own
 * reader; then BENCH_PROCS (5) fresh processes per file, files rotated, each
 * timing its first call (imports, WebAssembly compile and memory growth
 * included, compiled JavaScript as the library runs) and 5 warm calls.
 * Printed: best and median over the processes, wall and CPU time (all threads,
 * and the main thread's alone: on a machine with a core to spare a first call's
 * wall is about that plus its waits for the other threads), and the
 * load average while each file's processes ran. Targets: >= 3e7 values/s
 * warm, >= 2e7 on the first call in a fresh process.
 * Env: BENCH_DAYS (365), BENCH_PROCS (5), BENCH_FRESH=1 rewrites the files.
 */
import { spawnSync } from "node:child_process";
import { existsSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { buildSync } from "esbuild";
import { loadCodecs } from "../../src/store/codecs.js";
import { readParquet } from "../../src/store/readParquet.js";
import { writeParquet } from "../../src/store/writeParquet.js";
import { duckdbDefaultParquet, pyarrowDefaultParquet } from "../support/foreignParquet.js";
import { pyarrowParquet, pyarrowVersion } from "../support/pyarrowParquet.js";
import { mulberry32 } from "../support/mulberry32.js";
import { median } from "./median.js";

const DAYS = Number(process.env["BENCH_DAYS"] ?? 365);
const PROCS = Number(process.env["BENCH_PROCS"] ?? 5);
const WARM = 5;
const ROWS = DAYS * 1440;
const START = Date.UTC(2026, 0, 1);
const PYARROW = pyarrowVersion();
const files = {
  ours: join(tmpdir(), `milab-bench-foreign-v1-${DAYS}d-ours.parquet`),
  duckdb: join(tmpdir(), `milab-bench-foreign-v1-${DAYS}d-duckdb.parquet`),
  pyarrow: join(tmpdir(), `milab-bench-foreign-v1-${DAYS}d-pyarrow${PYARROW === undefined ? "" : `-${PYARROW}`}.parquet`),
} as const;
type Kind = keyof typeof files;
const kinds = Object.keys(files) as Kind[];

const fmt = (x: number, d = 0): string => x.toFixed(d);
const rate = (values: number, ms: number): string => (values / (ms / 1000)).toExponential(2);

// ---- the files: one seeded random walk a column (prices to 4 decimals, as store.bench's), written three ways
if (process.env["BENCH_FRESH"] === "1") for (const f of Object.values(files)) rmSync(f, { force: true });
if (!kinds.every((k) => existsSync(files[k]))) {
  const t0 = performance.now();
  const rand = mulberry32(1000);
  const time = Float64Array.from({ length: ROWS }, (_, i) => START + i * 60_000);
  const columns: Record<string, Float64Array> = {};
  for (let k = 0; k < 20; k++) {
    const col = new Float64Array(ROWS);
    let x = 100 + 900 * rand();
    for (let i = 0; i < ROWS; i++) {
      x *= 1 + (rand() - 0.5) * 2e-3;
      col[i] = Math.round(x * 1e4) / 1e4;
    }
    columns[`m${String(k + 1).padStart(2, "0")}`] = col;
  }
  await writeParquet(files.ours, { time, columns });
  await duckdbDefaultParquet(`select * from read_parquet('${files.ours}')`, files.duckdb);
  if (PYARROW === undefined) pyarrowDefaultParquet(await loadCodecs(), time, columns, files.pyarrow);
  else pyarrowParquet(time, columns, files.pyarrow);
  console.log(`wrote the three files in ${fmt((performance.now() - t0) / 1000, 1)} s (cached in ${tmpdir()})`);
}

console.log(`pyarrow's file: ${PYARROW === undefined ? "pyarrow is not importable by /usr/bin/python3: written by arrow-rs with pyarrow's settings (see test/support/pyarrowParquet.ts to install it)" : `written by pyarrow ${PYARROW} (pandas' to_parquet defaults)`}`);

// ---- each file read here once and checked against DuckDB's reader, value for value (float64 bits, null as NaN)
const duck = await DuckDBInstance.create(":memory:");
const conn = await duck.connect();
for (const k of kinds) {
  const p = await readParquet(files[k]);
  const names = ["time", ...Object.keys(p.columns)];
  const result = await conn.run(`select epoch_ns(time) as time, columns(* exclude (time)) from read_parquet('${files[k]}', file_row_number = true) order by file_row_number`);
  let row = 0;
  let bad = 0;
  for (let chunk = await result.fetchChunk(); chunk !== null && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    for (let c = 0; c < names.length; c++) {
      const ours = c === 0 ? p.time : (p.columns[names[c] as string] as Float64Array);
      const v = chunk.getColumnVector(c);
      for (let i = 0; i < chunk.rowCount; i++) {
        const x = v.getItem(i) as number | bigint | null;
        const want = x === null ? Number.NaN : typeof x === "bigint" ? Number(x / 1_000_000n) + Number(x % 1_000_000n) / 1e6 : x;
        if (!Object.is(ours[row + i], want)) bad++;
      }
    }
    row += chunk.rowCount;
  }
  if (bad !== 0 || row !== p.time.length) {
    console.log(`${k}: readParquet DIFFERS from DuckDB's reader in ${bad} values (${row} rows vs ${p.time.length})`);
    process.exit(1);
  }
}
conn.closeSync();
duck.closeSync();
console.log(`checked: each file's ${ROWS} rows x 21 columns equal DuckDB's reader bit for bit (times as epoch ms)`);

// ---- fresh processes, files rotated
const bundle = join(import.meta.dirname, ".readParquetRuns.bundle.mjs");
buildSync({ entryPoints: [join(import.meta.dirname, "readParquetRuns.ts")], bundle: true, platform: "node", format: "esm", packages: "external", outfile: bundle, logLevel: "warning" });
interface Run {
  values: number;
  calls: { wallMs: number; cpuMs: number; mainMs: number; faults: number }[];
}
const runs: Record<Kind, Run[]> = { ours: [], duckdb: [], pyarrow: [] };
const loads: Record<Kind, number[]> = { ours: [], duckdb: [], pyarrow: [] };
try {
  for (let r = 0; r < PROCS; r++) {
    for (let j = 0; j < kinds.length; j++) {
      const k = kinds[(r + j) % kinds.length] as Kind;
      loads[k].push(loadavg()[0] as number);
      const out = spawnSync(process.execPath, [bundle, files[k], String(WARM)], { encoding: "utf8", env: { ...process.env, TZ: "UTC" } });
      if (out.status !== 0) throw new Error(`${k}: ${out.stderr}`);
      runs[k].push(JSON.parse(out.stdout.trim().split("\n").pop() as string) as Run);
    }
  }
} finally {
  rmSync(bundle, { force: true });
}

console.log(`readParquet, ${ROWS} rows x 20 DOUBLE + time, ${PROCS} fresh processes a file (first call, then ${WARM} warm calls each); best / median over the processes:`);
const header = ["file", "size", "first call wall ms", "first call values/s (best / median)", "first call CPU ms", "first call main-thread CPU ms", "values/s by main-thread CPU", "warm wall ms (best / median of all warm calls)", "warm values/s (best / median)", "warm CPU ms", "warm values/s by CPU (best / median)", "load 1-min while run"];
console.log(`| ${header.join(" | ")} |`);
console.log(`|${header.map(() => "---").join("|")}|`);
const summary: string[] = [];
for (const k of kinds) {
  const values = (runs[k][0] as Run).values;
  const first = runs[k].map((x) => x.calls[0] as Run["calls"][number]);
  const warm = runs[k].flatMap((x) => x.calls.slice(1));
  const fw = first.map((c) => c.wallMs);
  const fc = first.map((c) => c.cpuMs);
  const fm = first.map((c) => c.mainMs);
  const ww = warm.map((c) => c.wallMs);
  const wc = warm.map((c) => c.cpuMs);
  console.log(
    `| ${k} | ${fmt(statSync(files[k]).size / 2 ** 20, 1)} MB | ${fmt(Math.min(...fw))} / ${fmt(median(fw))} | ${rate(values, Math.min(...fw))} / ${rate(values, median(fw))} | ${fmt(Math.min(...fc))} / ${fmt(median(fc))} | ${fmt(Math.min(...fm))} / ${fmt(median(fm))} | ${rate(values, Math.min(...fm))} / ${rate(values, median(fm))} | ${fmt(Math.min(...ww))} / ${fmt(median(ww))} | ${rate(values, Math.min(...ww))} / ${rate(values, median(ww))} | ${fmt(Math.min(...wc))} / ${fmt(median(wc))} | ${rate(values, Math.min(...wc))} / ${rate(values, median(wc))} | ${fmt(Math.min(...loads[k]), 1)}-${fmt(Math.max(...loads[k]), 1)} |`,
  );
  const ok = (x: number, target: number): string => (x >= target ? "met" : "NOT met");
  summary.push(`${k}: warm median ${rate(values, median(ww))} (${ok(values / (median(ww) / 1000), 3e7)}), first call median ${rate(values, median(fw))} (${ok(values / (median(fw) / 1000), 2e7)})`);
}
console.log(`targets (wall, median of the processes; warm >= 3e7 values/s, first call >= 2e7): ${summary.join("; ")}`);
console.log(`load average now: ${loadavg().map((x) => fmt(x, 1)).join(" ")} on this machine (2 cores; wall times swing with it, CPU times much less)`);
