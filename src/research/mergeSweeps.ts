import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { safeKey } from "../errors/safeKey.js";
import { compositeParameters, createSweepResult, sourceOf, sweepFields, type SweepJSON, type SweepParts, type SweepResult, type SweepValue } from "./SweepResult.js";

/** What mergeSweeps accepts: results, or their JSON form (`JSON.parse` of a shard's `JSON.stringify(result)`). */
export type SweepShard = SweepResult | SweepJSON;

/**
 * Merge the shards of one sweep (sweepComposite with `shard: { index, count }`, run by
 * any job array) into the table a single run would give: rows in variant order, each
 * variant once. Shards may come in any order, and from JSON (what a job writes with
 * `JSON.stringify(result)`); a missing shard leaves `complete` false.
 * `returnsOf` works on the merged table when every shard is a result made in this process.
 * @throws InvalidArgumentError when there is no shard; when shards come from different sweeps
 *   (their fingerprints differ: other prices, times, funding, scores, weight grid, thresholds,
 *   fees, slippage or periods per year; or other components or sizes); when a shard is not a
 *   sweep (JSON of format sweep@1, which has no fingerprint; a row whose variant is not a whole
 *   number 0..total-1, whose weight is not finite and >= 0, whose threshold is outside [0, 1],
 *   or whose metric is neither a number nor "NaN"/"Infinity"/"-Infinity"); or when two shards
 *   hold the same variant
 * @example
 * const parts = await Promise.all([0, 1, 2].map((index) => sweepComposite(data, { weights, shard: { index, count: 3 } })));
 * mergeSweeps(parts).complete // true: the same table as one run
 */
export function mergeSweeps(shards: readonly SweepShard[]): SweepResult {
  const where = "mergeSweeps";
  if (!Array.isArray(shards) || shards.length === 0) {
    throw new InvalidArgumentError("shards", `${where}: shards must be a non-empty array of sweep results (or their JSON), got ${String(shards)}`);
  }
  const parts = shards.map((s, i) => readShard(s, i, where));
  const first = parts[0] as ShardColumns;
  const parameters = first.parameters ?? compositeParameters(first.components);
  const fields = sweepFields(parameters);
  for (const p of parts) {
    const theirs = p.parameters ?? compositeParameters(p.components);
    if (theirs.join("\u0000") !== parameters.join("\u0000") || JSON.stringify(p.levels ?? {}) !== JSON.stringify(first.levels ?? {})) {
      throw new InvalidArgumentError("shards", `${where}: shard ${p.at} sweeps ${theirs.join(", ")}, shard 0 sweeps ${parameters.join(", ")} (or their values differ); merge shards of one sweep only`);
    }
    if (p.fingerprint !== first.fingerprint) {
      throw new InvalidArgumentError(
        "shards",
        `${where}: shard ${p.at} was swept from other data or options than shard 0 (fingerprint ${p.fingerprint.slice(0, 12)}… vs ${first.fingerprint.slice(0, 12)}…: prices, times, funding, component scores, weight grid, thresholds, fees, slippage or periods per year differ); merge shards of one sweep only`,
      );
    }
    if (p.components.join("\u0000") !== first.components.join("\u0000")) {
      throw new InvalidArgumentError("shards", `${where}: shard ${p.at} weights ${p.components.join(", ")}, shard 0 weights ${first.components.join(", ")}; merge shards of one sweep only`);
    }
    if (p.periodsPerYear !== first.periodsPerYear) {
      throw new InvalidArgumentError("shards", `${where}: shard ${p.at} annualises with ${p.periodsPerYear} bars a year, shard 0 with ${first.periodsPerYear}; merge shards of one sweep only`);
    }
    if (p.total !== first.total) {
      throw new InvalidArgumentError("shards", `${where}: shard ${p.at} is from a sweep of ${p.total} variants, shard 0 from one of ${first.total}; merge shards of one sweep only`);
    }
  }
  // Rows in variant order: sort (variant, shard, row) triples.
  const rows: { v: number; p: number; r: number }[] = [];
  parts.forEach((p, pi) => {
    const variant = p.columns["variant"] as Float64Array;
    for (let r = 0; r < variant.length; r++) rows.push({ v: variant[r] as number, p: pi, r });
  });
  rows.sort((a, b) => a.v - b.v);
  for (let i = 1; i < rows.length; i++) {
    if ((rows[i] as { v: number }).v === (rows[i - 1] as { v: number }).v) {
      const a = rows[i - 1] as { p: number };
      const b = rows[i] as { v: number; p: number };
      throw new InvalidArgumentError("shards", `${where}: variant ${b.v} is in shard ${(parts[a.p] as ShardColumns).at} and in shard ${(parts[b.p] as ShardColumns).at}; pass each shard once`);
    }
  }
  const columns: Record<string, Float64Array> = {};
  for (const f of fields) {
    const col = new Float64Array(rows.length);
    rows.forEach((x, i) => (col[i] = ((parts[x.p] as ShardColumns).columns[f] as Float64Array)[x.r] as number));
    columns[f] = col;
  }
  const sources = parts.map((p) => p.source);
  return createSweepResult({
    components: first.components,
    ...(first.parameters !== undefined ? { parameters: first.parameters, levels: first.levels ?? {} } : {}),
    total: first.total,
    aborted: parts.some((p) => p.aborted),
    periodsPerYear: first.periodsPerYear,
    columns,
    source: sources.every((p) => p !== undefined) ? sources[0] : undefined,
    runsOn: parts.every((p) => p.runsOn === "workers") ? "workers" : "calling thread",
    fingerprint: first.fingerprint,
  });
}

