import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { checkReturns } from "./ReturnsOptions.js";

/** Check `time` against the returns (same length, finite numbers, ascending). @internal */
export function checkTimes(returns: ArrayLike<number>, time: ArrayLike<number> | undefined, where: string): ArrayLike<number> {
  checkReturns(returns, where);
  if (time === undefined || time === null || typeof time !== "object" || typeof time.length !== "number") {
    throw new InvalidArgumentError("time", `${where}: options.time must be the bar times (epoch ms UTC), one per return, got ${String(time)}`);
  }
  if (time.length !== returns.length) {
    throw new InvalidArgumentError("time", `${where}: time must have one value per return (${returns.length}), got ${time.length}`);
  }
  for (let i = 0; i < time.length; i++) {
    const t = time[i] as number;
    if (!Number.isFinite(t) || (i > 0 && t < (time[i - 1] as number))) {
      throw new InvalidArgumentError("time", `${where}: time must be finite epoch ms in ascending order, got ${String(t)} at index ${i}; sort the bars by time`);
    }
  }
  return time;
}
