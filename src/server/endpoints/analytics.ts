import type { Coin } from "../../domain/coins.js";
import { metricSeries } from "../../sim/catalog.js";
import { simulateComposites } from "../../sim/composites.js";
import { COMPONENT_NAMES } from "../../signals/weights.js";
import type { ReplayContext } from "../ReplayContext.js";
import { ReplayError } from "../ReplayError.js";
import { coinListParam, intParam, timeParam } from "../params.js";
import { resolveMetric } from "./history.js";
import { finite } from "./snapshot.js";

const INTERVALS: Record<string, number> = { "1m": 1, "5m": 5, "15m": 15, "1h": 60, "4h": 240, "1d": 1440 };
const DATASETS = ["metrics", "candles", "composite"] as const;

/**
 * GET /v3/analytics/query. Rows are point-in-time: a `metrics` or `composite` row at
 * time t holds the value known at t (sampled at interval boundaries); a `candles`
 * row at t is the bar that opens at t (known at t + interval). Sorted by time, then coin.
 */
export function analytics(ctx: ReplayContext, variant: string, query: URLSearchParams, path: string): unknown {
  const dataset = (query.get("dataset") ?? "metrics").toLowerCase();
  if (!(DATASETS as readonly string[]).includes(dataset)) {
    throw new ReplayError(400, "bad_dataset", `dataset must be one of ${DATASETS.join(", ")}, got ${JSON.stringify(dataset)}`);
  }
  const interval = query.get("interval") ?? "1m";
  const k = INTERVALS[interval];
  if (k === undefined) throw new ReplayError(400, "bad_interval", `interval must be one of ${Object.keys(INTERVALS).join(", ")}, got ${JSON.stringify(interval)}`);
  const coins = coinListParam(query);
  const { market, index } = ctx;
  const nowT = market.time[index] as number;
  const end = Math.min(timeParam(query, "end") ?? nowT, nowT);
  const start = Math.max(timeParam(query, "start") ?? nowT - 86_400_000, market.start);
  if (start > end) throw new ReplayError(400, "bad_range", "start must not be after end");
  const limit = intParam(query, "limit", 10_000, 1, 50_000);
  const offset = intParam(query, "offset", 0, 0, Number.MAX_SAFE_INTEGER);
  const cursor = query.get("cursor");
  const first = cursor !== null && cursor !== "" ? Number.parseInt(Buffer.from(cursor, "base64url").toString(), 10) : offset;
  if (!Number.isInteger(first) || first < 0) throw new ReplayError(400, "bad_cursor", "cursor is not one this server issued");

  const step = k * 60_000;
  const t0 = Math.ceil(start / step) * step;
  const indices: number[] = [];
  for (let t = t0; t <= end; t += step) indices.push((t - market.start) / 60_000);

  let columns: string[];
  let rowOf: (i: number, coin: Coin, metric: string) => unknown[];
  let keys: { coin: Coin; metric: string }[];
  if (dataset === "metrics") {
    const ids = (query.get("metric_id") ?? query.get("metric") ?? "").split(",").filter((s) => s.trim() !== "");
    if (ids.length === 0) throw new ReplayError(400, "missing_metric_id", "dataset=metrics needs metric_id (a comma list)");
    const perCoin = query.get("coin") !== null;
    keys = [];
    for (const raw of ids) {
      if (perCoin) {
        for (const coin of coins) keys.push({ coin, metric: resolveMetric(new URLSearchParams({ metric_id: raw }), coin) });
      } else {
        const metric = resolveMetric(new URLSearchParams({ metric_id: raw }), undefined);
        const owner = coins.find((c) => metric.startsWith(`${c.toLowerCase()}_`));
        keys.push({ coin: owner ?? (coins[0] as Coin), metric });
      }
    }
    columns = ["time", "coin", "metric_id", "value"];
    rowOf = (i, coin, metric) => [ctx.iso(i), coin, metric, finite(metricSeries(market, metric)[i] as number)];
  } else if (dataset === "candles") {
    keys = coins.map((coin) => ({ coin, metric: "" }));
    columns = ["time", "coin", "open", "high", "low", "close", "volume"];
    rowOf = (i, coin) => {
      const p = market.coins[coin];
      const last = Math.min(i + k - 1, index);
      let h = -Infinity;
      let l = Infinity;
      let v = 0;
      for (let j = i; j <= last; j++) {
        h = Math.max(h, p.high[j] as number);
        l = Math.min(l, p.low[j] as number);
        v += p.volume[j] as number;
      }
      return [ctx.iso(i), coin, p.open[i], h, l, p.close[last], v];
    };
  } else {
    keys = coins.map((coin) => ({ coin, metric: "" }));
    columns = ["time", "coin", "composite_score", "regime", "vol_regime", "confidence"];
    for (const c of COMPONENT_NAMES) columns.push(`${c}_value`, `${c}_score`);
    rowOf = (i, coin) => {
      const c = simulateComposites(market, coin);
      const row: unknown[] = [ctx.iso(i), coin, finite(c.composite[i] as number), c.label(i), c.volRegime(i), finite(c.confidence[i] as number)];
      for (const name of COMPONENT_NAMES) row.push(finite(c.values[name][i] as number), finite(c.scores[name][i] as number));
      return row;
    };
  }

  const total = indices.length * keys.length;
  const last = Math.min(total, first + limit);
  const rows: unknown[][] = [];
  for (let r = first; r < last; r++) {
    const i = indices[Math.floor(r / keys.length)] as number;
    const key = keys[r % keys.length] as { coin: Coin; metric: string };
    rows.push(rowOf(i, key.coin, key.metric));
  }
  const next = last < total ? last : null;
  const echo = Object.fromEntries([...query.entries()].filter(([key]) => !key.startsWith("_")));
  if (variant === "records") {
    return {
      data: rows.map((row) => Object.fromEntries(columns.map((c, j) => [c, row[j]]))),
      has_more: next !== null,
      next_cursor: next === null ? null : Buffer.from(String(next)).toString("base64url"),
    };
  }
  if (variant === "columns") {
    let nextUri: string | null = null;
    if (next !== null) {
      const q = new URLSearchParams(query);
      q.set("offset", String(next));
      q.delete("cursor");
      nextUri = `${path}?${q.toString()}`;
    }
    return { columns, rows, next_uri: nextUri };
  }
  return {
    query: { ...echo, dataset, interval, start: new Date(start).toISOString(), end: new Date(end).toISOString() },
    result: { columns, rows },
    metadata: { row_count: rows.length, total_rows: total, offset: first },
    next_offset: next,
  };
}
