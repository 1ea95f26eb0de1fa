import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { compositeParameters, createSweepResult, sourceOf, sweepFields, type SweepJSON, type SweepParts, type SweepResult } from "./SweepResult.js";

/** What mergeSweeps accepts: results, or their JSON form (`JSON.parse` of a shard's `JSON.stringify(result)`). */
export type SweepShard = SweepResult | SweepJSON;

/**
 * Merge the shards of one sweep (sweepComposite with `shard: { index, count }`, run by
 * any job array) into the table a single run would give: rows in variant order, each
 * variant once. Shards may come in any order, and from JSON (what a job writes with
 * `JSON.stringify(result)`); a missing shard leaves `complete` false.
 * `returnsOf` works on the merged table when every shard is a result made in this process.
 * @throws InvalidArgumentError when there is no shard, when shards weight different
 *   components or come from sweeps of different sizes, when a shard is not a sweep, or when
 *   two shards hold the same variant
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
  });
}

/** A shard read: its parts and its position in the list. */
type ShardColumns = SweepParts & { readonly at: number };

/** A shard's columns as Float64Array (decoding JSON's "NaN" / "Infinity" strings), checked for its fields. */
function readShard(s: SweepShard, at: number, where: string): ShardColumns {
  const bad = (why: string): InvalidArgumentError =>
    new InvalidArgumentError("shards", `${where}: shard ${at} is not a sweep (${why}); pass sweepComposite results or JSON.parse of their JSON`);
  if (typeof s !== "object" || s === null || !Array.isArray(s.components) || typeof s.columns !== "object" || s.columns === null) throw bad("no components or columns");
  const isJson = "format" in s;
  if (isJson && s.format !== "market-intel-lab/sweep@1") throw bad(`format ${String(s.format)}`);
  if (!Number.isInteger(s.total) || s.total < 0) throw bad(`total ${String(s.total)}`);
  if (!(typeof s.periodsPerYear === "number" && s.periodsPerYear > 0)) throw bad(`periodsPerYear ${String(s.periodsPerYear)}`);
  const columns: Record<string, Float64Array> = {};
  let length = -1;
  const strategy = "parameters" in s && s.parameters !== undefined && !isJson ? s.parameters : isJson ? (s as SweepJSON).parameters : undefined;
  if (strategy !== undefined && !Array.isArray(strategy)) throw bad("parameters is not a list");
  for (const f of sweepFields(strategy ?? compositeParameters(s.components))) {
    const col = (s.columns as Record<string, ArrayLike<number | string>>)[f];
    if (col === undefined || typeof col.length !== "number") throw bad(`no ${f} column`);
    if (length >= 0 && col.length !== length) throw bad(`column ${f} has ${col.length} rows, not ${length}`);
    length = col.length;
    columns[f] = col instanceof Float64Array ? col : Float64Array.from(col as ArrayLike<number | string>, (x) => (typeof x === "number" ? x : Number(x)));
  }
  const source = isJson ? undefined : sourceOf(s as SweepResult);
  const runsOn = isJson ? "calling thread" : (s as SweepResult).runsOn;
  const levels = (s as { levels?: SweepParts["levels"] }).levels;
  return {
    at,
    components: s.components,
    ...(strategy !== undefined ? { parameters: strategy, levels: levels ?? {} } : {}),
    total: s.total,
    aborted: s.aborted === true,
    periodsPerYear: s.periodsPerYear,
    columns,
    source,
    runsOn,
  };
}
