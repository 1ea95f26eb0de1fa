import type { Coin } from "../../domain/coins.js";
import { atr } from "../../signals/atr.js";
import { MINUTES_PER_YEAR, realizedVol, VOL_WINDOWS } from "../../signals/realizedVol.js";
import { classifyVolRegime } from "../../signals/volRegime.js";
import type { SimMarket } from "../../sim/market.js";
import type { ReplayContext } from "../ReplayContext.js";
import { finite } from "./snapshot.js";

const TIMEFRAME_MINUTES = { "5m": 5, "1h": 60, "4h": 240, "24h": 1440 } as const;
type Timeframe = keyof typeof TIMEFRAME_MINUTES;
const ATR_PERIOD = 14;
const ATR_BARS = 50;

/** Realized vol (annualised %) of each window at minute `index`, from the last window+1 closes. */
export function realizedVolAt(market: SimMarket, coin: Coin, index: number, window: number): number {
  const from = index - window;
  if (from < 0) return Number.NaN;
  const slice = market.coins[coin].close.subarray(from, index + 1);
  return realizedVol(slice, { window, periodsPerYear: MINUTES_PER_YEAR })[window] as number;
}

/**
 * Wilder ATR(14) on bars of `k` minutes ending at minute `index` (bar j covers the
 * k minutes ending k*j minutes before it), over the last 50 bars or as many as exist.
 */
export function atrAt(market: SimMarket, coin: Coin, index: number, k: number): number {
  const path = market.coins[coin];
  const bars = Math.min(ATR_BARS, Math.floor((index + 1) / k));
  if (bars < ATR_PERIOD) return Number.NaN;
  const high = new Float64Array(bars);
  const low = new Float64Array(bars);
  const close = new Float64Array(bars);
  for (let b = 0; b < bars; b++) {
    const end = index - (bars - 1 - b) * k;
    let h = -Infinity;
    let l = Infinity;
    for (let i = end - k + 1; i <= end; i++) {
      h = Math.max(h, path.high[i] as number);
      l = Math.min(l, path.low[i] as number);
    }
    high[b] = h;
    low[b] = l;
    close[b] = path.close[end] as number;
  }
  return atr(high, low, close, { period: ATR_PERIOD })[bars - 1] as number;
}

/** Per-coin volatility entry in the observed shape. */
export function volatilityEntry(ctx: ReplayContext, coin: Coin): Record<string, unknown> {
  const { market, index } = ctx;
  const rv = {} as Record<Timeframe, number | null>;
  const at = {} as Record<Timeframe, number | null>;
  for (const tf of Object.keys(TIMEFRAME_MINUTES) as Timeframe[]) {
    rv[tf] = finite(realizedVolAt(market, coin, index, VOL_WINDOWS[tf]));
    at[tf] = finite(atrAt(market, coin, index, TIMEFRAME_MINUTES[tf]));
  }
  return {
    coin,
    mark_price: market.coins[coin].perp[index],
    realized_vol: rv,
    atr: at,
    regime: classifyVolRegime(rv["24h"] ?? Number.NaN) ?? "normal",
    timestamp: ctx.iso(index),
  };
}

/** GET /v1/signals/volatility. */
export function volatility(ctx: ReplayContext, variant: string, coins: readonly Coin[]): unknown {
  const entries = coins.map((c) => volatilityEntry(ctx, c));
  if (variant === "documented") {
    return {
      volatility: entries.map((e) => {
        const rv = e["realized_vol"] as Record<Timeframe, number | null>;
        const at = e["atr"] as Record<Timeframe, number | null>;
        return {
          coin: e["coin"],
          mark_price: e["mark_price"],
          realized_vol_5m: rv["5m"],
          realized_vol_1h: rv["1h"],
          realized_vol_1d: rv["24h"],
          atr_5m: at["5m"],
          atr_1h: at["1h"],
        };
      }),
    };
  }
  return { timestamp: ctx.iso(ctx.index), volatility: entries };
}
