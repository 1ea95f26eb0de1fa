import { z } from "zod";
import { parseMethodologyWeights } from "../parseMethodologyWeights.js";
import { checkResponseTimes } from "../checkResponseTimes.js";
import { schemaMismatch } from "../schemaMismatch.js";

/** One component's raw value and its score in [-1, 1]. */
export const componentSchema = z.looseObject({
  score: z.number().nullable(),
  value: z.number().nullable(),
});

/** One coin's composite signal (spec 2.4). */
export const compositeSignalSchema = z.looseObject({
  coin: z.string(),
  composite_score: z.number().nullable(),
  regime: z.string(),
  vol_regime: z.string(),
  confidence: z.number().nullable(),
  risk_warnings: z
    .array(z.string())
    .nullable()
    .optional()
    .transform((w) => w ?? []),
  timestamp: z.string(),
  components: z.record(z.string(), componentSchema),
});

/** `/v1/signals/composite`, observed shape: `{methodology, signals: [...]}`. */
export const compositeSchema = z.looseObject({
  methodology: z.string(),
  signals: z.array(compositeSignalSchema),
});

/**
 * Single-coin form (field table of spec 2.4 read as the body when `coin` is
 * given): the signal's fields at the top level, `methodology` optional.
 */
export const documentedCompositeSchema = compositeSignalSchema.extend({ methodology: z.string().optional() });

/** A normalised composite signal (`risk_warnings` is always an array). */
export type CompositeSignal = z.infer<typeof compositeSignalSchema>;

/** Normalised composite: observed shape plus parsed `weights` and the variant. */
export type Composite = z.infer<typeof compositeSchema> & {
  /** Weights parsed from `methodology` (fractions); empty when it states none (then the model's DEFAULT_WEIGHTS of src/signals apply). */
  weights: Record<string, number>;
  /** `"methodology"` if parsed from the text, `"default"` if it stated none. */
  weights_source: "methodology" | "default";
  variant: "observed" | "documented";
};

/**
 * Validate a `/v1/signals/composite` body and normalise it: `risk_warnings:
 * null` -> `[]`, weights parsed from `methodology` ("imbalance 30%" -> 0.3),
 * a single top-level signal wrapped into `signals: [it]`.
 * @throws SchemaMismatchError naming both variants
 * @throws InvalidTimeError for a time that is not one or lies outside 2009..2099 (see checkResponseTimes)
 */
export function normaliseComposite(body: unknown, endpoint = "/v1/signals/composite"): Composite {
  const observed = compositeSchema.safeParse(body);
  if (observed.success) {
    const { weights, source } = parseMethodologyWeights(observed.data.methodology);
    return checkResponseTimes({ ...observed.data, weights, weights_source: source, variant: "observed" }, endpoint);
  }
  const documented = documentedCompositeSchema.safeParse(body);
  if (documented.success) {
    const { methodology = "", ...signal } = documented.data;
    const { weights, source } = parseMethodologyWeights(methodology);
    return checkResponseTimes({ methodology, signals: [signal], weights, weights_source: source, variant: "documented" }, endpoint);
  }
  throw schemaMismatch(endpoint, [
    ["observed", observed.error],
    ["documented", documented.error],
  ]);
}
