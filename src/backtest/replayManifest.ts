import { backtest, type BacktestOptions } from "./backtest.js";
import type { BacktestResult } from "./BacktestResult.js";
import { backtestColumns } from "./backtestColumns.js";
import { isPanel, type Panel } from "../data/Panel.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { safeKey } from "../errors/safeKey.js";
import type { Manifest } from "../store/createManifest.js";
import { combineDigests, hashColumns, type HashableColumn } from "../store/hashColumns.js";

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

/** Assign `value` at a manifest's dotted path, each segment checked by safeKey. */
function setPath(target: Record<string, unknown>, keys: readonly string[], value: unknown): void {
  let o = target;
  for (const k of keys.slice(0, -1)) {
    if (typeof o[k] !== "object" || o[k] === null) o[k] = {};
    o = o[k] as Record<string, unknown>;
  }
  o[keys[keys.length - 1] as string] = value;
}

/** Refuse a fingerprint whose total is not the digest of its own column digests (a hand-edited manifest). */
function checkDigests(fingerprint: Manifest["inputs"] | null, part: "inputs" | "result"): void {
  if (fingerprint === null) return;
  const shaped = typeof fingerprint === "object" && typeof fingerprint.columns === "object" && fingerprint.columns !== null && Object.values(fingerprint.columns).every((c) => typeof c?.sha256 === "string");
  if (!shaped || combineDigests(fingerprint.columns) !== fingerprint.sha256) {
    throw new InvalidArgumentError("manifest", `replayManifest: the manifest's ${part} digest does not match its column digests, so the manifest was edited; make it again with createManifest`);
  }
}

/** Deepest nesting of objects and arrays a manifest's parameters may have (backtest options nest 3 deep). */
const MAX_DEPTH = 64;

/** Refuse parameters nested deeper than MAX_DEPTH (a hostile manifest's 100,000 levels overflowed the stack: an untyped RangeError), walking without recursion. */
function refuseDeepNesting(value: unknown): void {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v !== "object" || v === null || ArrayBuffer.isView(v)) continue;
    if (depth >= MAX_DEPTH) throw new InvalidArgumentError("manifest", `replayManifest: the manifest's parameters nest deeper than ${MAX_DEPTH} levels; a backtest's options never do: the manifest is damaged or hostile, make it again with createManifest`);
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
}

/**
 * Re-run the backtest a manifest describes on `data` (its input columns by
 * the manifest's paths, e.g. `{ time, close, position }`, or a Panel whose
 * columns carry those names) with the manifest's parameters, and check both
 * that the data is the data it was made from and that the result is
 * bit-identical (SHA-256 of every per-bar series).
 * @throws InvalidArgumentError when the manifest is not a backtest's, has no result fingerprint, its
 *   total digests disagree with its column digests (an edited manifest), a column path holds
 *   `__proto__`, `constructor` or `prototype`, or the data lacks an input column
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
  refuseDeepNesting(manifest.parameters);
  const options: Record<string, unknown> = structuredClone((manifest.parameters ?? {}) as Record<string, unknown>);
  const given: Record<string, HashableColumn> = {};
  const paths = Object.keys(manifest.inputs?.columns ?? {}).map((path) => ({
    path,
    keys: path.split(".").map((k) => safeKey(k, `replayManifest: the manifest's inputs key ${JSON.stringify(path)}`, "manifest")),
  }));
  checkDigests(manifest.inputs, "inputs");
  checkDigests(manifest.result, "result");
  for (const { path, keys } of paths) {
    const last = keys[keys.length - 1] as string;
    const col = Object.hasOwn(cols, path) ? cols[path] : Object.hasOwn(cols, last) ? cols[last] : undefined;
    if (col === undefined) throw new InvalidArgumentError("data", `replayManifest: data has no column ${JSON.stringify(path)}; the manifest's inputs are ${Object.keys(manifest.inputs.columns).join(", ")}`);
    given[path] = col;
    setPath(options, keys, col);
  }
  const inputs = hashColumns(given);
  const changedInputs = Object.keys(manifest.inputs.columns).filter((k) => inputs.columns[k]?.sha256 !== manifest.inputs.columns[k]?.sha256);
  const result = backtest(options as BacktestOptions);
  const out = hashColumns(backtestColumns(result));
  const changedResults = Object.keys(manifest.result.columns).filter((k) => out.columns[k]?.sha256 !== manifest.result?.columns[k]?.sha256);
  return { inputsMatch: inputs.sha256 === manifest.inputs.sha256, identical: out.sha256 === manifest.result.sha256, changedInputs, changedResults, result };
}
