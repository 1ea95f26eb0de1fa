/**
 * The endpoints whose fields the spec does not show. Their shapes are this
 * replay server's design (documented in the README), built from the simulator
 * so they agree with the detailed endpoints.
 */
import { COINS, type Coin } from "../../domain/coins.js";
import { metricSeries } from "../../sim/catalog.js";
import { simulateComposites } from "../../sim/composites.js";
import { createRng, mixSeed } from "../../random/prng.js";
import { CASCADE_THRESHOLDS, LIQUIDATION_LEVELS, liquidationAlerts } from "../../signals/liquidationAlerts.js";
import type { ReplayContext } from "../ReplayContext.js";
import { finite } from "./snapshot.js";

const pct = (a: number, b: number): number => 100 * (a / b - 1);

/** GET /v1/signals/liquidations: cascade levels from 1- and 5-minute moves, with estimated liquidated notional. */
export function liquidations(ctx: ReplayContext, coins: readonly Coin[]): unknown {
  const { market, index } = ctx;
  const alerts = coins.map((coin) => {
    const p = market.coins[coin];
    const from = Math.max(0, index - 5);
    const level = liquidationAlerts(p.close.subarray(from, index + 1));
    const code = level[level.length - 1] ?? 0;
    const m1 = index >= 1 ? pct(p.close[index] as number, p.close[index - 1] as number) : 0;
    const m5 = index >= 5 ? pct(p.close[index] as number, p.close[index - 5] as number) : 0;
    return {
      coin,
      level: LIQUIDATION_LEVELS[code],
      move_1m_pct: m1,
      move_5m_pct: m5,
      direction: m5 >= 0 ? "shorts_liquidated" : "longs_liquidated",
      estimated_liquidations_usd: code === 0 ? 0 : (p.openInterestUsd[index] as number) * 0.002 * code * Math.abs(m5),
    };
  });
  return {
    timestamp: ctx.iso(index),
    thresholds: CASCADE_THRESHOLDS,
    cascade_detected: alerts.some((a) => a.level !== "none"),
    alerts,
  };
}

/** GET /v3/signals/safety: cross-signal coherence (do the coins' composites agree?) and a 0..100 score. */
export function safety(ctx: ReplayContext): unknown {
  const { market, index } = ctx;
  const comps = COINS.map((coin) => simulateComposites(market, coin));
  const signs = comps.map((c) => Math.sign(c.composite[index] as number));
  const agreement = Math.abs(signs.reduce((a, b) => a + b, 0)) / COINS.length;
  const extreme = comps.filter((c) => c.volRegime(index) === "extreme").length;
  const gas = market.baseFeeGwei[index] as number;
  const checks = [
    { name: "signal_coherence", status: agreement >= 0.5 ? "pass" : "warn", detail: `composite signs agree across ${Math.round(agreement * 100)}% of coins` },
    { name: "volatility", status: extreme === 0 ? "pass" : extreme < 2 ? "warn" : "fail", detail: `${extreme} coin(s) in extreme volatility` },
    { name: "gas", status: gas < 5 ? "pass" : "warn", detail: `base fee ${gas.toFixed(2)} gwei` },
  ];
  const score = 100 * (0.5 * agreement + 0.3 * (1 - extreme / COINS.length) + 0.2 * (gas < 5 ? 1 : 0));
  return { timestamp: ctx.iso(index), safety_score: score, coherence: agreement, safe_to_trade: score >= 50, checks };
}

/** GET /v1/signals/spreads: spot-perp spreads and funding on two venues. */
export function spreads(ctx: ReplayContext, coins: readonly Coin[]): unknown {
  const { market, index } = ctx;
  return {
    timestamp: ctx.iso(index),
    spreads: coins.map((coin) => {
      const p = market.coins[coin];
      const basis = p.basisBps[index] as number;
      return {
        coin,
        venue_a: "hyperliquid",
        venue_b: "binance",
        spot_price: p.close[index],
        perp_price: p.perp[index],
        spread_bps: basis,
        cross_venue_spread_bps: basis * 0.35,
        funding_rate_a: p.funding[index],
        funding_rate_b: (p.funding[index] as number) * 0.8,
      };
    }),
  };
}

/** GET /v1/signals/correlation: Pearson correlation of the last 24 h of one-minute log returns. */
export function correlation(ctx: ReplayContext): unknown {
  const { market, index } = ctx;
  const from = Math.max(1, index - 1439);
  const rets = COINS.map((c) => {
    const p = market.coins[c].close;
    const r: number[] = [];
    for (let i = from; i <= index; i++) r.push(Math.log((p[i] as number) / (p[i - 1] as number)));
    return r;
  });
  const corr = (a: number[], b: number[]): number => {
    const n = a.length;
    if (n < 2) return Number.NaN;
    const ma = a.reduce((x, y) => x + y, 0) / n;
    const mb = b.reduce((x, y) => x + y, 0) / n;
    let sab = 0;
    let saa = 0;
    let sbb = 0;
    for (let i = 0; i < n; i++) {
      const da = (a[i] as number) - ma;
      const db = (b[i] as number) - mb;
      sab += da * db;
      saa += da * da;
      sbb += db * db;
    }
    return sab / Math.sqrt(saa * sbb);
  };
  return {
    timestamp: ctx.iso(index),
    window: "24h",
    interval: "1m",
    coins: [...COINS],
    matrix: rets.map((a) => rets.map((b) => finite(corr(a, b)))),
  };
}

