/**
 * `npm run bench -- store`: the local store at scale. One year of one-minute
 * data for 4 coins x 21 metrics (44 million values) as the store keeps it
 * (one Parquet file per coin and UTC day, a column per metric), then:
 * - store size on disk against the raw float64 size;
 * - a year of one coin's 21 metrics into a Panel (store.readHistory), first
 *   call in the process (WebAssembly start-up included) and warm;
 * - growth: 1, 3, 6 and 12 months of that coin (time and log-log slope);
 * - memory: peak RSS growth during the first coin-year load / the Panel's bytes;
 * - readParquet on one file of a year x 20 DOUBLE columns (+ time), values/s
 *   after the first call;
 * - readParquet's first call in a fresh process (imports and WebAssembly start-up included), as
 *   compiled JavaScript (the way the library runs) and from the sources under tsx;
 * - DuckDB reading the same file, and the same coin-year, into Float64Arrays;
 * - a SQL aggregation (DuckDB) over everything.
 * The data is generated once (seeded, the store's own writer, no fsync) and
 * kept in the OS temp folder for later runs (BENCH_FRESH=1 rebuilds it).
 * Env: BENCH_DAYS (365), BENCH_ROUNDS (3). Targets (issue 14): coin-year < 1 s,
 * readParquet >= 2e7 values/s on the first call in a process and >= 5e7 warm,
 * memory <= 1.5x the data, linear growth.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { buildSync } from "esbuild";
import { loadCodecs } from "../../src/store/codecs.js";
import { openStore, readParquet } from "../../src/store/index.js";
import { parquetBytes } from "../../src/store/parquetBytes.js";
import { mulberry32 } from "../support/mulberry32.js";

const DAYS = Number(process.env["BENCH_DAYS"] ?? 365);
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 3);
const COINS = ["btc", "eth", "sol", "hype"];
const METRICS = [
  "price", "perp_price", "funding_rate", "imbalance", "basis_bps", "oi_usd", "volume", "spread_bps", "momentum_5m_pct",
  ...Array.from({ length: 12 }, (_, i) => `extra_${String(i + 1).padStart(2, "0")}`),
];
const START = Date.UTC(2026, 0, 1);
const DAY_MS = 86_400_000;
const ROWS = DAYS * 1440;
const dir = join(tmpdir(), `milab-bench-store-v4-${DAYS}d`);
const single = join(tmpdir(), `milab-bench-year-v4-${DAYS}d.parquet`);

const fmt = (x: number, d = 2): string => x.toFixed(d);
const mb = (b: number): string => `${fmt(b / 2 ** 20, 1)} MB`;
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}
function du(path: string): number {
  let total = 0;
  for (const name of readdirSync(path)) {
    const p = join(path, name);
    const st = statSync(p);
    total += st.isDirectory() ? du(p) : st.size;
  }
  return total;
}

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 2);

// ---- data: one seeded random walk per coin and metric, a file per coin and day
const codecs = await loadCodecs();
const marker = join(dir, ".complete");
if (process.env["BENCH_FRESH"] === "1") rmSync(dir, { recursive: true, force: true });
if (!existsSync(marker)) {
  rmSync(dir, { recursive: true, force: true });
  const t0 = performance.now();
  const time = new Float64Array(1440);
  const cols = Object.fromEntries(METRICS.map((m) => [m, new Float64Array(1440)]));
  for (const [c, coin] of COINS.entries()) {
    const rand = mulberry32(1000 + c);
    const level = METRICS.map(() => 100 + 900 * rand());
    for (let d = 0; d < DAYS; d++) {
      const day = new Date(START + d * DAY_MS).toISOString().slice(0, 10);
      for (let i = 0; i < 1440; i++) time[i] = START + d * DAY_MS + i * 60_000;
      METRICS.forEach((m, k) => {
        const col = cols[m] as Float64Array;
        let x = level[k] as number;
        for (let i = 0; i < 1440; i++) {
          x *= 1 + (rand() - 0.5) * 2e-3;
          col[i] = Math.round(x * 1e4) / 1e4; // prices to 4 decimals, as the service sends them
        }
        level[k] = x;
      });
      const folder = join(dir, "endpoint=history", `coin=${coin}`, `day=${day}`);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, "part-0.parquet"), parquetBytes(codecs, { time, columns: cols }, {}, "bench"));
    }
  }
  writeFileSync(marker, `${DAYS}\n`);
  console.log(`generated ${COINS.length * DAYS} files in ${fmt((performance.now() - t0) / 1000, 1)} s (cached in ${dir})`);
}
if (!existsSync(single)) {
  // One file: a year x 20 DOUBLE columns + time, the shape ENVIRONMENT.md measured the Parquet readers on.
  const store = openStore(dir);
  const year = await store.readHistory({ coin: "btc", metricId: METRICS.slice(0, 20) });
  writeFileSync(single, parquetBytes(codecs, { time: year.time, columns: Object.fromEntries(Object.entries(year.columns).map(([k, v]) => [k.replace(/^btc_/, ""), v])) }, {}, "bench"));
  store.close();
}

const rawBytes = COINS.length * ROWS * (METRICS.length + 1) * 8;
const storeBytes = du(join(dir, "endpoint=history"));
console.log(`store: ${COINS.length} coins x ${METRICS.length} metrics x ${DAYS} days of one-minute rows = ${(COINS.length * METRICS.length * ROWS / 1e6).toFixed(1)} M values`);
console.log(`  size on disk ${mb(storeBytes)} (LZ4_RAW) vs ${mb(rawBytes)} as float64 (time included): ${fmt(storeBytes / rawBytes, 2)}x`);

// ---- a year of one coin's 21 metrics into a Panel
const store = openStore(dir);
const ids = METRICS.map((m) => `btc_${m}`);
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const load = async (months?: number): Promise<{ ms: number; cpu: number; rows: number }> => {
  const t = performance.now();
  const c = cpuMs();
  const p = await store.readHistory({ metricId: ids, ...(months === undefined ? {} : { end: START + Math.round((months * DAYS) / 12) * DAY_MS }) });
  return { ms: performance.now() - t, cpu: cpuMs() - c, rows: p.time.length };
};
// The first load in the process also gives the memory figure: peak RSS growth over the baseline
// (WebAssembly memory growth, the file bytes in flight and the Panel itself) / the Panel's bytes.
global.gc?.();
await new Promise((r) => setTimeout(r, 20));
const base = process.memoryUsage().rss;
peakRss = base;
const t0 = performance.now();
const held = await store.readHistory({ metricId: ids });
const first = { ms: performance.now() - t0, rows: held.time.length };
await new Promise((r) => setTimeout(r, 10));
const panelBytes = held.time.byteLength + Object.values(held.columns).reduce((s, c) => s + c.byteLength, 0);
const firstPeak = peakRss - base;
const warm: number[] = [];
const warmCpu: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const x = await load();
  warm.push(x.ms);
  warmCpu.push(x.cpu);
}
const values = first.rows * METRICS.length;
console.log(`coin-year load (store.readHistory, ${METRICS.length} metrics, ${first.rows} rows, ${DAYS} files):`);
console.log(`  first call ${fmt(first.ms / 1000)} s; warm median ${fmt(median(warm) / 1000)} s (best ${fmt(Math.min(...warm) / 1000)} s) = ${(values / (median(warm) / 1000)).toExponential(2)} values/s   target < 1 s`);
console.log(`  CPU time (user + system, all threads) of the warm loads: median ${fmt(median(warmCpu) / 1000)} s (best ${fmt(Math.min(...warmCpu) / 1000)} s): what a free core would take, roughly`);

console.log(`memory: peak RSS growth during the first load ${mb(firstPeak)} for a ${mb(panelBytes)} Panel = ${fmt(firstPeak / panelBytes)}x   target <= 1.5x`);
{
  // A warm load while the first result is still held: the growth is the second Panel plus the load's own overhead.
  global.gc?.();
  await new Promise((r) => setTimeout(r, 20));
  const warmBase = process.memoryUsage().rss;
  peakRss = warmBase;
  const again = await store.readHistory({ metricId: ids });
  await new Promise((r) => setTimeout(r, 10));
  console.log(`        peak RSS growth during a warm load ${mb(peakRss - warmBase)} for another ${mb(panelBytes)} Panel = ${fmt((peakRss - warmBase) / panelBytes)}x (${again.time.length === held.time.length ? "same rows" : "rows differ!"})`);
}

// ---- growth
const sizes = [1, 3, 6, 12];
const growth: { months: number; ms: number; rows: number }[] = [];
for (const months of sizes) {
  const runs: number[] = [];
  let rows = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const x = await load(months);
    runs.push(x.ms);
    rows = x.rows;
  }
  growth.push({ months, ms: median(runs), rows });
}
console.log("growth (median of rounds):");
growth.forEach((g, i) => {
  const prev = growth[i - 1];
  const slope = prev === undefined ? "" : `  slope ${fmt(Math.log(g.ms / prev.ms) / Math.log(g.rows / prev.rows))}`;
  console.log(`  ${String(g.months).padStart(2)} months ${String(g.rows).padStart(7)} rows ${fmt(g.ms, 0).padStart(6)} ms  ${fmt((g.ms * 1000) / g.rows, 2)} µs/row${slope}`);
});

// ---- readParquet on one year x 20 DOUBLE columns
// The first call in a process: a fresh Node process (imports, WebAssembly compile and start-up included), three times
// each way: as the library runs (compiled JavaScript: readParquetOnce.ts bundled by esbuild, the packages left as
// imports, like dist/), and from the TypeScript sources under tsx, whose module hooks add to every import
// (apache-arrow's ~160 modules) a cost the library's users do not pay.
const onceBundle = join(import.meta.dirname, ".readParquetOnce.bundle.mjs");
buildSync({ entryPoints: [join(import.meta.dirname, "readParquetOnce.ts")], bundle: true, platform: "node", format: "esm", packages: "external", outfile: onceBundle, logLevel: "warning" });
const spawnOnce = (args: string[]): { ms: number; n: number } => {
  const out = spawnSync(process.execPath, [...args, single], { encoding: "utf8", env: { ...process.env, TZ: "UTC" } });
  const [ms, n] = out.stdout.trim().split(" ").map(Number) as [number, number];
  return { ms, n };
};
const firstCalls: { ms: number; n: number }[] = [];
const firstCallsTsx: { ms: number; n: number }[] = [];
try {
  for (let r = 0; r < 3; r++) {
    firstCalls.push(spawnOnce([onceBundle]));
    firstCallsTsx.push(spawnOnce(["--import", "tsx", join(import.meta.dirname, "readParquetOnce.ts")]));
  }
} finally {
  rmSync(onceBundle, { force: true });
}
const singleFirst = performance.now();
const once = await readParquet(single);
const singleFirstMs = performance.now() - singleFirst;
const singleRuns: number[] = [];
const singleCpu: number[] = [];
for (let r = 0; r < Math.max(3, ROUNDS); r++) {
  const t = performance.now();
  const c = cpuMs();
  await readParquet(single);
  singleRuns.push(performance.now() - t);
  singleCpu.push(cpuMs() - c);
}
const singleValues = once.time.length * (Object.keys(once.columns).length + 1);
console.log(`readParquet, one file of ${once.time.length} rows x ${Object.keys(once.columns).length} DOUBLE + time (${mb(statSync(single).size)}):`);
console.log(`  first ${fmt(singleFirstMs, 0)} ms; warm median ${fmt(median(singleRuns), 0)} ms = ${(singleValues / (median(singleRuns) / 1000)).toExponential(2)} values/s (best ${(singleValues / (Math.min(...singleRuns) / 1000)).toExponential(2)})   target >= 5e7`);
console.log(`  by CPU time: median ${fmt(median(singleCpu), 0)} ms = ${(singleValues / (median(singleCpu) / 1000)).toExponential(2)} values/s`);
const firstLine = (runs: { ms: number }[]): string => `${runs.map((f) => fmt(f.ms, 0)).join(", ")} ms = median ${(singleValues / (median(runs.map((f) => f.ms)) / 1000)).toExponential(2)} values/s (best ${(singleValues / (Math.min(...runs.map((f) => f.ms)) / 1000)).toExponential(2)})`;
console.log(`  first call in a fresh process (codecs imported and compiled), compiled JS: ${firstLine(firstCalls)}   target >= 2e7 (warm >= 5e7)`);
console.log(`  the same from the TypeScript sources under tsx (its hooks on every import): ${firstLine(firstCallsTsx)}`);

// ---- DuckDB side by side: the same file, and the same coin-year, into JavaScript arrays (Float64Array per column, null as NaN)
const duck = await DuckDBInstance.create(":memory:");
const conn = await duck.connect();
/** Run `sql` (every column DOUBLE) and copy each chunk's vectors into Float64Arrays: DuckDB's fastest way into JS arrays. */
const duckColumns = async (sql: string): Promise<Float64Array[]> => {
  const result = await conn.run(sql);
  const parts: Float64Array[][] = [];
  for (let chunk = await result.fetchChunk(); chunk !== null && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
    for (let c = 0; c < chunk.columnCount; c++) {
      const v = chunk.getColumnVector(c) as unknown as { items: Float64Array; getItem(i: number): number | null };
      const copy = Float64Array.from(v.items);
      for (let i = 0; i < copy.length; i++) if (v.getItem(i) === null) copy[i] = Number.NaN;
      (parts[c] ??= []).push(copy);
    }
  }
  return parts.map((list) => {
    const out = new Float64Array(list.reduce((n, a) => n + a.length, 0));
    let at = 0;
    for (const a of list) {
      out.set(a, at);
      at += a.length;
    }
    return out;
  });
};
const duckSingle: number[] = [];
for (let r = 0; r < Math.max(3, ROUNDS); r++) {
  const t = performance.now();
  await duckColumns(`select epoch_ms(time)::double as time, columns(* exclude (time))::double from read_parquet('${single}', hive_partitioning = false)`);
  duckSingle.push(performance.now() - t);
}
console.log(`DuckDB, the same file into Float64Arrays (chunk by chunk): median ${fmt(median(duckSingle), 0)} ms = ${(singleValues / (median(duckSingle) / 1000)).toExponential(2)} values/s (best ${(singleValues / (Math.min(...duckSingle) / 1000)).toExponential(2)})`);
const duckYear: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const t = performance.now();
  await duckColumns(`select epoch_ms(time)::double as time, columns(* exclude (time))::double from read_parquet('${join(dir, "endpoint=history", "coin=btc")}/*/*.parquet', hive_partitioning = false) order by time`);
  duckYear.push(performance.now() - t);
}
console.log(`DuckDB, the same coin-year (${DAYS} files) into Float64Arrays: median ${fmt(median(duckYear) / 1000)} s (best ${fmt(Math.min(...duckYear) / 1000)} s); store.readHistory warm median ${fmt(median(warm) / 1000)} s`);
conn.closeSync();
duck.closeSync();

// ---- SQL over everything
const sql = "select coin, count(*) as rows, avg(columns(* exclude (time, endpoint, coin, day))) from history group by coin order by coin";
for (const label of ["first", "again"]) {
  const t = performance.now();
  const res = await store.queryColumns(sql);
  console.log(`SQL ${label}: ${fmt((performance.now() - t) / 1000)} s for ${(res["rows"] as Float64Array).reduce((s, x) => s + x, 0)} rows x ${METRICS.length} metrics (${sql})`);
}
store.close();
clearInterval(sampler);
console.log(`load average now: ${loadavg().map((x) => fmt(x, 1)).join(" ")} on this machine (timings are noisy when it is busy)`);
