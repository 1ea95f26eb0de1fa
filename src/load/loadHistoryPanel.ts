import type { History, MarketIntelClient } from "../api/createClient.js";
import { alignAsOf, type AsOfFeed } from "../data/alignAsOf.js";
import type { Panel } from "../data/Panel.js";
import { unionTimes } from "../data/unionTimes.js";
import { historyHours } from "../api/historyHours.js";
import { parseCoin } from "../domain/coins.js";
import { parseMetricId } from "../domain/metricIds.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { checkOptions, type OptionsCheck } from "../options/checkOptions.js";
import { LOAD_HISTORY_OPTION_SPECS } from "./loaderOptionSpecs.js";

/** Parameters of `loadHistory` / `loadHistoryPanel`. */
export interface LoadHistoryParams {
  /** Coin or coins (lower case accepted); each metric is fetched once per coin [none: metric ids name their coin, e.g. "btc_price"]. */
  readonly coin?: string | readonly string[] | undefined;
  /**
   * Metric id or ids, e.g. `"btc_price"` or `["btc_price", "eth_price"]` (or `"price"` with a coin),
   * fetched concurrently under the client's rate limit. One or a list, as `coin` and `analyticsQuery`'s
   * `metricId`. (A separate `metricIds` before 0.2.)
   */
  readonly metricId: string | readonly string[];
  /** Window in hours, 1..720 [24]. */
  readonly hours?: number | undefined;
  /**
   * How the series meet on the common grid (the sorted union of their times):
   * `"exact"`: a value only at its own time stamp, NaN elsewhere (an outer
   * join; nothing is moved in time); `"last"`: the last value known at or
   * before each time, up to `maxStalenessMs` old ["exact"].
   */
  readonly fill?: "exact" | "last" | undefined;
  /** With `fill: "last"`: oldest value carried forward, in ms [Infinity]. */
  readonly maxStalenessMs?: number | undefined;
  /** Requests in flight at once (each 720 h body is ~3 MB of JSON; fewer keeps memory down) [6]. */
  readonly concurrency?: number | undefined;
  /** A local store (`openStore(dir)`): windows it already has are read from it, only missing hours are fetched and saved [none]. */
  readonly store?: { historyClient(client: Pick<MarketIntelClient, "history">): Pick<MarketIntelClient, "history"> } | undefined;
}

/** What `loadHistoryPanel` fetched, per output column. */
export interface HistoryLoad {
  readonly panel: Panel;
  /** Per column: the metric id and coin asked for, and the points the parser dropped (nulls, duplicates, conflicts). */
  readonly sources: Readonly<Record<string, Pick<History, "dropped" | "variant" | "hours"> & { metricId: string; coin?: string }>>;
}

/** True when every series has exactly the same time stamps (the common case: one-minute history of one window), so no union is needed. */
function sameTimes(series: readonly History[]): boolean {
  const first = series[0];
  if (first === undefined) return true;
  const a = first.time;
  for (const s of series) {
    const b = s.time;
    if (b === a) continue;
    if (b.length !== a.length) return false;
    for (let i = 0; i < a.length; i++) if (b[i] !== a[i]) return false;
  }
  return true;
}

function strictlyAscending(t: Float64Array | undefined): boolean {
  if (t === undefined) return false;
  for (let i = 0; i < t.length; i++) if (!Number.isFinite(t[i]) || (i > 0 && !((t[i] as number) > (t[i - 1] as number)))) return false;
  return true;
}

function hasNaN(v: Float64Array): boolean {
  for (let i = 0; i < v.length; i++) if (Number.isNaN(v[i])) return true;
  return false;
}

/** How loadHistory's parameters are checked where they enter (checkOptions). */
const LOAD_HISTORY_CHECK: OptionsCheck = {
  where: "loadHistory",
  specs: LOAD_HISTORY_OPTION_SPECS,
  example: 'loadHistory(client, { metricId: ["btc_price"] })',
  renamed: { metricIds: 'metricId, which takes one id or a list: { metricId: ["btc_price", "eth_price"] }' },
};

