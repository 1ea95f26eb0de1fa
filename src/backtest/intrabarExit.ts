/** No exit on this bar. */
export const EXIT_NONE = 0;
/** The stop-loss level was reached. */
export const EXIT_STOP = 1;
/** The take-profit level was reached. */
export const EXIT_TAKE_PROFIT = 2;
/** The liquidation price was reached. */
export const EXIT_LIQUIDATION = 3;
/** Added to the reason when the bar opened beyond the level: the exit fills at the open (the gap), not at the level. */
export const EXIT_AT_OPEN = 4;

/**
 * The price level of a stop-loss or take-profit, from the entry fill price:
 * stop `entry x (1 - side x fraction)`, take-profit `entry x (1 + side x fraction)`
 * (side +1 long, -1 short: a long's stop is below its entry, a short's above).
 * NaN when the fraction is NaN (the rule is off).
 * @param side +1 long, -1 short
 * @param entryPrice the trade's entry fill price (> 0)
 * @param fraction stopLoss or takeProfit, a decimal fraction of the entry price (> 0), or NaN
 * @param kind "stop" or "take_profit"
 * @example exitLevel(1, 100, 0.05, "stop") // 95; exitLevel(-1, 100, 0.05, "stop") // 105
 */
export function exitLevel(side: number, entryPrice: number, fraction: number, kind: "stop" | "take_profit"): number {
  return kind === "stop" ? entryPrice * (1 - side * fraction) : entryPrice * (1 + side * fraction);
}

/**
 * Does a position exit inside this bar, and why? The rule for a long (a short mirrors it,
 * adverse meaning up), with levels NaN when their rule is off:
 * 1. `openCounts` and the bar opens at or beyond an adverse level (open <= liquidation price,
 *    or open <= stop) or the take-profit (open >= take): exit at the open, the gap
 *    (`EXIT_AT_OPEN` + reason; liquidation before stop when the open is beyond both);
 * 2. otherwise, if the range reaches an adverse level (low <= stop or low <= liquidation
 *    price): the one the price meets first falling from the open, the higher of the two
 *    (ties: liquidation), exits at its level;
 * 3. otherwise, if the range reaches the take-profit (high >= take): exit at take.
 * A bar whose range reaches both the stop and the take-profit counts as the stop (the
 * order inside a bar is unknown: the conservative reading). `openCounts` is false on the
 * bar whose open was the entry fill (fill "next_open"): its range still counts.
 * A NaN open, high or low on the bar means no information: that test is skipped.
 * Returns EXIT_NONE, or EXIT_STOP / EXIT_TAKE_PROFIT / EXIT_LIQUIDATION, plus EXIT_AT_OPEN for a gap;
 * the exit price is then `open` (gap) or the level clamped into [low, high] (the kernel's exitsInBar):
 * a NaN open carries no gap information, so a range wholly beyond the level (high 90, low 85 for a
 * long's stop at 95) fills at its nearest edge (90), and every fill lies within its bar's range.
 * @param side +1 long, -1 short
 * @param stop stop-loss price (NaN: off)
 * @param take take-profit price (NaN: off)
 * @param liquidation liquidation price (NaN or <= 0: off)
 * @example intrabarExit(1, 95, 110, NaN, 100, 111, 94, true) // EXIT_STOP (both touched: the stop)
 * @example intrabarExit(1, 95, 110, NaN, 90, 92, 88, true)   // EXIT_STOP + EXIT_AT_OPEN (gap: fills at 90)
 */
export function intrabarExit(side: number, stop: number, take: number, liquidation: number, open: number, high: number, low: number, openCounts: boolean): number {
  if (side > 0) {
    if (openCounts) {
      if (open <= liquidation) return EXIT_LIQUIDATION + EXIT_AT_OPEN;
      if (open <= stop) return EXIT_STOP + EXIT_AT_OPEN;
      if (open >= take) return EXIT_TAKE_PROFIT + EXIT_AT_OPEN;
    }
    const hitStop = low <= stop;
    const hitLiq = low <= liquidation;
    if (hitLiq && !(hitStop && stop > liquidation)) return EXIT_LIQUIDATION;
    if (hitStop) return EXIT_STOP;
    if (high >= take) return EXIT_TAKE_PROFIT;
    return EXIT_NONE;
  }
  if (side < 0) {
    if (openCounts) {
      if (open >= liquidation) return EXIT_LIQUIDATION + EXIT_AT_OPEN;
      if (open >= stop) return EXIT_STOP + EXIT_AT_OPEN;
      if (open <= take) return EXIT_TAKE_PROFIT + EXIT_AT_OPEN;
    }
    const hitStop = high >= stop;
    const hitLiq = high >= liquidation;
    if (hitLiq && !(hitStop && stop < liquidation)) return EXIT_LIQUIDATION;
    if (hitStop) return EXIT_STOP;
    if (low <= take) return EXIT_TAKE_PROFIT;
  }
  return EXIT_NONE;
}
