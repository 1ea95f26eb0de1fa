/**
 * The price at which a position is liquidated: where the account's equity falls to
 * the maintenance margin of the position,
 * `other + q x p = maintenanceMargin x |q| x p`, solved for p:
 * - long (q > 0): `p = -other / (q (1 - maintenanceMargin))`;
 * - short (q < 0): `p = other / (|q| (1 + maintenanceMargin))`,
 * where `other` is the rest of the account (cash plus any other positions at their
 * last prices; negative for a levered long, the borrowed cash). A result <= 0 (an
 * unlevered long: other >= 0) means never; NaN when q = 0.
 * Units: quote currency per coin.
 * Reference: the isolated-margin liquidation price of perpetual-futures exchanges
 * (e.g. Binance's "liquidation price" formula without the tiered maintenance amount).
 * @param units coins held (q, negative = short)
 * @param other cash plus the other positions' value, quote currency
 * @param maintenanceMargin maintenance margin rate, a fraction of notional in [0, 1)
 * @example liquidationPrice(2, -100, 0.05)  // 100 / (2 x 0.95) = 52.63...: a 2-coin long bought at 100 with 100 of own cash
 * @example liquidationPrice(-1, 200, 0.05)  // 200 / 1.05 = 190.47...: 1 coin short at 100 over 100 of cash
 */
export function liquidationPrice(units: number, other: number, maintenanceMargin: number): number {
  if (units > 0) return -other / (units * (1 - maintenanceMargin));
  if (units < 0) return other / (-units * (1 + maintenanceMargin));
  return Number.NaN;
}
