import { isPanel } from "../data/Panel.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { gitCommit } from "./gitCommit.js";
import { hashColumns, type HashableColumn } from "./hashColumns.js";
import { packageInfo } from "./packageVersion.js";
import { isColumnSource, tableColumns } from "./tableColumns.js";
import { writtenTime } from "./timeBound.js";

/** What produced a result, so it can be traced and re-run: written beside exports as `manifest.json`. */
export interface Manifest {
  /** What ran: `"backtest"`, `"sweep"`, `"report"`, `"history"`, ... */
  readonly kind: string;
  readonly package: { readonly name: string; readonly version: string };
  /** The library's git commit when it runs from a work tree, else null. */
  readonly gitCommit: string | null;
  /** Every option that is not a data column (numbers, strings, lists of strings, flags, nested objects), as given. */
  readonly parameters: unknown;
  /** SHA-256 of the input columns' bytes: each column by its path in the options (`close`, `sizing.confidence`, `data.columns.close`) and all together. */
  readonly inputs: { readonly sha256: string; readonly columns: Readonly<Record<string, { readonly sha256: string; readonly length: number }>> };
  /** Simulator seed of the data, or null (live data). */
  readonly seed: number | null;
  /** "Now" of the data source (epoch ms), e.g. the replay server's clock, or null. */
  readonly clock: number | null;
  /** First and last input time (the `time` column), ISO 8601 UTC and epoch ms, or null without times. */
  readonly timeRange: { readonly start: string; readonly end: string; readonly startMs: number; readonly endMs: number } | null;
  /** When the manifest was made, ISO 8601 UTC. */
  readonly createdAt: string;
  /** SHA-256 of the result's columns, so a re-run can be checked bit for bit; null if not given. */
  readonly result: { readonly sha256: string; readonly columns: Readonly<Record<string, { readonly sha256: string; readonly length: number }>> } | null;
}

/** Inputs of {@link createManifest}. */
export interface CreateManifestParams {
  readonly kind: string;
  /** The run's options: data columns inside them (arrays, typed arrays, Panels) are hashed, the rest recorded as parameters. */
  readonly options: Readonly<Record<string, unknown>>;
  readonly seed?: number | undefined;
  readonly clock?: number | undefined;
  /** The result's columns to fingerprint (e.g. `backtestColumns(result)`). */
  readonly result?: Readonly<Record<string, HashableColumn>> | undefined;
}

/** A data column: a typed array or an array of numbers (a list of strings, like metric ids, is a parameter). */
function isColumn(x: unknown): x is HashableColumn {
  if (ArrayBuffer.isView(x) && !(x instanceof DataView)) return true;
  return Array.isArray(x) && x.length > 0 && x.every((v) => typeof v === "number");
}

/**
 * Split options into parameters (JSON) and data columns (by dotted path).
 * @internal
 */
export function splitOptions(options: unknown, path = "", columns: Record<string, HashableColumn> = {}): { parameters: unknown; columns: Record<string, HashableColumn> } {
  if (isColumn(options)) {
    columns[path] = options;
    return { parameters: undefined, columns };
  }
  if (isPanel(options)) {
    columns[`${path}.time`] = options.time;
    for (const [k, v] of Object.entries(options.columns)) columns[`${path}.columns.${k}`] = v;
    return { parameters: undefined, columns };
  }
  if (isColumnSource(options)) {
    // A danfo DataFrame: its columns by name, like a Panel (never its internals, which hold one array per row).
    const table = tableColumns(options, "createManifest");
    if (table.time !== undefined) columns[`${path}.time`] = table.time;
    for (const [k, v] of Object.entries(table.columns)) columns[`${path}.columns.${k}`] = v instanceof Float64Array ? v : v.map((x) => x ?? "");
    return { parameters: undefined, columns };
  }
  if (typeof options === "function") return { parameters: "[function]", columns };
  if (Array.isArray(options)) return { parameters: options.map((v, i) => splitOptions(v, `${path}.${i}`, columns).parameters ?? null), columns };
  if (typeof options !== "object" || options === null) return { parameters: options, columns };
  const params: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(options)) {
    if (v === undefined) continue;
    const sub = splitOptions(v, path === "" ? k : `${path}.${k}`, columns);
    if (sub.parameters !== undefined) params[k] = sub.parameters;
  }
  return { parameters: params, columns };
}

/**
 * A run manifest: package version, git commit (read from `.git`, no
 * process spawned), every parameter, the SHA-256 of each input column's
 * bytes, seed and clock, the input time range, created-at, and optionally
 * the result's fingerprint. `replayManifest(manifest, data)` re-runs a
 * backtest from it and checks the result is bit-identical.
 * @throws InvalidArgumentError when kind or options are missing
 * @throws InvalidTimeError when the first or last input time is not finite or outside a Date's range
 * @example
 * const options = { time, close, position, feeBps: 5 };
 * const m = createManifest({ kind: "backtest", options, seed: 42, result: backtestColumns(backtest(options)) });
 * m.inputs.columns.close.sha256 // "3f2a..."; m.parameters // { feeBps: 5 }
 */
export function createManifest(params: CreateManifestParams): Manifest {
  if (typeof params !== "object" || params === null || typeof params.kind !== "string" || params.kind === "") {
    throw new InvalidArgumentError("kind", 'createManifest: give { kind, options }, e.g. { kind: "backtest", options: { close, position } }');
  }
  if (typeof params.options !== "object" || params.options === null) throw new InvalidArgumentError("options", "createManifest: options must be the run's options object");
  const { parameters, columns } = splitOptions(params.options);
  const time = columns["time"] ?? columns["data.time"];
  const n = time?.length ?? 0;
  const startMs = time !== undefined && n > 0 ? writtenTime(Number(time[0]), "createManifest", "time", 0) : Number.NaN;
  const endMs = time !== undefined && n > 0 ? writtenTime(Number(time[n - 1]), "createManifest", "time", n - 1) : Number.NaN;
  const pkg = packageInfo();
  return {
    kind: params.kind,
    package: { name: pkg.name, version: pkg.version },
    gitCommit: gitCommit(pkg.root) ?? null,
    parameters,
    inputs: hashColumns(columns),
    seed: params.seed ?? null,
    clock: params.clock ?? null,
    timeRange: Number.isFinite(startMs) && Number.isFinite(endMs) ? { start: new Date(startMs).toISOString(), end: new Date(endMs).toISOString(), startMs, endMs } : null,
    createdAt: new Date().toISOString(),
    result: params.result === undefined ? null : hashColumns(params.result),
  };
}
