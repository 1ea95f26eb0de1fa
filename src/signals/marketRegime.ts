import type { VolRegime } from "./volRegime.js";

/** The documented market regime of the regime endpoint. */
export type MarketRegime = "risk_on" | "risk_off" | "neutral";

/** Inputs of one coin at one time. */
export interface CoinState {
  readonly composite: number;
  readonly volRegime: VolRegime | undefined;
  /** Hourly funding rate, decimal. */
  readonly funding: number;
}

/**
 * This library's market-regime rule (the service documents the labels, not the rule):
 * breadth b = mean over coins of the composite; `risk_off` when b <= -0.05 or at least
 * half the coins are in `extreme` volatility, `risk_on` when b >= 0.05 and mean funding is
 * below 0.0001 an hour (longs not crowded), else `neutral`. Confidence = min(1, |b| / 0.2).
 * @example marketRegime([{ composite: 0.2, volRegime: "normal", funding: 0.00001 }]) // { regime: "risk_on", confidence: 1 }
 */
export function marketRegime(coins: readonly CoinState[]): { regime: MarketRegime; confidence: number } {
  const valid = coins.filter((c) => !Number.isNaN(c.composite));
  if (valid.length === 0) return { regime: "neutral", confidence: 0 };
  const breadth = valid.reduce((a, c) => a + c.composite, 0) / valid.length;
  const extreme = coins.filter((c) => c.volRegime === "extreme").length;
  const funding = valid.reduce((a, c) => a + (Number.isNaN(c.funding) ? 0 : c.funding), 0) / valid.length;
  const confidence = Math.min(1, Math.abs(breadth) / 0.2);
  if (breadth <= -0.05 || extreme * 2 >= coins.length) return { regime: "risk_off", confidence: Math.max(confidence, extreme / coins.length) };
  if (breadth >= 0.05 && funding < 0.0001) return { regime: "risk_on", confidence };
  return { regime: "neutral", confidence: 1 - confidence };
}
