/**
 * The body of a one-expression function (`function f(a, b) { return <expr>; }`) as source text
 * with its parameters replaced by `args`, for a generated loop: the rule is still written once,
 * as that function (which the record-based code calls), and the generator writes its own
 * expression in place of the call. A call inside a large generated loop is not reliably inlined
 * by V8 (its inlining budget runs out: a call per bar per variant), the text always is.
 * Each argument should be a local name or a literal (a parameter used twice evaluates it twice).
 * The function must read nothing but its parameters (no module constant: the text runs elsewhere).
 * @throws Error when `fn` is not a plain one-expression function of its parameters
 * @example inlineExpression(function twice(x) { return 2 * x; }, ["y"]) // "(2 * (y))"
 * @internal
 */
export function inlineExpression(fn: (...args: never[]) => unknown, args: readonly string[]): string {
  const m = /^function\s*[\w$]*\s*\(([^)]*)\)\s*\{\s*return\s+([^;]*?);?\s*\}$/.exec(fn.toString());
  const params = m?.[1]?.split(",").map((p) => p.trim()).filter((p) => p !== "") ?? [];
  if (m === null || params.length !== args.length || params.some((p) => !/^[\w$]+$/.test(p))) {
    throw new Error(`inlineExpression: ${fn.name} is not a one-expression function of ${args.length} plain parameters`);
  }
  const param = new RegExp(`(?<![\\w$.])(${params.join("|")})(?![\\w$])`, "g");
  return `(${(m[2] as string).replace(param, (p) => `(${args[params.indexOf(p)] as string})`)})`;
}
