import type { TargetDelay } from "./TargetDelay.js";
import { carryOnMissingPrice, targetsInto, type TargetRule, type TargetStream } from "./targetPositions.js";

/**
 * The targets the kernel fills over bars lo..hi-1, into `buf[i - lo]`: the target rule
 * (targetsInto), then the latency (`delay`, when there is one), then the carry over bars
 * without a close (carryOnMissingPrice), in that order. The one composition of the block
 * pipeline: backtest's pass (runPass) and the paper trader's decision at each closed bar
 * both call it, so a paper target is the backtest's target by construction.
 * `stream` and `delay` carry their state from the previous block (fresh ones: start at bar 0).
 * @internal
 */
export function blockTargetsInto(rule: TargetRule, stream: TargetStream, delay: TargetDelay | undefined, close: ArrayLike<number>, lo: number, hi: number, buf: Float64Array): void {
  targetsInto(rule, stream, lo, hi, buf, lo);
  delay?.delayInto(buf, 0, hi - lo);
  carryOnMissingPrice(buf, close, lo, hi, lo, stream);
}
