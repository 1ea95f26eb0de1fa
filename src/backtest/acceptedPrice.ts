/**
 * Whether the engine accepts a price: > 0 and at most `max` (execution's MAX_AMOUNT), or NaN (no
 * price on that bar: no fill, the position carried). The one rule of checkPrices and of the check
 * the kernel's generated loop makes as it reads each close (LoopShape.checkClose), where its text is
 * written in place (inlineExpression), so a backtest reads its closes once instead of twice.
 * @example acceptedPrice(101.5, 1e100) // true
 * @example acceptedPrice(Number.NaN, 1e100) // true (a missing bar)
 * @example acceptedPrice(0, 1e100) // false
 * @internal
 */
export function acceptedPrice(x: number, max: number): boolean {
  return (x > 0 && x <= max) || x !== x;
}
