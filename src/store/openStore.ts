import { existsSync, mkdirSync, readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import type { History } from "../api/createClient.js";
import { alignAsOf } from "../data/alignAsOf.js";
import type { Panel } from "../data/Panel.js";
import { sortDedupe } from "../data/sortDedupe.js";
import { toDataFrame } from "../data/toDataFrame.js";
import { unionTimes } from "../data/unionTimes.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { refuseRenamedOptions } from "../errors/refuseRenamedOptions.js";
import { createRecording } from "../load/createRecording.js";
import { loadRecording } from "../load/loadRecording.js";
import type { RecordedResponse } from "../load/recordingLine.js";
import { addCoverage, coveringInterval, type Coverage } from "./coverage.js";
import { loadCodecs, loadReadCodecs, type ReadCodecs } from "./codecs.js";
import { createPanelBuilder } from "./createPanelBuilder.js";
import { readFileBytes, type ReadScratch } from "./readFileBytes.js";
import { parquetToPanel, storeFilePlan } from "./readParquet.js";
import { readRecordFile } from "./recordFile.js";
import { coinDir, seriesKey, type SeriesKey } from "./seriesKey.js";
import { createSqlEngine } from "./sqlEngine.js";
import type { Store, StoredSeries } from "./Store.js";
import { timeBound, writtenTime } from "./timeBound.js";
import { utcDay } from "./utcDay.js";
import { parquetBytes } from "./parquetBytes.js";
import { writeFileAtomic } from "./writeFileAtomic.js";
import { withStoreWriteLock } from "./storeWriteLock.js";
import { checkStorePath, storeEntries } from "./storeEntries.js";

/** Options of {@link openStore}. */
export interface OpenStoreOptions {
  /** "Now" for deciding what a history window still lacks, epoch ms [Date.now]. Give the replay server's clock in tests and notebooks. */
  readonly clock?: () => number;
  /** How old the newest stored point of a window may be before the missing hours are fetched [60 000, one bar]. */
  readonly maxAgeMs?: number;
  /** How long a write waits for another process's write lock on the store before StoreLockedError [120 000]. */
  readonly lockTimeoutMs?: number;
}

const HOUR_MS = 3_600_000;
const MAX_HOURS = 720;
const COVERAGE_FILE = "_coverage.json";


/**
 * Day folders (`day=YYYY-MM-DD`) under `dir` meeting [startDay, endDay], sorted, with their Parquet files;
 * a symbolic link or device among them is refused (UnsafeStorePathError), never followed.
 */
function dayParts(root: string, dir: string, startDay: string, endDay: string, where: string): string[] {
  checkStorePath(root, dir, where);
  const out: string[] = [];
  const inRange = (name: string): boolean => name.startsWith("day=") && name.slice(4) >= startDay && name.slice(4) <= endDay;
  for (const d of storeEntries(dir, where, inRange)) {
    if (!d.isDirectory()) continue;
    for (const f of storeEntries(join(dir, d.name), where, (n) => n.endsWith(".parquet") && !n.startsWith("."))) if (f.isFile()) out.push(join(dir, d.name, f.name));
  }
  return out;
}

/**
 * Read files one after another into one reused buffer and decode each (the
 * decoders copy out what they keep; WebAssembly is single-threaded anyway),
 * handing each result on. Synchronous reads: the files are small and mostly
 * in the page cache, while fs/promises' open, stat, read and close are four
 * thread-pool round trips a file (7% less CPU for a coin-year of 365 files,
 * farm-bench 5 pairs); one buffer instead of one per file leaves no garbage
 * of file bytes behind (a coin-year is 77 MB of them).
 */
async function readEach<T>(paths: readonly string[], decode: (bytes: Uint8Array, path: string) => T, each: (value: T) => void): Promise<void> {
  const scratch: ReadScratch = { buffer: Buffer.alloc(0) };
  for (const path of paths) {
    const bytes = readFileBytes(path, scratch);
    let value: T;
    try {
      value = decode(bytes, path);
    } catch (err) {
      if (err instanceof InvalidArgumentError) throw err;
      throw new InvalidArgumentError("store", `store: ${JSON.stringify(path)} is not a readable Parquet file (${err instanceof Error ? err.message : String(err)}); delete or replace it`);
    }
    each(value);
  }
}

async function readAll<T>(paths: readonly string[], decode: (bytes: Uint8Array, path: string) => T): Promise<T[]> {
  const out: T[] = [];
  await readEach(paths, decode, (v) => out.push(v));
  return out;
}

/** The rows where at least one column has a value (a coin's file holds the union of its metrics' times; NaN = no point). */
function dropEmptyRows(p: Panel): Panel {
  const cols = Object.values(p.columns);
  const n = p.time.length;
  const keep = new Uint8Array(n);
  let kept = 0;
  for (let i = 0; i < n; i++) {
    for (const c of cols) {
      if (c[i] === c[i]) {
        keep[i] = 1;
        kept++;
        break;
      }
    }
  }
  if (kept === n) return p;
  const pick = (a: Float64Array): Float64Array => {
    const out = new Float64Array(kept);
    for (let i = 0, k = 0; i < n; i++) if (keep[i] === 1) out[k++] = a[i] as number;
    return out;
  };
  const columns: Record<string, Float64Array> = {};
  for (const [name, c] of Object.entries(p.columns)) columns[name] = pick(c);
  return { time: pick(p.time), columns };
}

function dayRange(start: number, end: number): [string, string] {
  return [Number.isFinite(start) ? utcDay(start) : "", Number.isFinite(end) ? utcDay(end - 1) : "9999"];
}

/**
 * Open (creating if needed) a local history store at `dir`: partitioned
 * Parquet in Hive-style folders that DuckDB, Spark, Trino, pandas and polars
 * read as they are:
 * - histories: `endpoint=history/coin=<coin>/day=<YYYY-MM-DD>/part-0.parquet`,
 *   one file per coin and UTC day with `time` (TIMESTAMP ms UTC) and one
 *   DOUBLE column per metric, named without the coin (`price`,
 *   `funding_rate`; null where that metric has no point at that time;
 *   `coin=all` for metrics of no coin), and `_coverage.json` per coin: the
 *   windows fetched per metric. Wide files, not one per metric: a year of 21
 *   metrics is 365 files per coin instead of 7 665, which is what makes it
 *   load in about a second (each Parquet file costs a fixed ~0.3-1 ms to open
 *   and decode here, whatever its size);
 * - recordings (see `compactRecording`): `endpoint=<name>/day=<YYYY-MM-DD>/part-0.parquet`
 *   (columns `time`, `key`, `fetched_at`, `body` = the response's JSON text).
 * Every file is written atomically (temporary file, then rename), so a
 * killed process leaves the old file or the new one. Reads open only the day
 * folders that meet the asked range. Writers may run at once, in one process
 * or several: every write (a save, and the coverage after it) holds the
 * store's write lock (`.store.lock`, see StoreLockedError) and the coverage is
 * written only after the points it records are on disk.
 * @throws InvalidArgumentError for an empty dir or bad options
 * @throws StoreLockedError (from a write) when another process holds the write lock longer than `lockTimeoutMs`
 * @example
 * const store = openStore("data/store", { clock: () => Date.UTC(2026, 10, 22) });
 * const df = await loadHistory(client, { coin: "BTC", metricId: ["price"], hours: 48, store }); // fetches once
 * (await store.query("select coin, count(*) as n from history group by coin")).print();
 */
export function openStore(dir: string, options: OpenStoreOptions = {}): Store {
  if (typeof dir !== "string" || dir.trim() === "") throw new InvalidArgumentError("dir", `openStore: dir must be a non-empty folder path, got ${JSON.stringify(dir)}`);
  const clock = options.clock ?? Date.now;
  if (typeof clock !== "function") throw new InvalidArgumentError("clock", "openStore: clock must be a function returning epoch ms, e.g. () => Date.now()");
  const maxAgeMs = options.maxAgeMs ?? 60_000;
  if (typeof maxAgeMs !== "number" || !(maxAgeMs >= 0)) throw new InvalidArgumentError("maxAgeMs", `openStore: maxAgeMs must be a number >= 0, got ${String(maxAgeMs)}`);
  const lockTimeoutMs = options.lockTimeoutMs ?? 120_000;
  if (typeof lockTimeoutMs !== "number" || !(lockTimeoutMs >= 0)) throw new InvalidArgumentError("lockTimeoutMs", `openStore: lockTimeoutMs must be a number >= 0, got ${String(lockTimeoutMs)}`);
  mkdirSync(dir, { recursive: true });
  const sql = createSqlEngine(dir);

  const coverageOf = (coin: string): Record<string, Coverage> => {
    const path = join(coinDir(dir, coin), COVERAGE_FILE);
    checkStorePath(dir, path, "store.coverage");
    if (!existsSync(path)) return {};
    try {
      const parsed = JSON.parse(readFileSync(path, "utf8")) as unknown;
      return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, Coverage>) : {};
    } catch {
      return {};
    }
  };
  const saveCoverage = (key: SeriesKey, cov: Coverage): void => {
    const all = { ...coverageOf(key.coin), [key.metric]: cov };
    checkStorePath(dir, join(coinDir(dir, key.coin), COVERAGE_FILE), "store.saveHistory");
    writeFileAtomic(join(coinDir(dir, key.coin), COVERAGE_FILE), Buffer.from(`${JSON.stringify(all)}\n`));
  };

  /** The rows of a coin's day files meeting [start, end), with the named metric columns (NaN where a metric has no point). */
  const readCoin = async (pq: ReadCodecs, coin: string, metrics: readonly string[], start: number, end: number): Promise<Panel> => {
    const [startDay, endDay] = dayRange(start, end);
    const plan = { time: "time", values: metrics };
    const paths = dayParts(dir, coinDir(dir, coin), startDay, endDay, "store.readHistory");
    // Room for one-minute days; the builder grows if the files hold more.
    const builder = createPanelBuilder(metrics, paths.length * 1440);
    await readEach(paths, (bytes, path) => parquetToPanel(pq, bytes, { start, end }, `store.readHistory: ${JSON.stringify(path)}`, plan, builder), () => undefined);
    return builder.finish();
  };

  /** One series: the rows where its metric has a point. */
  const readSeries = async (pq: ReadCodecs, key: SeriesKey, start: number, end: number): Promise<Panel> => {
    const p = dropEmptyRows(await readCoin(pq, key.coin, [key.metric], start, end));
    return { time: p.time, columns: { value: p.columns[key.metric] as Float64Array } };
  };

  /** Merge a series into its day files; the caller holds the write lock. */
  const save = async (series: StoredSeries): Promise<SeriesKey> => {
    if (typeof series !== "object" || series === null) throw new InvalidArgumentError("series", "store.saveHistory: series must be { metricId, coin?, time, value }");
    const key = seriesKey(series.metricId, series.coin);
    const { time, value } = series;
    if (time.length !== value.length) {
      throw new InvalidArgumentError("series", `store.saveHistory: time has ${time.length} points but value has ${value.length}; give one value per time`);
    }
    const pq = await loadCodecs();
    const byDay = new Map<string, number[]>();
    for (let i = 0; i < time.length; i++) {
      const day = utcDay(writtenTime(time[i] as number, "store.saveHistory", "time", i));
      let rows = byDay.get(day);
      if (rows === undefined) byDay.set(day, (rows = []));
      rows.push(i);
    }
    const cdir = coinDir(dir, key.coin);
    for (const [day, rows] of byDay) {
      const ddir = join(cdir, `day=${day}`);
      // Nothing is read, written or deleted through a link or device (a day= folder linked to a user's folder).
      checkStorePath(dir, join(ddir, "part-0.parquet"), "store.saveHistory");
      const old = await readAll(dayParts(dir, cdir, day, day, "store.saveHistory"), (bytes, path) => {
        const where = `store.saveHistory: ${JSON.stringify(path)}`;
        return parquetToPanel(pq, bytes, {}, where, storeFilePlan(pq, bytes, where));
      });
      const names = [...new Set([...old.flatMap((p) => Object.keys(p.columns)), key.metric])];
      const builder = createPanelBuilder(names, 1440);
      for (const p of old) builder.push(p);
      const stored = old.length === 0 ? undefined : builder.finish();
      const newTime = sortDedupe(rows.map((i) => time[i] as number), { v: rows.map((i) => value[i] as number) }).panel;
      const grid = stored === undefined ? newTime.time : unionTimes(stored.time, newTime.time);
      const columns: Record<string, Float64Array> = {};
      for (const name of names) {
        const col = new Float64Array(grid.length).fill(Number.NaN);
        const src = stored?.columns[name];
        if (stored !== undefined && src !== undefined) for (let i = 0, g = 0; i < stored.time.length; i++) {
          while (grid[g] !== stored.time[i]) g++;
          col[g] = src[i] as number;
        }
        columns[name] = col;
      }
      // The new points replace stored ones at the same time.
      const col = columns[key.metric] as Float64Array;
      const nv = newTime.columns["v"] as Float64Array;
      for (let i = 0, g = 0; i < newTime.time.length; i++) {
        while (grid[g] !== newTime.time[i]) g++;
        col[g] = nv[i] as number;
      }
      writeFileAtomic(join(ddir, "part-0.parquet"), parquetBytes(pq, { time: grid, columns }, {}, "store.saveHistory"));
      for (const f of storeEntries(ddir, "store.saveHistory", (n) => n.endsWith(".parquet") && n !== "part-0.parquet")) unlinkSync(join(ddir, f.name));
    }
    return key;
  };

  const store: Store = {
    dir,
    async saveHistory(series) {
      await withStoreWriteLock(dir, lockTimeoutMs, () => save(series));
    },
    async readHistory(params) {
      if (typeof params !== "object" || params === null) {
        throw new InvalidArgumentError("params", 'store.readHistory: params must be an object like { metricId: ["btc_price"] }');
      }
      refuseRenamedOptions(params, "store.readHistory", { metricIds: 'metricId, which takes one id or a list: { metricId: ["btc_price", "eth_price"] }' });
      const metricIds: readonly unknown[] = typeof params.metricId === "string" ? [params.metricId] : Array.isArray(params.metricId) ? params.metricId : [];
      if (metricIds.length === 0 || metricIds.some((id) => typeof id !== "string")) {
        throw new InvalidArgumentError("metricId", 'store.readHistory: give metricId, one id or a non-empty list such as ["btc_price"]');
      }
      const start = timeBound(params.start, "start", "store.readHistory", -Infinity);
      const end = timeBound(params.end, "end", "store.readHistory", Infinity);
      const coins = params.coin === undefined ? [undefined] : typeof params.coin === "string" ? [params.coin] : [...params.coin];
      const keys = coins.flatMap((c) => (metricIds as readonly string[]).map((id) => seriesKey(id, c)));
      const pq = await loadReadCodecs();
      // One pass over each coin's day files for all of its metrics.
      const byCoin = new Map<string, SeriesKey[]>();
      for (const k of keys) byCoin.set(k.coin, [...(byCoin.get(k.coin) ?? []), k]);
      const feeds: { time: Float64Array; columns: Record<string, Float64Array>; fill: "exact" }[] = [];
      for (const [coin, ks] of byCoin) {
        const metrics = [...new Set(ks.map((k) => k.metric))];
        const p = dropEmptyRows(await readCoin(pq, coin, metrics, start, end));
        const columns: Record<string, Float64Array> = {};
        for (const k of ks) columns[k.metricId] = p.columns[k.metric] as Float64Array;
        feeds.push({ time: p.time, columns, fill: "exact" });
      }
      if (feeds.length === 1) return { time: (feeds[0] as Panel).time, columns: (feeds[0] as Panel).columns };
      return alignAsOf(unionTimes(...feeds.map((f) => f.time)), feeds);
    },
    coverage(metricId, coin) {
      const key = seriesKey(metricId, coin);
      return coverageOf(key.coin)[key.metric] ?? [];
    },
    historyClient(client) {
      return {
        history: async (params): Promise<History> => {
          const key = seriesKey(params.metricId, params.coin);
          const hours = params.hours ?? 24;
          const now = clock();
          const from = now - hours * HOUR_MS;
          const cov = coverageOf(key.coin)[key.metric] ?? [];
          const have = coveringInterval(cov, from);
          let fetched: History | undefined;
          if (have === undefined || have[1] < now - maxAgeMs) {
            const ask = have === undefined ? hours : Math.min(MAX_HOURS, Math.max(1, Math.ceil((now - have[1]) / HOUR_MS)));
            const got = await client.history({ ...params, hours: ask });
            fetched = got;
            // Under the write lock: the points first (fsynced), then the coverage re-read and extended, so coverage never claims a point that is not on disk.
            await withStoreWriteLock(dir, lockTimeoutMs, async () => {
              await save({ metricId: key.metricId, time: got.time, value: got.value });
              let next = addCoverage(coverageOf(key.coin)[key.metric] ?? [], now - ask * HOUR_MS, now);
              const n = got.time.length;
              if (n > 0) next = addCoverage(next, got.time[0] as number, got.time[n - 1] as number);
              saveCoverage(key, next);
            });
          }
          // The service's window: points after now - hours, up to now.
          const window = await readSeries(await loadReadCodecs(), key, from + 1, now + 1);
          return {
            time: window.time,
            value: window.columns["value"] as Float64Array,
            metricId: fetched?.metricId ?? key.metricId,
            variant: fetched?.variant ?? "wrapped",
            dropped: fetched?.dropped ?? { nulls: 0, duplicates: 0, conflicts: 0 },
            hours,
            ...(fetched?.coin === undefined ? {} : { coin: fetched.coin }),
          };
        },
      };
    },
    async query(text, queryOptions) {
      return toDataFrame(await sql.query(text, queryOptions));
    },
    async queryColumns(text, queryOptions) {
      return (await sql.query(text, queryOptions)) as Readonly<Record<string, Float64Array | string[]>>;
    },
    async loadRecording(opts = {}) {
      const start = timeBound(opts.start, "start", "store.loadRecording", -Infinity);
      const end = timeBound(opts.end, "end", "store.loadRecording", Infinity);
      const only = opts.endpoints === undefined ? undefined : new Set(opts.endpoints);
      const [startDay, endDay] = [Number.isFinite(start) ? utcDay(start) : "", Number.isFinite(end) ? utcDay(end) : "9999"];
      const pq = await loadReadCodecs();
      const records: RecordedResponse[] = [];
      let files = 0;
      for (const { name } of storeEntries(dir, "store.loadRecording", (n) => n.startsWith("endpoint="))) {
        const m = /^endpoint=(.+)$/.exec(name);
        if (m === null || m[1] === "history" || (only !== undefined && !only.has(m[1] as string))) continue;
        const paths = dayParts(dir, join(dir, name), startDay, endDay, "store.loadRecording");
        files += paths.length;
        for (const list of await readAll(paths, (bytes) => readRecordFile(pq, bytes, m[1] as string))) {
          for (const r of list) if (r.time >= start && r.time <= end) records.push(r);
        }
      }
      let torn = 0;
      let corrupt = 0;
      if (opts.jsonl !== undefined) {
        const lines = loadRecording(opts.jsonl, { ...(opts.endpoints === undefined ? {} : { endpoints: opts.endpoints }), ...(opts.start === undefined ? {} : { start: opts.start }), ...(opts.end === undefined ? {} : { end: opts.end }) });
        for (const list of Object.values(lines.responses)) records.push(...list);
        files += lines.stats.files;
        torn = lines.stats.torn;
        corrupt = lines.stats.corrupt;
      }
      return createRecording(records, { files, torn, corrupt });
    },
    close() {
      sql.close();
    },
  };
  return store;
}
