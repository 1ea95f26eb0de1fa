import { distance } from "fastest-levenshtein";

/**
 * The valid name nearest to a mistyped one by edit distance (Levenshtein, case-insensitive:
 * `stoploss` -> `stopLoss`), or undefined when none is near enough to be what was meant
 * (more than 2 edits and more than a third of the longer name).
 * @example nearestName("stoploss", ["stopLoss", "takeProfit"]) // "stopLoss"
 * @example nearestName("fees", ["feeBps", "fill"]) // "feeBps"
 * @internal
 */
export function nearestName(name: string, valid: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of valid) {
    const d = distance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  if (best === undefined) return undefined;
  return bestDistance <= Math.max(2, Math.floor(Math.max(name.length, best.length) / 3)) ? best : undefined;
}
