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
  return remembered(EXPRESSIONS, fn, args.join("\u0000"), () => expressionText(fn, args));
}

/** inlineExpression's work, done once per function and arguments (a sweep's analysis asks again for every variant it replays). */
function expressionText(fn: (...args: never[]) => unknown, args: readonly string[]): string {
  const m = /^function\s*[\w$]*\s*\(([^)]*)\)\s*\{\s*return\s+([^;]*?);?\s*\}$/.exec(fn.toString());
  const params = m?.[1]?.split(",").map((p) => p.trim()).filter((p) => p !== "") ?? [];
  if (m === null || params.length !== args.length || params.some((p) => !/^[\w$]+$/.test(p))) {
    throw new Error(`inlineExpression: ${fn.name} is not a one-expression function of ${args.length} plain parameters`);
  }
  const param = new RegExp(`(?<![\\w$.])(${params.join("|")})(?![\\w$])`, "g");
  return `(${(m[2] as string).replace(param, (p) => `(${args[params.indexOf(p)] as string})`)})`;
}

/** Names a small function's text may read besides its parameters and locals (global constants and Math). */
const GLOBALS = new Set(["Math", "Number", "NaN", "Infinity"]);

/**
 * The body of a small function of its parameters, `function f(a) { const x = <e1>; ...; return <e>; }`
 * (locals declared once, then one return), as statements for a generated loop that declare `into`
 * as its result: each local renamed `<into>_<name>`, each parameter replaced by its argument
 * (a local name or a literal: a parameter used twice reads it twice). The rule is still written
 * once, as that function (what the record-based code calls); the generator writes its text in place
 * of the call, which V8 does not reliably inline in a large generated loop. Undefined when `fn` is
 * not of that form or reads any other name (a closure's variable, a module constant not in
 * `constants`: its text would not run elsewhere), and the caller then calls `fn`. A name in
 * `constants` (the module constants its module declares it reads) is written as its value.
 * @example inlineStatements(function half(v) { const x = v / 2; return x < 1 ? x : 1; }, ["y"], "s")
 * // "const s_x = (((y)) / 2); const s = ((s_x) < 1 ? (s_x) : 1);"
 * @internal
 */
export function inlineStatements(fn: (...args: never[]) => unknown, args: readonly string[], into: string, constants: Readonly<Record<string, number>> = {}): string | undefined {
  const key = `${args.join("\u0000")}\u0001${into}\u0001${Object.entries(constants).map(([k, v]) => `${k}=${numberSource(v)}`).join(",")}`;
  return remembered(STATEMENTS, fn, key, () => statementsText(fn, args, into, constants));
}

/** inlineStatements' work, done once per function, arguments, name and constants. */
function statementsText(fn: (...args: never[]) => unknown, args: readonly string[], into: string, constants: Readonly<Record<string, number>>): string | undefined {
  const text = fn.toString();
  if (/["'`]/.test(text)) return undefined;
  const m = /^function\s*[\w$]*\s*\(([^)]*)\)\s*\{([^{}]*)\}$/.exec(text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/[^\n]*/g, ""));
  if (m === null) return undefined;
  const params = (m[1] as string).split(",").map((p) => p.trim()).filter((p) => p !== "");
  if (params.length !== args.length || params.some((p) => !/^[\w$]+$/.test(p))) return undefined;
  const statements = (m[2] as string).split(";").map((s) => s.trim()).filter((s) => s !== "");
  const ret = /^return\s+([\s\S]+)$/.exec(statements.pop() ?? "");
  if (ret === null) return undefined;
  const locals: string[] = [];
  const exprs: string[] = [];
  for (const s of statements) {
    const d = /^(?:const|let)\s+([\w$]+)\s*=\s*([\s\S]+)$/.exec(s);
    if (d === null || params.includes(d[1] as string) || locals.includes(d[1] as string)) return undefined;
    locals.push(d[1] as string);
    exprs.push(d[2] as string);
  }
  exprs.push(ret[1] as string);
  // Expressions only: no assignment, increment or decrement; every name a parameter, a local or a global constant.
  const consts = Object.keys(constants).filter((c) => !params.includes(c) && !locals.includes(c));
  const known = new Set([...params, ...locals, ...consts, ...GLOBALS]);
  for (const e of exprs) {
    if (/(?<![=!<>])=(?!=)|\+\+|--/.test(e)) return undefined;
    for (const name of e.match(/(?<![\w$.])[A-Za-z_$][\w$]*/g) ?? []) if (!known.has(name)) return undefined;
  }
  const names = [...params, ...locals, ...consts];
  const name = new RegExp(`(?<![\\w$.])(${names.map((n) => n.replace(/\$/g, "\\$")).join("|")})(?![\\w$])`, "g");
  const sub = (e: string): string =>
    `(${e.replace(name, (p) => {
      const a = params.indexOf(p);
      if (a >= 0) return `(${args[a] as string})`;
      return locals.includes(p) ? `${into}_${p}` : numberSource(constants[p] as number);
    })})`;
  return [...locals.map((l, t) => `const ${into}_${l} = ${sub(exprs[t] as string)};`), `const ${into} = ${sub(exprs[exprs.length - 1] as string)};`].join(" ");
}

/** A number as source text that reads back as the same double (-0 included). @internal */
export function numberSource(x: number): string {
  return Object.is(x, -0) ? "(-0)" : `(${String(x)})`;
}

/** The texts made so far, per function (a function's text cannot change), then per arguments. */
const EXPRESSIONS = new WeakMap<object, Map<string, string>>();
const STATEMENTS = new WeakMap<object, Map<string, string | undefined>>();

/** The text `make` gives for `fn` and `key`, made once (an error is thrown again each time: nothing is kept). */
function remembered<T>(memo: WeakMap<object, Map<string, T>>, fn: object, key: string, make: () => T): T {
  let byKey = memo.get(fn);
  if (byKey === undefined) memo.set(fn, (byKey = new Map()));
  if (byKey.has(key)) return byKey.get(key) as T;
  const text = make();
  byKey.set(key, text);
  return text;
}
