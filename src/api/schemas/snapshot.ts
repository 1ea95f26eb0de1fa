import { z } from "zod";
import { checkResponseTimes } from "../checkResponseTimes.js";
import { schemaMismatch } from "../schemaMismatch.js";

/** One catalog metric as the service sends it (observed shape). */
export const snapshotMetricSchema = z.looseObject({
  metric_id: z.string(),
  time_chain: z.string(),
  time_local: z.string(),
  value: z.number().nullable(),
});

/** `/v1/snapshot`, observed shape (spec 2.1) — also the canonical one. */
export const snapshotSchema = z.looseObject({
  catalog_total: z.number().int(),
  metrics: z.array(snapshotMetricSchema),
});

/** `/v1/snapshot`, documented flat alternative: `{btc_price, ..., updated_at}`. */
export const documentedSnapshotSchema = z
  .looseObject({ updated_at: z.string() })
  .refine((o) => Object.values(o).some((v) => typeof v === "number"), { message: "no numeric metric field" });

/** A snapshot metric entry. */
export type SnapshotMetric = z.infer<typeof snapshotMetricSchema>;
/** Normalised snapshot: the observed shape plus the variant it came in. */
export type Snapshot = z.infer<typeof snapshotSchema> & { variant: "observed" | "documented" };

/**
 * Validate a `/v1/snapshot` body and normalise it to the observed shape.
 * Documented flat fields become metric entries: every numeric field `f`
 * becomes `{metric_id: f, value, time_chain: updated_at, time_local: updated_at}`
 * and `catalog_total` is their count; non-numeric fields (`updated_at`, any
 * unknown one) stay at the top level.
 * @throws SchemaMismatchError naming both variants
 * @throws InvalidTimeError for a time that is not one or lies outside 2009..2099 (see checkResponseTimes)
 */
export function normaliseSnapshot(body: unknown, endpoint = "/v1/snapshot"): Snapshot {
  const observed = snapshotSchema.safeParse(body);
  if (observed.success) return checkResponseTimes({ ...observed.data, variant: "observed" }, endpoint);
  const documented = documentedSnapshotSchema.safeParse(body);
  if (documented.success) {
    const at = documented.data.updated_at;
    const metrics: SnapshotMetric[] = [];
    const rest: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(documented.data)) {
      if (typeof value === "number") metrics.push({ metric_id: key, time_chain: at, time_local: at, value });
      else rest[key] = value;
    }
    return checkResponseTimes({ ...rest, catalog_total: metrics.length, metrics, variant: "documented" }, endpoint);
  }
  throw schemaMismatch(endpoint, [
    ["observed", observed.error],
    ["documented", documented.error],
  ]);
}
