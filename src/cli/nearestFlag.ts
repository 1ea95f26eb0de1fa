import { distance } from "fastest-levenshtein";

/**
 * The real flag nearest to a mistyped one, by edit distance (fastest-levenshtein,
 * case-insensitive), or undefined when none is close. A flag is compared whole
 * and by each of its leading word groups (`--fee-bps` also as `--fee`), so a
 * plural or a missing unit finds the flag it names: `--fees` is 1 edit from
 * `--fee` and 2 from `--seed`, so it gets `--fee-bps`. Close means at most
 * max(1, a third of the typed name's length) edits; ties go to the flag whose
 * whole name is nearer.
 * @example
 * nearestFlag("--fees", ["--seed", "--fee-bps", "--coins"]) // "--fee-bps"
 */
export function nearestFlag(typed: string, flags: readonly string[]): string | undefined {
  const word = typed.replace(/^-+/, "").split("=")[0]!.toLowerCase();
  if (word === "") return undefined;
  let best: { flag: string; d: number; whole: number } | undefined;
  for (const flag of flags) {
    const name = flag.replace(/^-+/, "").toLowerCase();
    const parts = name.split("-");
    const stems = parts.map((_, i) => parts.slice(0, i + 1).join("-"));
    const d = Math.min(...stems.map((s) => distance(word, s)));
    const whole = distance(word, name);
    if (best === undefined || d < best.d || (d === best.d && whole < best.whole)) best = { flag, d, whole };
  }
  return best !== undefined && best.d <= Math.max(1, Math.floor(word.length / 3)) ? best.flag : undefined;
}
