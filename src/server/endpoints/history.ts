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

/**
 * A run of consecutive bars [lo, hi) of one metric as the JSON text of their
 * points joined by commas, and where each point starts (`at[i - lo]`; one
 * extra entry: the end of the run plus one).
 */
interface PointRun {
  readonly lo: number;
  readonly hi: number;
  readonly text: string;
  readonly at: Uint32Array;
}

/** Per simulated market (a new one replaces it when the clock moves past its end) and metric. */
const POINT_RUNS = new WeakMap<SimMarket, Map<string, PointRun>>();

/**
 * The points of bars from..to as JSON text, joined by commas. The text of a
 * run of bars is built once per market and metric (past bars never change) and
 * rebuilt wider when a request reaches outside it; a request inside it is one
 * substring. The run's text is `JSON.stringify` of its point objects (the
 * body's own definition: JSON's number format, `null` for non-finite values),
 * without the brackets; a point's text ends at the first `}` after its 49
 * fixed characters (`{"time_chain":"<24>","value":`), which is how each
 * point's start is found.
 */
function pointsText(ctx: ReplayContext, metricId: string, series: ArrayLike<number>, from: number, to: number): string {
  let byMetric = POINT_RUNS.get(ctx.market);
  if (byMetric === undefined) POINT_RUNS.set(ctx.market, (byMetric = new Map()));
  let run = byMetric.get(metricId);
  if (run === undefined || from < run.lo || to >= run.hi) {
    const lo = Math.min(from, run?.lo ?? from);
    const hi = Math.max(to + 1, run?.hi ?? to + 1);
    const points = new Array<{ time_chain: string; value: number }>(hi - lo);
    for (let i = lo; i < hi; i++) points[i - lo] = { time_chain: ctx.iso(i), value: series[i] as number };
    const json = JSON.stringify(points);
    const at = new Uint32Array(hi - lo + 1);
    let pos = 1;
    for (let k = 0; k < hi - lo; k++) {
      at[k] = pos - 1;
      pos = json.indexOf("}", pos + POINT_FIXED_CHARS) + 2;
    }
    at[hi - lo] = pos - 1;
    run = { lo, hi, text: json.slice(1, -1), at };
    byMetric.set(metricId, run);
  }
  return run.text.slice(run.at[from - run.lo] as number, (run.at[to + 1 - run.lo] as number) - 1);
}

/** Characters of a point's text before its value: `{"time_chain":"` + 24-character ISO time + `","value":`. */
const POINT_FIXED_CHARS = 49;

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
      // written as text: JSON.stringify's text of the points, kept per market and metric since
      // past bars never change (see pointsText), inside the envelope's few keys.
      const points = n > 0 ? pointsText(ctx, metricId, series, from, to) : "";
      return new PreparedJson(
        `{"coin":${JSON.stringify(coin ?? null)},"metric_id":${JSON.stringify(metricId)},"hours":${hours},"interval_sec":60,"data":[${points}]}`,
      );
    }
  }
}
