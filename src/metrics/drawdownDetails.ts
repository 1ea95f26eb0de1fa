import { checkReturns } from "./ReturnsOptions.js";

/** Where the maximum drawdown sits and how long the wealth curve stayed under water. */
export interface DrawdownDetails {
  /** Maximum drawdown, negative decimal (see `maxDrawdown`). NaN on empty input. */
  readonly maxDrawdown: number;
  /**
   * Index of the return that set the peak before the maximum drawdown, or -1
   * when the peak is the starting wealth (before the first return).
   */
  readonly peakIndex: number;
  /** Index of the return at the trough of the maximum drawdown (-1 when there is none). */
  readonly troughIndex: number;
  /** Index of the first return that regains the peak after the trough, or -1 if never recovered. */
  readonly recoveryIndex: number;
  /**
   * Longest time under water, in periods: the most consecutive returns that
   * leave wealth below its running peak (whichever drawdown that is; an
   * unrecovered drawdown counts up to the last return). 0 when never under water.
   */
  readonly maxDuration: number;
  /** Periods under water in the maximum drawdown: from after its peak until its recovery (or the last return when unrecovered). */
  readonly maxDrawdownDuration: number;
}

/**
 * Maximum drawdown with its location and durations, and the longest time
 * under water. Same wealth curve as `maxDrawdown` (starts at 1, NaN returns
 * count as 0). Durations are in periods (bars); multiply by the bar length
 * for time.
 * @example drawdownDetails([0.1, -0.1, 0.05, 0.1]).maxDuration // 2
 */
export function drawdownDetails(returns: ArrayLike<number>): DrawdownDetails {
  checkReturns(returns, "drawdownDetails");
  const n = returns.length;
  if (n === 0) {
    return { maxDrawdown: Number.NaN, peakIndex: -1, troughIndex: -1, recoveryIndex: -1, maxDuration: 0, maxDrawdownDuration: 0 };
  }
  let wealth = 1;
  let peak = 1;
  let peakAt = -1;
  let mdd = 0;
  let mddPeakAt = -1;
  let troughAt = -1;
  let underwater = 0;
  let maxUnderwater = 0;
  for (let i = 0; i < n; i++) {
    const r = returns[i] as number;
    if (!Number.isNaN(r)) wealth *= 1 + r;
    if (wealth >= peak) {
      peak = wealth;
      peakAt = i;
      underwater = 0;
    } else {
      underwater++;
      if (underwater > maxUnderwater) maxUnderwater = underwater;
      const dd = (wealth - peak) / peak;
      if (dd < mdd) {
        mdd = dd;
        mddPeakAt = peakAt;
        troughAt = i;
      }
    }
  }
  let recoveryAt = -1;
  if (troughAt >= 0) {
    // Walk again from the trough to find the first return that regains the peak.
    let w = 1;
    for (let i = 0; i <= troughAt; i++) {
      const r = returns[i] as number;
      if (!Number.isNaN(r)) w *= 1 + r;
    }
    let peakWealth = 1;
    for (let i = 0; i <= mddPeakAt; i++) {
      const r = returns[i] as number;
      if (!Number.isNaN(r)) peakWealth *= 1 + r;
    }
    for (let i = troughAt + 1; i < n; i++) {
      const r = returns[i] as number;
      if (!Number.isNaN(r)) w *= 1 + r;
      if (w >= peakWealth) {
        recoveryAt = i;
        break;
      }
    }
  }
  const mddDuration = troughAt < 0 ? 0 : (recoveryAt >= 0 ? recoveryAt : n) - mddPeakAt - 1;
  return {
    maxDrawdown: mdd === 0 ? 0 : mdd,
    peakIndex: troughAt < 0 ? -1 : mddPeakAt,
    troughIndex: troughAt,
    recoveryIndex: recoveryAt,
    maxDuration: maxUnderwater,
    maxDrawdownDuration: mddDuration,
  };
}
