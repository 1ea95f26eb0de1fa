import { COINS, type Coin } from "../domain/coins.js";
import type { SimMarket } from "./market.js";

/** One metric of the simulated catalog. */
export interface MetricInfo {
  readonly id: string;
  readonly unit: string;
  readonly description: string;
  /** The coin the metric belongs to, when it is per coin. */
  readonly coin?: Coin;
}

type Derive = (m: SimMarket) => Float64Array;

const PER_COIN: ReadonlyArray<readonly [string, string, string, (m: SimMarket, c: Coin) => Float64Array]> = [
  ["price", "USD", "spot mid-price at the minute's close", (m, c) => m.coins[c].close],
  ["perp_price", "USD", "perpetual mark price", (m, c) => m.coins[c].perp],
  ["basis_bps", "bps", "spot-perp basis, (perp - spot) / spot", (m, c) => m.coins[c].basisBps],
  ["funding_rate", "decimal per hour", "hourly funding rate in force", (m, c) => m.coins[c].funding],
  ["imbalance", "bid share 0..1", "bid share of book depth near mid", (m, c) => m.coins[c].imbalance],
  ["oi_usd", "USD", "open interest", (m, c) => m.coins[c].openInterestUsd],
  ["volume", "coins", "traded volume in the minute", (m, c) => m.coins[c].volume],
  [
    "spread_bps",
    "bps",
    "quoted bid-ask spread",
    (m, c) => map(m.coins[c].close, (close, i) => 0.4 + (2e3 * ((m.coins[c].high[i] as number) - (m.coins[c].low[i] as number))) / close),
  ],
  [
    "momentum_5m_pct",
    "percent",
    "5-minute return of the spot price",
    (m, c) => map(m.coins[c].close, (close, i) => (i >= 5 ? 100 * (close / (m.coins[c].close[i - 5] as number) - 1) : Number.NaN)),
  ],
];

const CHAIN: ReadonlyArray<readonly [string, string, string, Derive]> = [
  ["eth_basefee_live", "gwei", "Ethereum base fee of the latest block", (m) => m.baseFeeGwei],
  ["eth_basefee_gwei", "gwei", "Ethereum base fee (documented alias)", (m) => m.baseFeeGwei],
  ["eth_priority_fee_gwei", "gwei", "median priority fee", (m) => map(m.baseFeeGwei, (g) => 0.01 + 0.08 * g)],
  ["eth_block_utilization_pct", "percent", "gas used / gas limit", (m) => map(m.baseFeeGwei, (g) => 50 + 40 * Math.tanh(Math.log(g / 0.6)))],
  ["eth_mempool_stress", "0..1", "pending-transaction pressure", (m) => map(m.baseFeeGwei, (g) => 1 / (1 + Math.exp(-3 * (g - 1.5))))],
  ["alpha_spread_bps", "bps", "ETH basis minus BTC basis", (m) => map(m.coins.ETH.basisBps, (b, i) => b - (m.coins.BTC.basisBps[i] as number))],
  ["btc_peers", "count", "Bitcoin node peer count", (m) => map(m.time, (t) => Math.round(110 + 12 * Math.sin(t / 5.4e6)))],
  ["eth_peers", "count", "Ethereum node peer count", (m) => map(m.time, (t) => Math.round(75 + 9 * Math.sin(t / 7.1e6)))],
  ["node_time_skew_ms", "ms", "local clock skew against NTP", (m) => map(m.time, (t) => 4 + 3 * Math.sin(t / 3.3e6))],
  ["celestia_peer_count", "count", "peer count on the data-availability network", (m) => map(m.time, (t) => Math.round(40 + 6 * Math.sin(t / 9.7e6)))],
];

function map(src: Float64Array, f: (v: number, i: number) => number): Float64Array {
  const out = new Float64Array(src.length);
  for (let i = 0; i < src.length; i++) out[i] = f(src[i] as number, i);
  return out;
}

/** Every metric the replay server knows, with unit and meaning (49 in all). */
export const METRIC_CATALOG: readonly MetricInfo[] = Object.freeze([
  ...COINS.flatMap((coin) =>
    PER_COIN.map(([suffix, unit, description]) => ({ id: `${coin.toLowerCase()}_${suffix}`, unit, description: `${coin} ${description}`, coin })),
  ),
  ...CHAIN.map(([id, unit, description]) => ({ id, unit, description })),
]);

const DERIVE = new Map<string, Derive>([
  ...COINS.flatMap((coin) =>
    PER_COIN.map(([suffix, , , f]) => [`${coin.toLowerCase()}_${suffix}`, (m: SimMarket) => f(m, coin)] as const),
  ),
  ...CHAIN.map(([id, , , f]) => [id, f] as const),
]);

const cache = new WeakMap<SimMarket, Map<string, Float64Array>>();

/** True when `id` names a catalog metric. */
export function isMetricId(id: string): boolean {
  return DERIVE.has(id);
}

/**
 * The full one-minute series of a catalog metric (cached per market; do not mutate).
 * @throws Error for an unknown id (callers check with isMetricId first)
 */
export function metricSeries(market: SimMarket, id: string): Float64Array {
  let perMarket = cache.get(market);
  if (perMarket === undefined) {
    perMarket = new Map();
    cache.set(market, perMarket);
  }
  const hit = perMarket.get(id);
  if (hit !== undefined) return hit;
  const f = DERIVE.get(id);
  if (f === undefined) throw new Error(`unknown metric ${id}`);
  const series = f(market);
  perMarket.set(id, series);
  return series;
}
