/**
 * The one rule that turns a library message into CLI terms. Library errors name
 * the function and its options (`createClient: pass baseUrl (e.g.
 * createClient({ baseUrl: "http://..." }))`, `weights: ... (pass allowAnySum:
 * true to opt out)`); a `milab` user has flags. A library option's flag is its
 * name in kebab case (`baseUrl` -> `--base-url`, `feeBps` -> `--fee-bps`), or
 * the few renamed below, and only when the command has that flag.
 */

/** Library options whose flag is not their kebab-case name. */
const RENAMED: Readonly<Record<string, string>> = {
  initialCash: "cash",
  barMinutes: "bar",
  everyMs: "every",
  metricId: "metrics",
};

/**
 * The flag that sets a library option in a command with these flags, e.g.
 * `flagFor("baseUrl", ["--base-url"])` is `"--base-url"`; undefined when the
 * command has none (the option is then the library's business, not the user's).
 */
export function flagFor(option: string, flags: readonly string[]): string | undefined {
  const flag = `--${RENAMED[option] ?? option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  return flags.includes(flag) ? flag : undefined;
}

/**
 * A library error message in CLI terms, for a command with these flags:
 * - the leading `function: ` is dropped (the CLI prefixes `milab: `);
 * - a code example `fn({ option: "value" })` becomes `--option value`;
 * - a remedy only code can apply (`(pass option: value ...)` for an option
 *   without a flag) is dropped;
 * - every other mention of an option that has a flag becomes the flag: the
 *   message's subject when the message states a rule about it (`weights must
 *   sum to 1`; not `every request failed`) and camel-case names anywhere
 *   (`check baseUrl / MI_BASE_URL`).
 * @example
 * inCliTerms('weights: weights must sum to 1, got 1.1 (pass allowAnySum: true to opt out)', ["--weights"])
 * // "--weights must sum to 1, got 1.1"
 */
export function inCliTerms(message: string, flags: readonly string[]): string {
  let m = message.replace(/^[A-Za-z][\w.]*: (?=\S)/, "");
  m = m.replace(/\b[A-Za-z]\w*\(\{\s*(\w+):\s*"?([^"}]*?)"?\s*\}\)/g, (all, option: string, value: string) => {
    const flag = flagFor(option, flags);
    return flag === undefined ? all : `${flag} ${value}`;
  });
  m = m.replace(/\s*\(pass (\w+):[^)]*\)/g, (all, option: string) => (flagFor(option, flags) === undefined ? "" : all));
  // The subject of a rule about the option ("weights must sum to 1"), not any first word that happens
  // to be a flag's name ("every request failed" is not about --every).
  m = m.replace(/^(\w+)(?= (?:must|should|is|are|needs?|cannot|has|have)\b)/, (word) => flagFor(word, flags) ?? word);
  m = m.replace(/(?<![-\w])([a-z]+[A-Z]\w*)\b/g, (word) => flagFor(word, flags) ?? word);
  return m;
}
