import { z } from "zod";
import { checkResponseTimes } from "../checkResponseTimes.js";
import { schemaMismatch } from "../schemaMismatch.js";

/** One large resting order (observed shape). */
export const whaleOrderSchema = z.looseObject({
  coin: z.string().optional(),
  distance_from_mid_pct: z.number(),
  price: z.number(),
  side: z.string(),
  size_coins: z.number(),
  size_usd: z.number(),
  timestamp: z.string().optional(),
});

/** One coin's whale flow as observed (spec 2.3). */
export const observedWhaleFlowEntrySchema = z.looseObject({
  coin: z.string(),
  threshold_usd: z.number(),
  timestamp: z.string(),
  total_whale_ask_usd: z.number(),
  total_whale_bid_usd: z.number(),
  whale_imbalance: z.number().nullable(),
  whale_orders: z.array(whaleOrderSchema),
});

/** One coin's whale flow, documented alternative. */
export const documentedWhaleFlowEntrySchema = z.looseObject({
  coin: z.string(),
  net_flow: z.number().nullable(),
  large_buy_count: z.number().int(),
  large_sell_count: z.number().int(),
  intensity: z.number().nullable(),
});

const observedManySchema = z.looseObject({ whale_flow: z.array(observedWhaleFlowEntrySchema) });
/** `/v1/signals/whale-flow`, documented alternative `{whale_flow: [...]}`. */
export const documentedWhaleFlowSchema = z.looseObject({ whale_flow: z.array(documentedWhaleFlowEntrySchema) });

/** An observed-shape whale-flow entry. */
export type ObservedWhaleFlowEntry = z.infer<typeof observedWhaleFlowEntrySchema>;
/** A documented-shape whale-flow entry. */
export type DocumentedWhaleFlowEntry = z.infer<typeof documentedWhaleFlowEntrySchema>;

/**
 * Normalised whale flow: always `{whale_flow: [...]}`, one entry per coin.
 * `variant` says which entry shape it holds (observed order-book totals or
 * the documented net-flow counts; the two carry different fields).
 */
export type WhaleFlow = { [key: string]: unknown } & (
  | { whale_flow: ObservedWhaleFlowEntry[]; variant: "observed" }
  | { whale_flow: DocumentedWhaleFlowEntry[]; variant: "documented" }
);

/**
 * Validate a `/v1/signals/whale-flow` body: one coin's observed object, an
 * array of them (bare or in `whale_flow`), or the documented `whale_flow[]`.
 * Other top-level fields (e.g. `timestamp`) are kept.
 * @throws SchemaMismatchError naming both variants
 * @throws InvalidTimeError for a time that is not one or lies outside 2009..2099 (see checkResponseTimes)
 */
export function normaliseWhaleFlow(body: unknown, endpoint = "/v1/signals/whale-flow"): WhaleFlow {
  const one = observedWhaleFlowEntrySchema.safeParse(body);
  if (one.success) return checkResponseTimes({ whale_flow: [one.data], variant: "observed" }, endpoint);
  const many = (Array.isArray(body) ? z.array(observedWhaleFlowEntrySchema) : observedManySchema).safeParse(body);
  if (many.success) {
    return checkResponseTimes(Array.isArray(many.data) ? { whale_flow: many.data, variant: "observed" } : { ...many.data, variant: "observed" }, endpoint);
  }
  const documented = documentedWhaleFlowSchema.safeParse(body);
  if (documented.success) return checkResponseTimes({ ...documented.data, variant: "documented" }, endpoint);
  throw schemaMismatch(endpoint, [
    ["observed", one.error],
    ["documented", documented.error],
  ]);
}
