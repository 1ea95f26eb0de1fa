import { medianSpacing } from "../data/medianSpacing.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** A forward horizon: a number of bars, or a duration such as "5m", "1h", "4h", "24h", "1d" (needs bar times). */
export type Horizon = number | string;

const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Convert horizons to whole bars: numbers are bars (positive integers);
 * duration strings are divided by the median bar spacing of `time` and
 * must come out whole. Returns `[label, bars]` pairs; labels are the
 * duration strings as given, or `"<n> bars"`. @internal
 */
export function horizonBars(horizons: readonly Horizon[], time: ArrayLike<number> | undefined, where: string): [string, number][] {
  if (!Array.isArray(horizons) || horizons.length === 0) {
    throw new InvalidArgumentError("horizons", `${where}: horizons must be a non-empty array of bar counts or durations like "1h", got ${String(horizons)}`);
  }
  let spacing = Number.NaN;
  return horizons.map((h): [string, number] => {
    if (typeof h === "number") {
      if (!Number.isInteger(h) || h < 1) {
        throw new InvalidArgumentError("horizons", `${where}: a horizon in bars must be a positive integer, got ${h}`);
      }
      return [h === 1 ? "1 bar" : `${h} bars`, h];
    }
    const m = typeof h === "string" ? /^(\d+(?:\.\d+)?)\s*([smhd])$/.exec(h.trim()) : null;
    if (!m) {
      throw new InvalidArgumentError("horizons", `${where}: a horizon must be a number of bars or a duration like "5m", "1h", "4h", "24h", "1d", got ${JSON.stringify(h)}`);
    }
    if (time === undefined || time.length < 2) {
      throw new InvalidArgumentError("time", `${where}: the duration horizon ${JSON.stringify(h)} needs bar times (options.time, at least 2); or give the horizon in bars`);
    }
    if (Number.isNaN(spacing)) spacing = medianSpacing(time);
    if (!(spacing > 0)) {
      throw new InvalidArgumentError("time", `${where}: bar times must be ascending with a positive spacing, got a median spacing of ${spacing} ms`);
    }
    const ms = Number(m[1]) * (UNIT_MS[m[2] as string] as number);
    const bars = ms / spacing;
    if (!Number.isInteger(bars) || bars < 1) {
      throw new InvalidArgumentError(
        "horizons",
        `${where}: horizon ${JSON.stringify(h)} is not a whole number of ${spacing / 60_000}-minute bars (${bars}); pick a multiple of the bar length`,
      );
    }
    return [h, bars];
  });
}
