import type { Command } from "commander";
import { nearestName } from "../options/nearestName.js";

/**
 * Make every command suggest, for an unknown flag, the nearest real flag by edit distance
 * (nearestName, the same rule as the library's options: `--fees` -> `--fee-bps`, where
 * commander's own suggestion said `--seed`), among the command's long flags and its parents'.
 * Done through commander's public output hook: its "unknown option" message is kept (and its
 * code, so usage errors still exit 2), its "(Did you mean ...?)" line replaced.
 */
export function suggestFlags(commands: readonly Command[]): void {
  for (const cmd of commands) {
    cmd.configureOutput({ outputError: (text, write) => write(withSuggestion(text, cmd)) });
  }
}

/** Commander's error text with the unknown flag's suggestion by nearestName (none when no flag is near). */
export function withSuggestion(text: string, cmd: Command): string {
  const m = /^error: unknown option '(--[^']+)'/.exec(text);
  if (m === null) return text;
  const candidates: string[] = [];
  for (let c: Command | null = cmd; c !== null; c = c.parent) {
    for (const o of c.createHelp().visibleOptions(c)) if (o.long !== undefined) candidates.push(o.long);
  }
  const near = nearestName((m[1] as string).split("=")[0] as string, candidates); // --fees=5: the value is not part of the name
  const rest = text.replace(/\n?\(Did you mean [^)]*\)/, "").slice(m[0].length);
  return `${m[0]}${near !== undefined ? `\n(Did you mean ${near}?)` : ""}${rest}`;
}
