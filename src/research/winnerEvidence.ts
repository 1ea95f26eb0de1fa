import type { SweepEvidence } from "./sweepVerdict.js";

/**
 * The evidence a sweep's winner rests on, for {@link sweepVerdict}'s guards: its round trips
 * (`trades`, from the sweep's table), the bars of its returns that are numbers, the bars on which it
 * held a position (a return that is a number and not 0: a bar flat after fees has none), and its
 * independent bets, bars held / `meanBlock` (the stationary bootstrap's mean block: runs of that many
 * bars move together; 1 when the block is not a number).
 * @example winnerEvidence(sweep.returnsOf(best.index), 12, 2) // { trades: 12, bars, barsHeld, independentBets: barsHeld / 2 }
 * @internal
 */
export function winnerEvidence(returns: ArrayLike<number>, trades: number, meanBlock: number): SweepEvidence {
  let bars = 0;
  let barsHeld = 0;
  for (let t = 0; t < returns.length; t++) {
    const r = returns[t] as number;
    if (!Number.isFinite(r)) continue;
    bars++;
    if (r !== 0) barsHeld++;
  }
  const block = Number.isFinite(meanBlock) && meanBlock >= 1 ? meanBlock : 1;
  return { trades, bars, barsHeld, independentBets: barsHeld / block };
}
