import { METRIC_CATALOG, metricSeries } from "../../sim/catalog.js";
import type { ReplayContext } from "../ReplayContext.js";

/** GET /v1/snapshot: every catalog metric at the current minute (observed), or the documented flat fields. */
export function snapshot(ctx: ReplayContext, variant: string): unknown {
  const { market, index } = ctx;
  const at = (id: string): number => metricSeries(market, id)[index] as number;
  if (variant === "documented") {
    return {
      btc_price: at("btc_price"),
      eth_price: at("eth_price"),
      sol_price: at("sol_price"),
      hlp_price: at("hype_price"),
      btc_spot_perp_spread_bps: at("btc_basis_bps"),
      eth_basefee_gwei: at("eth_basefee_gwei"),
      btc_oi_usd: at("btc_oi_usd"),
      updated_at: ctx.iso(index),
    };
  }
  const timeLocal = new Date(ctx.now).toISOString();
  return {
    catalog_total: METRIC_CATALOG.length,
    metrics: METRIC_CATALOG.map((m) => ({
      metric_id: m.id,
      time_chain: ctx.iso(index),
      time_local: timeLocal,
      value: finite(at(m.id)),
    })),
  };
}

/** JSON has no NaN: unknown values go out as null. */
export function finite(v: number): number | null {
  return Number.isFinite(v) ? v : null;
}
