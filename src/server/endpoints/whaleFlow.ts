import type { Coin } from "../../domain/coins.js";
import { COINS } from "../../domain/coins.js";
import { createRng, mixSeed } from "../../random/prng.js";
import type { ReplayContext } from "../ReplayContext.js";

const THRESHOLD_USD: Record<Coin, number> = { BTC: 1_000_000, ETH: 500_000, SOL: 250_000, HYPE: 100_000 };

/** One coin's whale book at the current minute, in the observed shape. */
export function whaleEntry(ctx: ReplayContext, coin: Coin): Record<string, unknown> {
  const { market, index } = ctx;
  const path = market.coins[coin];
  const mid = path.close[index] as number;
  const bidShare = path.imbalance[index] as number;
  const rng = createRng(mixSeed(ctx.seed, index, COINS.indexOf(coin), 7));
  const count = Math.floor(rng.uniform() * 7);
  const threshold = THRESHOLD_USD[coin];
  const orders = [];
  let bid = 0;
  let ask = 0;
  for (let k = 0; k < count; k++) {
    const side = rng.uniform() < bidShare ? "bid" : "ask";
    const distance = 0.05 + rng.uniform() * 1.5;
    const price = side === "bid" ? mid * (1 - distance / 100) : mid * (1 + distance / 100);
    const sizeUsd = threshold * (1 + 4 * rng.uniform() ** 2);
    if (side === "bid") bid += sizeUsd;
    else ask += sizeUsd;
    orders.push({
      coin,
      distance_from_mid_pct: distance,
      price,
      side,
      size_coins: sizeUsd / price,
      size_usd: sizeUsd,
      timestamp: ctx.iso(index),
    });
  }
  return {
    coin,
    threshold_usd: threshold,
    timestamp: ctx.iso(index),
    total_whale_ask_usd: ask,
    total_whale_bid_usd: bid,
    whale_imbalance: bid + ask > 0 ? (bid - ask) / (bid + ask) : 0,
    whale_orders: orders,
  };
}

/** GET /v1/signals/whale-flow: one coin's object when `coin` is given, else `whale_flow[]`. */
export function whaleFlow(ctx: ReplayContext, variant: string, coins: readonly Coin[], single: boolean): unknown {
  const entries = coins.map((c) => whaleEntry(ctx, c));
  if (variant === "documented") {
    return {
      whale_flow: entries.map((e) => {
        const orders = e["whale_orders"] as { side: string; size_usd: number }[];
        const buys = orders.filter((o) => o.side === "bid").length;
        return {
          coin: e["coin"],
          net_flow: e["whale_imbalance"],
          large_buy_count: buys,
          large_sell_count: orders.length - buys,
          intensity: orders.reduce((a, o) => a + o.size_usd, 0) / (e["threshold_usd"] as number) / 10,
        };
      }),
    };
  }
  if (single && entries.length === 1) return entries[0];
  return { timestamp: ctx.iso(ctx.index), whale_flow: entries };
}
