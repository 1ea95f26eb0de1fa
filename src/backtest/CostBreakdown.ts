import type { Trade } from "./Trade.js";

/**
 * What trading cost, in cash (quote currency; positive = paid, negative funding = received),
 * per trade (`trade.costs`) and for the run (`result.costs`, the sum over trades, open ones
 * included):
 * - `fees`: exchange fees, `feeBps` of traded notional, plus any liquidation fee;
 * - `slippage`: `slippageBps` of traded notional;
 * - `spread`: half the quoted spread (`spreadBps / 2`) of traded notional;
 * - `impact`: the square-root market impact (see `impact`);
 * - `funding`: funding paid while the position was held.
 * A trade's `fees` field is fees + slippage + spread + impact (what it paid to trade), its
 * `funding` field the funding here.
 */
export interface CostBreakdown {
  readonly fees: number;
  readonly slippage: number;
  readonly spread: number;
  readonly impact: number;
  readonly funding: number;
}

/**
 * Total costs of a list of trades: each field summed over `trade.costs` (a trade without
 * `costs` counts its `fees` as fees and its `funding` as funding).
 * @example costBreakdown([{ costs: { fees: 1, slippage: 0.5, spread: 0, impact: 0, funding: 2 } }, ...]).fees
 */
export function costBreakdown(trades: readonly Pick<Trade, "fees" | "funding" | "costs">[]): CostBreakdown {
  let fees = 0;
  let slippage = 0;
  let spread = 0;
  let impact = 0;
  let funding = 0;
  for (const t of trades) {
    const c = t.costs;
    if (c === undefined) {
      fees += t.fees;
      funding += t.funding;
      continue;
    }
    fees += c.fees;
    slippage += c.slippage;
    spread += c.spread;
    impact += c.impact;
    funding += c.funding;
  }
  return { fees, slippage, spread, impact, funding };
}