/** A shard read: its parts, its fingerprint and its position in the list. */
type ShardColumns = SweepParts & { readonly at: number; readonly fingerprint: string };

/** JSON's spelling of the numbers it cannot hold (SweepResult.toJSON). */
const NON_FINITE: Readonly<Record<string, number>> = { NaN: Number.NaN, Infinity: Number.POSITIVE_INFINITY, "-Infinity": Number.NEGATIVE_INFINITY };

/**
 * What a row of each field may hold: a variant number of the sweep; in a composite sweep a weight
 * or a threshold; in a strategy sweep a non-numeric parameter's level index (numeric ones: any
 * number, NaN = unset); a metric (any number).
 */
function fieldRule(field: string, total: number, levels: Readonly<Record<string, readonly SweepValue[]>> | undefined): { readonly test: (x: number) => boolean; readonly what: string } {
  if (field === "variant") return { test: (x) => Number.isInteger(x) && x >= 0 && x < total, what: `a variant number 0..${total - 1}` };
  if (levels !== undefined) {
    const lv = Object.hasOwn(levels, field) ? levels[field] : undefined;
    if (lv !== undefined) return { test: (x) => Number.isInteger(x) && x >= 0 && x < lv.length, what: `an index 0..${lv.length - 1} of ${field}'s values` };
    return { test: () => true, what: "a number" };
  }
  if (field === "threshold") return { test: (x) => x >= 0 && x <= 1, what: "a threshold in [0, 1]" };
  if (field.startsWith("w_")) return { test: (x) => Number.isFinite(x) && x >= 0, what: "a finite weight >= 0" };
  return { test: () => true, what: "a number" };
}

/** A shard's columns as Float64Array (decoding JSON's "NaN" / "Infinity" strings), checked for its fields. */
function readShard(s: SweepShard, at: number, where: string): ShardColumns {
  const bad = (why: string): InvalidArgumentError =>
    new InvalidArgumentError("shards", `${where}: shard ${at} is not a sweep (${why}); pass sweepComposite results or JSON.parse of their JSON`);
  if (typeof s !== "object" || s === null || !Array.isArray(s.components) || typeof s.columns !== "object" || s.columns === null) throw bad("no components or columns");
  for (const c of s.components) {
    if (typeof c !== "string" || c === "") throw bad(`component ${JSON.stringify(c)} is not a name`);
    safeKey(c, `${where}: shard ${at}'s component ${JSON.stringify(c)}`, "shards");
  }
  const isJson = "format" in s;
  if (isJson && (s.format as string) === "market-intel-lab/sweep@1") throw bad("format sweep@1 carries no fingerprint of its inputs, so it cannot be told apart from another sweep's; re-run the shard with this version");
  if (isJson && s.format !== "market-intel-lab/sweep@2") throw bad(`format ${String(s.format)}`);
  const fingerprint = s.fingerprint;
  if (typeof fingerprint !== "string" || !/^[0-9a-f]{64}$/.test(fingerprint)) throw bad(`fingerprint ${JSON.stringify(fingerprint)} is not a SHA-256`);
  if (!Number.isInteger(s.total) || s.total < 0) throw bad(`total ${String(s.total)}`);
  if (!(typeof s.periodsPerYear === "number" && s.periodsPerYear > 0)) throw bad(`periodsPerYear ${String(s.periodsPerYear)}`);
  const strategy = isJson ? (s as SweepJSON).parameters : (s as SweepResult).parameters;
  if (strategy !== undefined && (!Array.isArray(strategy) || strategy.some((p) => typeof p !== "string"))) throw bad("parameters is not a list of names");
  const composite = strategy === undefined || (s.components.length > 0 && strategy.join("\u0000") === compositeParameters(s.components).join("\u0000"));
  const levels = composite ? undefined : ((s as { levels?: Readonly<Record<string, readonly SweepValue[]>> }).levels ?? {});
  if (levels !== undefined && (typeof levels !== "object" || levels === null || Object.values(levels).some((l) => !Array.isArray(l)))) throw bad("levels is not an object of value lists");
  const columns: Record<string, Float64Array> = {};
  let length = -1;
  for (const f of sweepFields(composite ? compositeParameters(s.components) : (strategy as readonly string[]))) {
    safeKey(f, `${where}: shard ${at}'s column ${JSON.stringify(f)}`, "shards");
    const col = (s.columns as Record<string, ArrayLike<number | string>>)[f];
    if (col === undefined || typeof col.length !== "number") throw bad(`no ${f} column`);
    if (length >= 0 && col.length !== length) throw bad(`column ${f} has ${col.length} rows, not ${length}`);
    length = col.length;
    const rule = fieldRule(f, s.total, levels);
    const values = new Float64Array(length);
    for (let r = 0; r < length; r++) {
      const x = (col as ArrayLike<unknown>)[r];
      const v = typeof x === "number" ? x : typeof x === "string" && Object.hasOwn(NON_FINITE, x) ? (NON_FINITE[x] as number) : undefined;
      if (v === undefined || !rule.test(v)) throw bad(`${f} at row ${r} is ${JSON.stringify(x) ?? String(x)}, not ${rule.what}`);
      values[r] = v;
    }
    columns[f] = values;
  }
  return {
    at,
    components: s.components,
    ...(composite ? {} : { parameters: strategy as readonly string[], levels: levels ?? {} }),
    total: s.total,
    aborted: s.aborted === true,
    periodsPerYear: s.periodsPerYear,
    columns,
    source: isJson ? undefined : sourceOf(s as SweepResult),
    runsOn: isJson ? "calling thread" : (s as SweepResult).runsOn,
    fingerprint,
  };
}
