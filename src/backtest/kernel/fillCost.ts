/**
 * The cost of a fill, as one-expression rules: feeOf and costRate (runKernel.ts) call them, and the
 * span loop writes their text in place of feeOf where a fill's cost has no spread and no impact
 * part (inlineExpression: a one-coin run without those columns). Written once, here.
 */

/**
 * Cost rate of a fill: (fee + slippage) / 1e4 (`baseRate`) plus half the last known quoted spread
 * (`spreadBps`, bps). @internal
 */
export function costRateOf(baseRate: number, spreadBps: number): number {
  return baseRate + spreadBps / 2e4;
}

/** The fee of a fill trading `traded` notional at cost rate `rate`, with market impact `impact` (0 without): rate x traded + impact. @internal */
export function fillFee(rate: number, traded: number, impact: number): number {
  return rate * traded + impact;
}

/** The turnover of a fill trading `traded` notional with account value E: traded / E, 0 when E <= 0 (or NaN). @internal */
export function fillTurnover(traded: number, E: number): number {
  return E > 0 ? traded / E : 0;
}
