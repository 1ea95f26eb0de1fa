import { createHash } from "node:crypto";
import { splitOptions } from "../store/createManifest.js";
import { hashColumns } from "../store/hashColumns.js";

/** JSON with every object's keys sorted, so equal settings give equal text whatever order they were written in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(",")}}`;
  }
  return typeof value === "number" && !Number.isFinite(value) ? JSON.stringify(String(value)) : (JSON.stringify(value) ?? "null");
}

/**
 * The fingerprint of a sweep: SHA-256 (hex) of everything its variants are
 * computed from and nothing else. `inputs` is the sweep's options object as
 * a manifest records it: its data columns (close, time, funding per bar,
 * component scores, the weight grid, the thresholds, as typed arrays or
 * number arrays) are hashed by their bytes, the rest (fees, slippage,
 * periods per year, missing policy, variant count, ...) by its JSON with
 * sorted keys. Shards of one sweep share it; a shard of other data or other
 * options does not, which is how `mergeSweeps` refuses to mix them.
 * @example
 * sweepFingerprint({ close, thresholds: Float64Array.of(0.1, 0.2), feeBps: 5 }) // "9c1f..."
 * sweepFingerprint({ close, thresholds: Float64Array.of(0.1, 0.2), feeBps: 50 }) // another digest
 * @internal
 */
export function sweepFingerprint(inputs: Readonly<Record<string, unknown>>): string {
  const { parameters, columns } = splitOptions(inputs);
  return createHash("sha256").update(hashColumns(columns).sha256).update("\n").update(canonicalJson(parameters)).digest("hex");
}
