import { COINS, type Coin } from "../../domain/coins.js";
import { isMetricId, metricSeries } from "../../sim/catalog.js";
import type { SimMarket } from "../../sim/market.js";
import type { ReplayContext } from "../ReplayContext.js";
import { PreparedJson } from "../PreparedJson.js";
import { ReplayError } from "../ReplayError.js";
import { coinParam, intParam } from "../params.js";

/** Largest `hours` the service documents. */
export const MAX_HISTORY_HOURS = 720;

/** Resolve `metric_id` (or `metric`), prefixing the coin when given without it (`price` + BTC -> `btc_price`). */
export function resolveMetric(query: URLSearchParams, coin: Coin | undefined): string {
  const raw = query.get("metric_id") ?? query.get("metric");
  if (raw === null || raw.trim() === "") throw new ReplayError(400, "missing_metric_id", "metric_id is required, e.g. metric_id=btc_price");
  const id = raw.trim().toLowerCase();
  if (isMetricId(id)) return id;
  if (coin !== undefined && isMetricId(`${coin.toLowerCase()}_${id}`)) return `${coin.toLowerCase()}_${id}`;
  throw new ReplayError(
    404,
    "unknown_metric",
    `unknown metric_id ${JSON.stringify(raw)}; GET /v1/snapshot lists the catalog (per coin: <coin>_price, _perp_price, _basis_bps, _funding_rate, _imbalance, _oi_usd, _volume, _spread_bps, _momentum_5m_pct for ${COINS.join(", ").toLowerCase()})`,
  );
}

/** Per simulated market (a new one replaces it when the clock moves past its end) and metric: each bar's point as JSON text. */
const POINT_TEXTS = new WeakMap<SimMarket, Map<string, (string | undefined)[]>>();

function pointTexts(market: SimMarket, metricId: string): (string | undefined)[] {
  let byMetric = POINT_TEXTS.get(market);
  if (byMetric === undefined) POINT_TEXTS.set(market, (byMetric = new Map()));
  let texts = byMetric.get(metricId);
  if (texts === undefined) byMetric.set(metricId, (texts = new Array<string | undefined>(market.time.length)));
  return texts;
}

/** GET /v1/history: one point a minute over the last `hours`, ending at the current minute. */
export function history(ctx: ReplayContext, variant: string, query: URLSearchParams): unknown {
  const coin = coinParam(query);
  const metricId = resolveMetric(query, coin);
  const hours = intParam(query, "hours", 24, 1, MAX_HISTORY_HOURS);
  const series = metricSeries(ctx.market, metricId);
  const from = Math.max(0, ctx.index - hours * 60 + 1);
  const to = ctx.index;
  const n = to - from + 1;
  const times = ctx.market.time;
  const value = (i: number): number | null => {
    const v = series[i] as number;
    return Number.isFinite(v) ? v : null;
  };
  switch (variant) {
    case "array": {
      const out = new Array<unknown>(n);
      for (let k = 0; k < n; k++) out[k] = { time_chain: ctx.iso(from + k), value: value(from + k), metric_id: metricId };
      return out;
    }
    case "pairs": {
      const out = new Array<unknown>(n);
      for (let k = 0; k < n; k++) out[k] = [times[from + k], value(from + k)];
      return { metric_id: metricId, data: out };
    }
    case "columnar": {
      const t = new Array<string>(n);
      const v = new Array<number | null>(n);
      for (let k = 0; k < n; k++) {
        t[k] = ctx.iso(from + k);
        v[k] = value(from + k);
      }
      return { metric_id: metricId, time_list: t, values: v };
    }
    case "rows": {
      const out = new Array<unknown>(n);
      for (let k = 0; k < n; k++) out[k] = [(times[from + k] as number) / 1000, value(from + k)];
      return { columns: ["time", "value"], rows: out };
    }
    default: {
      // The service's own shape, { coin, metric_id, hours, interval_sec, data: [{ time_chain, value }] },
      // written as text: the same characters JSON.stringify gives for that object (String(x) is
      // JSON's number format for finite x; ISO strings need no escaping), without building
      // 43 200 point objects first.
      // Each bar's text is kept (past bars never change), so repeated requests only join.
      const texts = pointTexts(ctx.market, metricId);
      const out = new Array<string>(n);
      for (let k = 0; k < n; k++) {
        const i = from + k;
        let text = texts[i];
        if (text === undefined) {
          const v = series[i] as number;
          text = texts[i] = `{"time_chain":"${ctx.iso(i)}","value":${Number.isFinite(v) ? String(v) : "null"}}`;
        }
        out[k] = text;
      }
      return new PreparedJson(
        `{"coin":${JSON.stringify(coin ?? null)},"metric_id":${JSON.stringify(metricId)},"hours":${hours},"interval_sec":60,"data":[${out.join(",")}]}`,
      );
    }
  }
}
