import { distance } from "fastest-levenshtein";

/** A name's words: split at hyphens, underscores and camelCase humps (`fee-bps`, `feeBps` -> fee, bps). */
function words(name: string): string[] {
  return name
    .replace(/^-+/, "")
    .split(/[-_]|(?<=[a-z0-9])(?=[A-Z])/)
    .map((w) => w.toLowerCase())
    .filter((w) => w !== "");
}

/**
 * The valid name nearest to a mistyped one by edit distance (Levenshtein, case-insensitive,
 * leading dashes ignored), or undefined when none is near enough to be what was meant. A
 * candidate's distance is the smaller of the distance to the whole name and to one of its words,
 * so a short form finds its long name (`fees` -> `feeBps` or `--fee-bps`, one edit from "fee",
 * not `--seed`, two edits from the whole); ties go to the nearer whole name. Near enough: at most
 * 2 edits, or a third of the longer name.
 * @example nearestName("stoploss", ["stopLoss", "takeProfit"]) // "stopLoss"
 * @example nearestName("--fees", ["--seed", "--fee-bps"]) // "--fee-bps"
 * @internal
 */
export function nearestName(name: string, valid: Iterable<string>): string | undefined {
  const lower = name.replace(/^-+/, "").toLowerCase();
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  let bestWhole = Number.POSITIVE_INFINITY;
  for (const candidate of valid) {
    const whole = distance(lower, candidate.replace(/^-+/, "").toLowerCase());
    const parts = words(candidate);
    const score = parts.length > 1 ? Math.min(whole, ...parts.map((w) => distance(lower, w))) : whole;
    if (score < bestScore || (score === bestScore && whole < bestWhole)) {
      best = candidate;
      bestScore = score;
      bestWhole = whole;
    }
  }
  if (best === undefined) return undefined;
  return bestScore <= Math.max(2, Math.floor(Math.max(lower.length, best.replace(/^-+/, "").length) / 3)) ? best : undefined;
}
