import { join } from "node:path";
import { Command, InvalidArgumentError as CommanderArgumentError, Option } from "commander";
import { createClient } from "../../api/createClient.js";
import { loadHistoryPanel } from "../../load/loadHistoryPanel.js";
import { startReplayServer } from "../../server/startReplayServer.js";
import { createManifest } from "../../store/createManifest.js";
import { openStore } from "../../store/openStore.js";
import { tableColumns, type TableInput } from "../../store/tableColumns.js";
import { loadDanfo } from "../../data/danfo.js";
import { writeCsv } from "../../store/writeCsv.js";
import { writeManifest } from "../../store/writeManifest.js";
import { writeParquet } from "../../store/writeParquet.js";
import { toDataFrame } from "../../data/toDataFrame.js";
import { addStudyOptions, toStudyOptions, type StudyCliOptions } from "../addStudyOptions.js";
import { choiceOption } from "../options.js";
import { createProgress } from "../progress.js";
import { runStudyJob } from "../runStudyJob.js";
import { studyMetricIds } from "../study/loadStudyData.js";
import { sweepTable } from "../study/runSweepStudy.js";

/** What `milab export` can write. */
const WHAT = ["history", "backtest", "sweep"] as const;

interface ExportCliOptions extends StudyCliOptions {
  readonly format: "parquet" | "csv";
  readonly out: string;
  readonly metrics?: string[] | undefined;
  readonly store?: string | undefined;
}

function metricList(raw: string): string[] {
  const ids = raw.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (ids.length === 0) throw new CommanderArgumentError(`metrics must be a comma list of metric ids such as btc_price,eth_price, got ${JSON.stringify(raw)}`);
  return ids;
}

/** Columns of the exported tables that hold a yes/no as 1/0 (Parquet keeps the number; CSV says true/false). */
const FLAG_COLUMNS: readonly string[] = ["open"];

/**
 * A table as every CSV export shows it: `time` and each epoch-ms `*_time` column as ISO 8601 UTC
 * (writeCsv's form of `time`), flags as true/false. Parquet files keep the typed columns.
 */
function csvView(table: TableInput): TableInput {
  const { time, columns } = tableColumns(table, "milab export");
  const view: Record<string, unknown[]> = {};
  if (time !== undefined) view["time"] = Array.from(time, (t) => new Date(t).toISOString());
  for (const [name, values] of Object.entries(columns)) {
    const numeric = values instanceof Float64Array;
    if (numeric && name.endsWith("_time")) view[name] = Array.from(values, (t) => (Number.isFinite(t) ? new Date(t).toISOString() : ""));
    else if (numeric && FLAG_COLUMNS.includes(name)) view[name] = Array.from(values, (v) => (v === 1 ? "true" : v === 0 ? "false" : ""));
    else view[name] = Array.from(values as ArrayLike<unknown>);
  }
  return new (loadDanfo().DataFrame)(view);
}

/** Write one table in the chosen format; returns the file written. */
async function writeTable(out: string, name: string, table: TableInput, format: "parquet" | "csv"): Promise<string> {
  const path = join(out, `${name}.${format}`);
  if (format === "parquet") await writeParquet(path, table);
  else await writeCsv(path, csvView(table));
  return path;
}

/** A coin's bar table: the backtest's columns with the close it traded at and the composite it read (positions is the target weight set at each close). */
function barTable(c: { close: Float64Array; replay: { composite: Float64Array }; result: TableInput }): TableInput {
  const { time, columns } = tableColumns(c.result, "milab export");
  const all: Record<string, number[]> = { close: Array.from(c.close), composite: Array.from(c.replay.composite) };
  for (const [name, values] of Object.entries(columns)) all[name] = Array.from(values as ArrayLike<number>);
  return new (loadDanfo().DataFrame)({ time: Array.from(time ?? [], (t) => new Date(t).toISOString()), ...all });
}

