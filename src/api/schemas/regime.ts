import { z } from "zod";
import { checkResponseTimes } from "../checkResponseTimes.js";
import { schemaMismatch } from "../schemaMismatch.js";

/** One coin's regime entry (observed, spec 2.5). */
export const regimeEntrySchema = z.looseObject({
  coin: z.string(),
  confidence_score: z.number().nullable(),
  features_used: z.number().int().optional(),
  funding_regime: z.string().optional(),
  persistence_probability: z.number().nullable().optional(),
  regime_label: z.string(),
  risk_warnings: z
    .array(z.string())
    .nullable()
    .optional()
    .transform((w) => w ?? []),
  vol_24h: z.number().nullable().optional(),
  vol_regime: z.string().optional(),
});

const documentedFields = {
  regime: z.string(),
  confidence: z.number().nullable(),
  duration_hours: z.number().nullable().optional(),
  transition_probs: z.record(z.string(), z.number().nullable()).optional(),
};

/** `/v3/signals/regime`, observed shape (documented top-level fields allowed alongside). */
export const regimeSchema = z.looseObject({
  timestamp: z.string(),
  evaluation_interval_sec: z.number().optional(),
  model_type: z.string().optional(),
  regime_floor: z.string().optional(),
  regimes: z.array(regimeEntrySchema),
  regime: documentedFields.regime.optional(),
  confidence: documentedFields.confidence.optional(),
  duration_hours: documentedFields.duration_hours,
  transition_probs: documentedFields.transition_probs,
});

/** `/v3/signals/regime`, documented alternative: `{regime, confidence, duration_hours, transition_probs}`. */
export const documentedRegimeSchema = z.looseObject({ ...documentedFields, timestamp: z.string().optional() });

/** A normalised regime entry (`risk_warnings` always an array). */
export type RegimeEntry = z.infer<typeof regimeEntrySchema>;
/** Normalised regime: observed fields (`regimes` empty when absent) plus documented ones when sent. */
export type Regime = z.infer<typeof regimeSchema> & { variant: "observed" | "documented" };

/**
 * Validate a `/v3/signals/regime` body. The observed `regimes[]` form is
 * kept with any documented top-level fields it also carries (`variant` is then
 * `"documented"`, since those fields are present); a documented-only body
 * becomes `{timestamp, regimes: [], regime, confidence, ...}`.
 * @throws SchemaMismatchError naming both variants
 */
export function normaliseRegime(body: unknown, endpoint = "/v3/signals/regime"): Regime {
  const observed = regimeSchema.safeParse(body);
  if (observed.success) {
    // Documented top-level fields alongside regimes[]: say so.
    return checkResponseTimes({ ...observed.data, variant: observed.data.regime === undefined ? "observed" : "documented" }, endpoint);
  }
  const documented = documentedRegimeSchema.safeParse(body);
  if (documented.success) {
    return checkResponseTimes({ ...documented.data, timestamp: documented.data.timestamp ?? "", regimes: [], variant: "documented" }, endpoint);
  }
  throw schemaMismatch(endpoint, [
    ["observed", observed.error],
    ["documented", documented.error],
  ]);
}
