import { z } from "zod";
import { checkResponseTimes } from "../checkResponseTimes.js";
import { schemaMismatch } from "../schemaMismatch.js";

const byWindow = z.record(z.string(), z.number().nullable());

/** One coin's volatility entry, observed (canonical) shape. */
export const volatilityEntrySchema = z.looseObject({
  coin: z.string(),
  mark_price: z.number(),
  realized_vol: byWindow,
  atr: byWindow,
  regime: z.string().nullable(),
  timestamp: z.string(),
});

/** `/v1/signals/volatility`, observed shape (spec 2.2). */
export const volatilitySchema = z.looseObject({
  timestamp: z.string(),
  volatility: z.array(volatilityEntrySchema),
});

const flat = z.number().nullable().optional();
/** One coin, documented flat alternative (`realized_vol_5m`, `realized_vol_1d`, `atr_5m`, ...). */
export const documentedVolatilityEntrySchema = z.looseObject({
  coin: z.string(),
  mark_price: z.number(),
  realized_vol_5m: flat,
  realized_vol_1h: flat,
  realized_vol_4h: flat,
  realized_vol_1d: flat,
  realized_vol_24h: flat,
  atr_5m: flat,
  atr_1h: flat,
  atr_4h: flat,
  atr_1d: flat,
  atr_24h: flat,
  regime: z.string().nullable().optional(),
  timestamp: z.string().optional(),
});

/** `/v1/signals/volatility`, documented flat alternative. */
export const documentedVolatilitySchema = z.looseObject({
  timestamp: z.string().optional(),
  volatility: z.array(documentedVolatilityEntrySchema),
});

/** A normalised volatility entry. */
export type VolatilityEntry = z.infer<typeof volatilityEntrySchema>;
/** Normalised volatility: the observed shape plus the variant it came in. */
export type Volatility = z.infer<typeof volatilitySchema> & { variant: "observed" | "documented" };

const WINDOW_ALIASES: Readonly<Record<string, string>> = { "1d": "24h", "24h": "24h", "5m": "5m", "1h": "1h", "4h": "4h" };

function canonicalWindows(rec: Readonly<Record<string, number | null>>): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const [k, v] of Object.entries(rec)) out[WINDOW_ALIASES[k] ?? k] = v;
  return out;
}

function flatWindows(entry: Readonly<Record<string, unknown>>, prefix: string): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const [k, v] of Object.entries(entry)) {
    if (!k.startsWith(prefix) || (typeof v !== "number" && v !== null)) continue;
    const w = k.slice(prefix.length);
    out[WINDOW_ALIASES[w] ?? w] = v;
  }
  return out;
}

/**
 * Validate a `/v1/signals/volatility` body and normalise it to the observed
 * shape: `realized_vol` and `atr` keyed by `"5m" | "1h" | "4h" | "24h"` (a
 * `1d` key, nested or flat `realized_vol_1d`, maps to `"24h"`). Windows the
 * service did not send are absent. A documented entry without `regime` gets
 * `null`; without `timestamp`, the top-level one.
 * @throws SchemaMismatchError naming both variants
 */
export function normaliseVolatility(body: unknown, endpoint = "/v1/signals/volatility"): Volatility {
  const observed = volatilitySchema.safeParse(body);
  if (observed.success) {
    const d = observed.data;
    return checkResponseTimes(
      {
        ...d,
        volatility: d.volatility.map((e) => ({ ...e, realized_vol: canonicalWindows(e.realized_vol), atr: canonicalWindows(e.atr) })),
        variant: "observed" as const,
      },
      endpoint,
    );
  }
  const documented = documentedVolatilitySchema.safeParse(body);
  if (documented.success) {
    const d = documented.data;
    const top = d.timestamp ?? "";
    const volatility = d.volatility.map((e): VolatilityEntry => {
      const rest: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(e)) if (!k.startsWith("realized_vol_") && !k.startsWith("atr_")) rest[k] = v;
      return {
        ...rest,
        coin: e.coin,
        mark_price: e.mark_price,
        realized_vol: flatWindows(e, "realized_vol_"),
        atr: flatWindows(e, "atr_"),
        regime: e.regime ?? null,
        timestamp: e.timestamp ?? top,
      };
    });
    return checkResponseTimes({ ...d, timestamp: top, volatility, variant: "documented" as const }, endpoint);
  }
  throw schemaMismatch(endpoint, [
    ["observed", observed.error],
    ["documented", documented.error],
  ]);
}