/** `milab history` data: the embedded replay server (or --base-url), optionally through a store. */
async function exportHistory(o: ExportCliOptions): Promise<string[]> {
  const baseUrl = o.baseUrl ?? process.env["MI_BASE_URL"];
  const clockMs = o.clock;
  const server = baseUrl === undefined ? await startReplayServer({ seed: o.seed, rateLimitPerMinute: 0, ...(clockMs !== undefined ? { clock: () => clockMs } : {}) }) : undefined;
  try {
    const client = createClient({ baseUrl: server?.url ?? baseUrl, apiKey: process.env["MI_API_KEY"], ...(server !== undefined ? { rateLimitPerMinute: 100_000 } : {}) });
    const store = o.store === undefined ? undefined : openStore(o.store, clockMs === undefined ? {} : { clock: () => clockMs });
    const metricId = o.metrics ?? studyMetricIds(o.coins);
    const { panel } = await loadHistoryPanel(client, { metricId, hours: o.hours, store });
    store?.close();
    const file = await writeTable(o.out, "history", panel, o.format);
    const manifest = createManifest({
      kind: "history",
      options: { metricId, hours: o.hours, source: server === undefined ? client.baseUrl : "embedded replay server", data: panel },
      seed: server === undefined ? undefined : o.seed,
      clock: clockMs,
    });
    writeManifest(join(o.out, "manifest.json"), manifest);
    return [file, join(o.out, "manifest.json")];
  } finally {
    await server?.close();
  }
}

/**
 * `milab export`: write histories, backtests or the what-if sweep as Parquet
 * (or CSV) files into a folder, with `manifest.json` (version, commit,
 * parameters, input digests, seed, clock, time range) beside them.
 */
export function exportCommand(): Command {
  return addStudyOptions(
    new Command("export")
      .description("export a history, the composite backtest or the what-if sweep as Parquet or CSV, with a run manifest")
      .argument("<what>", `one of ${WHAT.join(", ")}`, (raw: string) => {
        if (!(WHAT as readonly string[]).includes(raw)) throw new CommanderArgumentError(`what must be one of ${WHAT.join(", ")}, got ${JSON.stringify(raw)}`);
        return raw as (typeof WHAT)[number];
      }),
    ["--no-real-data", "--no-variants"], // an export holds the study's own bars; the sweep is the `sweep` export
  )
    .requiredOption("--out <dir>", "folder to write into (created if missing)")
    .addOption(new Option("--format <format>", "parquet or csv").argParser(choiceOption("format", ["parquet", "csv"] as const)).default("parquet"))
    .option("--metrics <list>", "history: metric ids, comma-separated [the study's: price, funding, imbalance, basis, momentum per coin, and gas]", metricList)
    .option("--store <dir>", "history: read and save through this local store (fetch only what it lacks)")
    .addHelpText(
      "after",
      "\nExamples:\n  milab export history --coins btc,eth --hours 48 --out out/hist\n  milab export backtest --format csv --out out/bt\n  milab export sweep --out out/sweep\n\nRead in Python: pandas.read_parquet(\"out/bt/backtest-btc.parquet\")",
    )
    .action(async (what: (typeof WHAT)[number], opts: ExportCliOptions) => {
      let files: string[];
      if (what === "history") files = await exportHistory(opts);
      else {
        const run = await runStudyJob({ ...opts, realData: false, variants: what === "sweep" }, createProgress(opts.quiet));
        const s = run.study;
        const common = { seed: run.seed, clock: opts.clock };
        const inputs = { time: s.time, ...Object.fromEntries(Object.values(s.coins).flatMap((c) => [[`${c.coin.toLowerCase()}_close`, c.close], [`${c.coin.toLowerCase()}_funding`, c.funding]])) };
        files = [];
        if (what === "sweep") {
          files.push(await writeTable(opts.out, "sweep", toDataFrame(sweepTable(run.whatIf ?? [])), opts.format));
          writeManifest(join(opts.out, "manifest.json"), createManifest({ kind: "sweep", options: { ...toStudyOptions(opts), hours: opts.hours, data: inputs }, ...common }));
        } else {
          for (const c of Object.values(s.coins)) {
            files.push(await writeTable(opts.out, `backtest-${c.coin.toLowerCase()}`, barTable(c), opts.format));
            files.push(await writeTable(opts.out, `trades-${c.coin.toLowerCase()}`, { toDataFrame: () => c.result.tradesToDataFrame() }, opts.format));
          }
          if (s.portfolio !== undefined) files.push(await writeTable(opts.out, "portfolio", s.portfolio.result, opts.format));
          const result = Object.fromEntries(Object.values(s.coins).map((c) => [`${c.coin.toLowerCase()}_equity`, c.result.equity]));
          writeManifest(join(opts.out, "manifest.json"), createManifest({ kind: "backtest-study", options: { ...toStudyOptions(opts), hours: opts.hours, data: inputs }, ...common, result }));
        }
        files.push(join(opts.out, "manifest.json"));
      }
      for (const f of files) process.stdout.write(`${f}\n`);
    });
}
