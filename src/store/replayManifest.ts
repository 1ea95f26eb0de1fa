import { backtest, type BacktestOptions } from "../backtest/backtest.js";
import type { BacktestResult } from "../backtest/BacktestResult.js";
import { isPanel, type Panel } from "../data/Panel.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import type { Manifest } from "./createManifest.js";
import { hashColumns, type HashableColumn } from "./hashColumns.js";

/**
 * The columns that fingerprint a backtest result: every per-bar series.
 * @example backtestColumns(backtest({ close: [1, 2], position: [1, 1] })).equity // Float64Array [1, 2]
 */
export function backtestColumns(result: BacktestResult): Record<string, Float64Array> {
  return {
    time: result.time,
    equity: result.equity,
    returns: result.returns,
    positions: result.positions,
    exposure: result.exposure,
    holdings: result.holdings,
    turnover: result.turnover,
    fees: result.fees,
    funding_paid: result.fundingPaid,
  };
}

/** What {@link replayManifest} found. */
export interface ReplayCheck {
  /** The data's columns hash to the manifest's inputs. */
  readonly inputsMatch: boolean;
  /** The re-run's result hashes to the manifest's result (bit-identical). */
  readonly identical: boolean;
  /** Input columns whose digest differs (or that are missing). */
  readonly changedInputs: readonly string[];
  /** Result columns whose digest differs. */
  readonly changedResults: readonly string[];
  /** The re-run's result. */
  readonly result: BacktestResult;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(".");
  let o = target;
  for (const k of keys.slice(0, -1)) {
    if (typeof o[k] !== "object" || o[k] === null) o[k] = {};
    o = o[k] as Record<string, unknown>;
  }
  o[keys[keys.length - 1] as string] = value;
}

/**
 * Re-run the backtest a manifest describes on `data` (its input columns by
 * the manifest's paths, e.g. `{ time, close, position }`, or a Panel whose
 * columns carry those names) with the manifest's parameters, and check both
 * that the data is the data it was made from and that the result is
 * bit-identical (SHA-256 of every per-bar series).
 * @throws InvalidArgumentError when the manifest is not a backtest's, has no result fingerprint, or the data lacks an input column
 * @example
 * const check = replayManifest(JSON.parse(readFileSync("out/manifest.json", "utf8")), { time, close, position });
 * check.identical // true
 */
export function replayManifest(manifest: Manifest, data: Panel | Readonly<Record<string, HashableColumn>>): ReplayCheck {
  if (typeof manifest !== "object" || manifest === null || manifest.kind !== "backtest") {
    throw new InvalidArgumentError("manifest", `replayManifest: needs a backtest's manifest (kind "backtest"), got kind ${JSON.stringify((manifest as { kind?: unknown } | null)?.kind)}`);
  }
  if (manifest.result === null) throw new InvalidArgumentError("manifest", "replayManifest: the manifest has no result fingerprint; make it with createManifest({ ..., result: backtestColumns(result) })");
  const cols: Record<string, HashableColumn> = isPanel(data) ? { time: data.time, ...data.columns } : { ...data };
  const options: Record<string, unknown> = structuredClone((manifest.parameters ?? {}) as Record<string, unknown>);
  const given: Record<string, HashableColumn> = {};
  for (const path of Object.keys(manifest.inputs.columns)) {
    const col = cols[path] ?? cols[path.split(".").pop() as string];
    if (col === undefined) throw new InvalidArgumentError("data", `replayManifest: data has no column ${JSON.stringify(path)}; the manifest's inputs are ${Object.keys(manifest.inputs.columns).join(", ")}`);
    given[path] = col;
    setPath(options, path, col);
  }
  const inputs = hashColumns(given);
  const changedInputs = Object.keys(manifest.inputs.columns).filter((k) => inputs.columns[k]?.sha256 !== manifest.inputs.columns[k]?.sha256);
  const result = backtest(options as BacktestOptions);
  const out = hashColumns(backtestColumns(result));
  const changedResults = Object.keys(manifest.result.columns).filter((k) => out.columns[k]?.sha256 !== manifest.result?.columns[k]?.sha256);
  return { inputsMatch: inputs.sha256 === manifest.inputs.sha256, identical: out.sha256 === manifest.result.sha256, changedInputs, changedResults, result };
}