/** GET /v1/signals/depth: resting USD depth within 10/25/50/100 bps of mid, split by the bid share. */
export function depth(ctx: ReplayContext, coins: readonly Coin[]): unknown {
  const { market, index } = ctx;
  return {
    timestamp: ctx.iso(index),
    depth: coins.map((coin) => {
      const p = market.coins[coin];
      const share = p.imbalance[index] as number;
      const base = (p.openInterestUsd[index] as number) / 2000;
      return {
        coin,
        mid_price: p.close[index],
        bands: [10, 25, 50, 100].map((bps) => {
          const total = base * Math.sqrt(bps / 10);
          return { band_bps: bps, bid_usd: total * share, ask_usd: total * (1 - share) };
        }),
      };
    }),
  };
}

/** GET /v1/signals/imbalance: bid share of depth near mid and the signed imbalance 2*(share-0.5). */
export function imbalance(ctx: ReplayContext, coins: readonly Coin[]): unknown {
  const { market, index } = ctx;
  return {
    timestamp: ctx.iso(index),
    imbalance: coins.map((coin) => {
      const share = market.coins[coin].imbalance[index] as number;
      return { coin, bid_share: share, imbalance: 2 * (share - 0.5), depth_band_bps: 25 };
    }),
  };
}

/** GET /v1/signals/priority-gas: base fee, priority-fee tiers and congestion. */
export function priorityGas(ctx: ReplayContext): unknown {
  const { market, index } = ctx;
  const base = market.baseFeeGwei[index] as number;
  const util = metricSeries(market, "eth_block_utilization_pct")[index] as number;
  return {
    timestamp: ctx.iso(index),
    chain: "ethereum",
    base_fee_gwei: base,
    priority_fee_gwei: { slow: 0.005 + 0.04 * base, standard: 0.01 + 0.08 * base, fast: 0.05 + 0.2 * base },
    block_utilization_pct: util,
    congestion: base < 1.1 ? "low" : base < 5 ? "normal" : "high",
  };
}

/** GET /v3/signals/squeeze: squeeze probability from funding, basis and the last hour's move. */
export function squeeze(ctx: ReplayContext, coins: readonly Coin[]): unknown {
  const { market, index } = ctx;
  return {
    timestamp: ctx.iso(index),
    squeeze: coins.map((coin) => {
      const p = market.coins[coin];
      const f = p.funding[index] as number;
      const oiChange = index >= 60 ? pct(p.openInterestUsd[index] as number, p.openInterestUsd[index - 60] as number) : 0;
      const crowd = Math.tanh(Math.abs(f) / 0.00005) * 0.6 + Math.min(0.4, Math.abs(oiChange) / 10);
      return {
        coin,
        probability: Math.min(1, crowd),
        direction: f < 0 ? "short_squeeze" : "long_squeeze",
        funding_rate: f,
        oi_change_1h_pct: oiChange,
      };
    }),
  };
}

/** GET /v3/signals/arbitrage: basis trades and their annualised carry. */
export function arbitrage(ctx: ReplayContext, coins: readonly Coin[]): unknown {
  const { market, index } = ctx;
  return {
    timestamp: ctx.iso(index),
    opportunities: coins.map((coin) => {
      const p = market.coins[coin];
      const f = p.funding[index] as number;
      return {
        coin,
        type: "cash_and_carry",
        long_leg: f >= 0 ? "spot" : "perp",
        short_leg: f >= 0 ? "perp" : "spot",
        spread_bps: p.basisBps[index],
        funding_rate: f,
        annualized_yield_pct: Math.abs(f) * 24 * 365 * 100,
      };
    }),
  };
}

/** GET /v3/signals/smart-money: large wallets' recent positioning (deterministic per minute). */
export function smartMoney(ctx: ReplayContext, coins: readonly Coin[]): unknown {
  const { market, index } = ctx;
  const rng = createRng(mixSeed(ctx.seed, Math.floor(index / 60), 11));
  const wallets = [];
  for (let k = 0; k < 8; k++) {
    const coin = coins[Math.floor(rng.uniform() * coins.length)] as Coin;
    const bias = (market.coins[coin].imbalance[index] as number) - 0.5;
    wallets.push({
      address: `0x${Math.floor(rng.uniform() * 2 ** 48).toString(16).padStart(12, "0")}`,
      coin,
      side: rng.uniform() < 0.5 + bias ? "long" : "short",
      size_usd: 2e5 + rng.uniform() * 5e6,
      pnl_30d_usd: (rng.uniform() - 0.3) * 2e6,
    });
  }
  const longs = wallets.filter((w) => w.side === "long").length;
  return { timestamp: ctx.iso(index), net_bias: (2 * longs) / wallets.length - 1, wallets };
}