function requests(params: LoadHistoryParams): { metricId: string; coin?: string }[] {
  if (typeof params !== "object" || params === null) {
    throw new InvalidArgumentError("params", `loadHistory: params must be an object like { metricId: ["btc_price"] }, got ${JSON.stringify(params)}`);
  }
  const { metricId } = params;
  if (metricId === undefined) {
    throw new InvalidArgumentError("metricId", 'loadHistory: metricId is required: one id or a list, e.g. { metricId: ["btc_price", "eth_price"] }');
  }
  if (typeof metricId !== "string" && !Array.isArray(metricId)) {
    throw new InvalidArgumentError("metricId", `loadHistory: metricId must be one metric id or a list of them, got ${JSON.stringify(metricId)}`);
  }
  const list: readonly unknown[] = typeof metricId === "string" ? [metricId] : metricId;
  if (list.length === 0) throw new InvalidArgumentError("metricId", "loadHistory: metric ids must be non-empty strings, got []");
  const ids = list.map((id) => parseMetricId(id, "loadHistory", "metricId"));
  historyHours(params.hours, "loadHistory");
  if (params.coin !== undefined && typeof params.coin !== "string" && !Array.isArray(params.coin)) {
    throw new InvalidArgumentError("coin", `loadHistory: coin must be a coin or a list of coins, got ${JSON.stringify(params.coin)}`);
  }
  const coins = params.coin === undefined ? [undefined] : (typeof params.coin === "string" ? [params.coin] : [...params.coin]).map((c) => parseCoin(c, "loadHistory"));
  if (coins.length === 0) throw new InvalidArgumentError("coin", "loadHistory: coin list is empty; omit coin or name at least one");
  const out: { metricId: string; coin?: string }[] = [];
  for (const coin of coins) for (const id of ids) out.push(coin === undefined ? { metricId: id } : { metricId: id, coin });
  return out;
}

/**
 * Fetch one or more metrics' `/v1/history` (per coin when coins are given),
 * concurrently (`concurrency` at a time) under the client's rate limit and cache, and put them in one
 * wide {@link Panel}: `time` is the sorted union of every series' time stamps
 * (epoch ms UTC, unique) and there is one column per series, named by the
 * metric id the service returned (`"btc_price"`), or `"<coin>_<id>"` when two
 * series would share a name. A series with no points is a column of NaN.
 * Unknown metric ids fail with the service's HttpError (404, naming the id).
 * Every argument (each coin, each metric id's format, hours, fill, staleness,
 * concurrency) is checked before the first request.
 * @throws InvalidArgumentError before any request for bad parameters
 * @example
 * const { panel } = await loadHistoryPanel(client, { metricId: ["btc_price", "eth_price"], hours: 24 });
 * panel.time.length // 1440
 */
export async function loadHistoryPanel(client: MarketIntelClient, params: LoadHistoryParams): Promise<HistoryLoad> {
  params = checkOptions(params, LOAD_HISTORY_CHECK);
  const reqs = requests(params);
  const fill = params.fill ?? "exact";
  if (fill !== "exact" && fill !== "last") {
    throw new InvalidArgumentError("fill", `loadHistory: fill must be "exact" or "last", got ${JSON.stringify(fill)}`);
  }
  const maxAge = params.maxStalenessMs;
  if (maxAge !== undefined && (typeof maxAge !== "number" || Number.isNaN(maxAge) || maxAge < 0)) {
    throw new InvalidArgumentError("maxStalenessMs", `loadHistory: maxStalenessMs must be a number >= 0, got ${String(maxAge)}`);
  }
  const concurrency = params.concurrency ?? 6;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new InvalidArgumentError("concurrency", `loadHistory: concurrency must be a positive integer, got ${String(concurrency)}`);
  }
  const source = params.store === undefined ? client : params.store.historyClient(client);
  const series = new Array<History>(reqs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < reqs.length) {
      const i = next++;
      const r = reqs[i] as { metricId: string; coin?: string };
      series[i] = await source.history({ metricId: r.metricId, coin: r.coin, hours: params.hours });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, reqs.length) }, worker));
  const names = series.map((s) => (s.metricId ?? "value").toLowerCase());
  const sources: Record<string, HistoryLoad["sources"][string]> = {};
  const feeds: AsOfFeed[] = series.map((s, i) => {
    let name = names[i] as string;
    const clash = names.filter((x) => x === name).length > 1;
    if (clash && s.coin !== undefined) name = `${s.coin.toLowerCase()}_${name}`;
    let k = 2;
    const base = name;
    while (name in sources) name = `${base}_${k++}`;
    const req = reqs[i] as { metricId: string; coin?: string };
    sources[name] = { metricId: req.metricId, ...(req.coin === undefined ? {} : { coin: req.coin }), dropped: s.dropped, variant: s.variant, hours: s.hours };
    return { time: s.time, columns: { [name]: s.value }, fill, ...(maxAge === undefined ? {} : { maxStalenessMs: maxAge }) };
  });
  if (sameTimes(series) && !("time" in sources) && strictlyAscending(series[0]?.time) && (fill === "exact" || series.every((s) => !hasNaN(s.value)))) {
    // Every series has the grid's own time stamps (and, for "last", no NaN
    // to skip), so alignAsOf would copy each value to its own row: hand the
    // (freshly fetched, unshared) arrays over as they are.
    const columns: Record<string, Float64Array> = {};
    for (const f of feeds) for (const [name, col] of Object.entries(f.columns)) columns[name] = col as Float64Array;
    return { panel: { time: series[0]?.time ?? new Float64Array(0), columns }, sources };
  }
  const grid = unionTimes(...series.map((s) => s.time));
  return { panel: alignAsOf(grid, feeds), sources };
}
