import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { medianSpacing } from "../data/medianSpacing.js";

/**
 * Bars in a window given in time: `round(windowMs / median(diff(time)))`, at
 * least 2 (e.g. 30 days of 4-hour bars = 180 bars). The median spacing makes
 * a few missing bars harmless. @internal
 * @throws InvalidArgumentError when windowMs is not positive, time has fewer than 2 bars or no positive spacing, or the window holds fewer than 2 bars
 */
export function windowBars(time: ArrayLike<number>, windowMs: number, where: string): number {
  checkWindowMs(windowMs, where);
  const spacing = time !== undefined && time !== null && time.length >= 2 ? medianSpacing(time) : Number.NaN;
  if (!(spacing > 0)) {
    throw new InvalidArgumentError("time", `${where}: a window in time needs at least 2 ascending bar times (options.time), got a median spacing of ${spacing} ms`);
  }
  const bars = Math.round(windowMs / spacing);
  if (bars < 2) {
    throw new InvalidArgumentError("windowMs", `${where}: windowMs ${windowMs} holds ${windowMs / spacing} bars of ${spacing} ms; pick a window of at least 2 bars`);
  }
  return bars;
}

/** Check a window length in ms: positive and finite. @internal */
export function checkWindowMs(windowMs: number, where: string): void {
  if (typeof windowMs !== "number" || !(windowMs > 0) || !Number.isFinite(windowMs)) {
    throw new InvalidArgumentError("windowMs", `${where}: windowMs must be a positive duration in ms (30 days = 2 592 000 000), got ${String(windowMs)}`);
  }
}
