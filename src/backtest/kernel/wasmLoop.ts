import { createRequire } from "node:module";
import { Code, encodeModule, F64, I32, OP, VOID, type Signature, type ValType } from "./wasmModule.js";

/**
 * A generated loop's JavaScript source (the text compileVariantLoop compiles: `"use strict"; return
 * function name(...) { prologue; for (let i = lo; i < hi; i++) { bar } epilogue }`) translated into
 * one WebAssembly function for its bar loop, the same definition run by another backend: the
 * translator walks the parsed source (acorn) and writes each construct's meaning, never a rule of
 * its own. The prologue and epilogue stay JavaScript; the loop's numbers (every `let` declared
 * before it and read or written in it, every constant it computes with) become wasm locals,
 * loaded from and saved to a small slab of f64s at address 0 of the module's memory; arrays read
 * as `X[i + c]` (a sweep plan's packed buffer) are read from that memory.
 *
 * What compiles: blocks, `if`/`else`, `const`/`let` declarations with an initializer, assignments
 * (`=`, `+=`, `-=`, `*=`, `/=`) and `++`/`--` on locals, number and boolean literals, `NaN`,
 * `Infinity`, `+ - * /`, unary `- + !`, comparisons (`< <= > >= === !== == !=` between numbers or
 * between booleans; `x === void 0` on a constant), `&&`, `||`, `?:` (with JavaScript's truthiness
 * of numbers: 0, -0 and NaN are false), `Math.abs/sqrt/floor/ceil/trunc/min/max` (two arguments:
 * f64.min/max are JavaScript's, NaN and -0 included). Everything else inside the loop whose
 * names the translator can pass along (a call, a property or array read or write, `%`,
 * `Math.round`...) is run by JavaScript: a statement (consecutive ones grouped) as a call to an
 * imported function made from its own source text, which receives the loop's numbers it reads
 * as arguments and writes back those it assigns through the slab; an expression as an imported
 * function returning its value. Anything else (a nested loop, a function, `break`, a local
 * holding an object, a number compared with a boolean...) makes the translation fail, and the
 * caller keeps the JavaScript loop. At run time the generated wrapper checks what the wasm code
 * assumed (every number a number, booleans booleans, index constants small integers, every array
 * read a Float64Array read inside its bounds) and runs the JavaScript loop when any fails.
 *
 * Arrays read through memory are copied into it once and found again by identity
 * (`placeArray`), so they must not change between calls (a sweep plan's buffer never does once
 * packed). @internal
 */
export type WasmTranslation = { readonly source: string; readonly bytes: Uint8Array; readonly escapes: readonly Escape[] };

/** A piece of the loop run by JavaScript: the source of a function of the loop's numbers. */
interface Escape {
  readonly params: readonly ValType[];
  readonly result: ValType | undefined;
  readonly text: string;
}

/** Why a translation stopped (the caller runs the JavaScript loop). */
export class Untranslatable extends Error {}

// ---------------------------------------------------------------------------------------------
// The parsed source: a loose ESTree node.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- acorn's ESTree nodes, walked by their `type`
type N = any;

type Kind = "param" | "outerConst" | "outerLet" | "local" | "counter" | "alias";
type Ty = "unknown" | "bool" | "num";

interface Binding {
  readonly name: string;
  readonly kind: Kind;
  readonly init: N | undefined;
  readonly declStart: number;
  /** Right-hand sides assigned in the loop ("num" for a compound assignment or update). */
  readonly assigns: (N | "num")[];
  type: Ty;
  /** Int: the loop counter, or a constant used in an array index (an i32 local). */
  int: boolean;
  aliasOf: Binding | undefined;
  local: number | undefined;
  slot: number | undefined;
  /** A Float64Array read from memory: the local holding its byte address. */
  base: number | undefined;
  /** `x !== void 0` of a constant: the local holding it. */
  defined: number | undefined;
}

const MATH1: Record<string, number> = { abs: OP.f64Abs, sqrt: OP.f64Sqrt, floor: OP.f64Floor, ceil: OP.f64Ceil, trunc: OP.f64Trunc };
const MATH2: Record<string, number> = { min: OP.f64Min, max: OP.f64Max };
const F64_CMP: Record<string, number> = { "<": OP.f64Lt, "<=": OP.f64Le, ">": OP.f64Gt, ">=": OP.f64Ge, "===": OP.f64Eq, "==": OP.f64Eq, "!==": OP.f64Ne, "!=": OP.f64Ne };
const I32_CMP: Record<string, number> = { "<": OP.i32LtS, "<=": OP.i32LeS, ">": OP.i32GtS, ">=": OP.i32GeS, "===": OP.i32Eq, "==": OP.i32Eq, "!==": OP.i32Ne, "!=": OP.i32Ne };
const ARITH: Record<string, number> = { "+": OP.f64Add, "-": OP.f64Sub, "*": OP.f64Mul, "/": OP.f64Div };
/** Index constants must lie within +-2^28 (so i32 sums of a few stay exact). */
const INT_LIMIT = 2 ** 28;
/** Slab slots (f64) at address 0; arrays are placed from 64 KiB. */
const SLAB_SLOTS = 8192;

let acornParse: ((src: string, opts: object) => N) | undefined;
function parse(src: string): N {
  // Loaded on the first translation only (a sweep pass); the library's import does not load it.
  acornParse ??= (createRequire(import.meta.url)("acorn") as { parse: (src: string, opts: object) => N }).parse;
  return acornParse(src, { ecmaVersion: 2022, sourceType: "script", allowReturnOutsideFunction: true });
}

function fail(what: string, node?: N): never {
  throw new Untranslatable(`wasmLoop: ${what}${node === undefined ? "" : ` (${String(node.type)} at ${String(node.start)})`}`);
}

/**
 * Translate a generated loop's source (see above). Returns the wrapper's source (the same
 * function with its loop replaced by the wasm call, the loop kept as the fallback), the module's
 * bytes and the escapes' signatures. @throws Untranslatable
 * @internal
 */
export function translateLoop(text: string): WasmTranslation {
  const program = parse(text);
  const ret = program.body.find((s: N) => s.type === "ReturnStatement");
  const fn = ret?.argument;
  if (fn?.type !== "FunctionExpression") fail("the source must return a function expression");
  const body: N[] = fn.body.body;
  const loops = body.filter((s) => s.type === "ForStatement");
  if (loops.length !== 1) fail("one top-level for loop expected");
  const loop = loops[0];
  const bindings = new Map<string, Binding>();
  const newBinding = (name: string, kind: Kind, init: N | undefined, declStart: number): Binding => ({
    name,
    kind,
    init,
    declStart,
    assigns: [],
    type: "unknown",
    int: false,
    aliasOf: undefined,
    local: undefined,
    slot: undefined,
    base: undefined,
    defined: undefined,
  });
  for (const p of fn.params) {
    if (p.type !== "Identifier") fail("plain parameters expected", p);
    bindings.set(p.name, newBinding(p.name, "param", undefined, -1));
  }
  bindings.set("rules", newBinding("rules", "param", undefined, -1));
  bindings.set("__W", newBinding("__W", "param", undefined, -1));
  for (const s of body) {
    if (s === loop) break;
    if (s.type !== "VariableDeclaration") continue;
    for (const d of s.declarations) {
      if (d.id.type !== "Identifier") fail("plain declarations expected", d);
      bindings.set(d.id.name, newBinding(d.id.name, s.kind === "const" ? "outerConst" : "outerLet", d.init ?? undefined, d.start));
    }
  }
  // The loop header: for (let i = lo; i < hi; i++), lo and hi parameters.
  const init = loop.init;
  const ok =
    init?.type === "VariableDeclaration" &&
    init.kind === "let" &&
    init.declarations.length === 1 &&
    init.declarations[0].id.type === "Identifier" &&
    init.declarations[0].init?.type === "Identifier" &&
    loop.test?.type === "BinaryExpression" &&
    loop.test.operator === "<" &&
    loop.test.left.type === "Identifier" &&
    loop.test.left.name === init.declarations[0].id.name &&
    loop.test.right.type === "Identifier" &&
    loop.update?.type === "UpdateExpression" &&
    loop.update.operator === "++" &&
    loop.update.argument.type === "Identifier" &&
    loop.update.argument.name === init.declarations[0].id.name;
  if (!ok) fail("the loop must be for (let i = lo; i < hi; i++)", loop);
  const loName: string = init.declarations[0].init.name;
  const hiName: string = loop.test.right.name;
  if (bindings.get(loName)?.kind !== "param" || bindings.get(hiName)?.kind !== "param") fail("the loop's bounds must be parameters");
  const counter = newBinding(init.declarations[0].id.name, "counter", undefined, init.start);
  counter.int = true;
  counter.type = "num";

  // ---- Scopes: every identifier of the loop's body resolved to its binding (null: a global).
  const resolved = new Map<N, Binding | null>();
  const declared = new Map<N, Binding>();
  const locals: Binding[] = [];
  const scopes: Map<string, Binding>[] = [bindings, new Map([[counter.name, counter]])];
  const lookup = (name: string): Binding | null => {
    for (let s = scopes.length - 1; s >= 0; s--) {
      const b = (scopes[s] as Map<string, Binding>).get(name);
      if (b !== undefined) return b;
    }
    return null;
  };
  const target = (b: Binding | null): Binding | null => (b?.aliasOf !== undefined ? b.aliasOf : b);
  const walk = (node: N): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const x of node) walk(x);
      return;
    }
    switch (node.type) {
      case "BlockStatement": {
        scopes.push(new Map());
        walk(node.body);
        scopes.pop();
        return;
      }
      case "VariableDeclaration": {
        if (node.kind === "var") fail("var", node);
        for (const d of node.declarations) {
          if (d.id.type !== "Identifier") fail("plain declarations expected", d);
          walk(d.init);
          const b = newBinding(d.id.name, "local", d.init ?? undefined, d.start);
          // `const x = y` of a constant declared before the loop: another name for it.
          if (node.kind === "const" && d.init?.type === "Identifier") {
            const t = target(lookup(d.init.name));
            if (t !== null && (t.kind === "outerConst" || t.kind === "param")) b.aliasOf = t;
          }
          if (b.aliasOf === undefined) locals.push(b);
          (scopes[scopes.length - 1] as Map<string, Binding>).set(d.id.name, b);
          declared.set(d, b);
        }
        return;
      }
      case "Identifier":
        resolved.set(node, lookup(node.name));
        return;
      case "MemberExpression":
        walk(node.object);
        if (node.computed) walk(node.property);
        return;
      case "Property":
        if (node.computed) walk(node.key);
        walk(node.value);
        return;
      case "FunctionExpression":
      case "ArrowFunctionExpression":
      case "FunctionDeclaration":
      case "ClassExpression":
      case "ForStatement":
      case "WhileStatement":
      case "DoWhileStatement":
      case "ForInStatement":
      case "ForOfStatement":
      case "BreakStatement":
      case "ContinueStatement":
      case "ReturnStatement":
      case "LabeledStatement":
      case "SwitchStatement":
      case "TryStatement":
      case "ThrowStatement":
      case "YieldExpression":
      case "AwaitExpression":
      case "ThisExpression":
        return fail("not translated", node);
      case "AssignmentExpression":
      case "UpdateExpression": {
        const left = node.type === "AssignmentExpression" ? node.left : node.argument;
        walk(node.type === "AssignmentExpression" ? node.right : undefined);
        walk(left);
        if (left.type === "Identifier") {
          const b = resolved.get(left);
          if (b === null || b === undefined || b.aliasOf !== undefined || b.kind === "outerConst" || b.kind === "param" || b.kind === "counter") fail(`assignment to ${String(left.name)}`, node);
          b.assigns.push(node.type === "AssignmentExpression" && node.operator === "=" ? node.right : "num");
        }
        return;
      }
      default:
        for (const key of Object.keys(node)) if (key !== "type" && key !== "start" && key !== "end") walk(node[key]);
    }
  };
  walk(loop.body);

  // ---- Memory reads: X[index] of a constant X declared before the loop, with an index i + c
  // (c a sum of integer literals and constants).
  const indexLeaves = (e: N, sign: number, acc: { counter: number; leaves: Binding[] }): boolean => {
    if (e.type === "Identifier") {
      const b = resolved.get(e);
      if (b === counter) {
        acc.counter += sign;
        return true;
      }
      if (b !== null && b !== undefined && b.kind === "outerConst") {
        acc.leaves.push(b);
        return true;
      }
      return false;
    }
    if (e.type === "Literal" && typeof e.value === "number") return Number.isInteger(e.value) && Math.abs(e.value) <= INT_LIMIT;
    if (e.type === "BinaryExpression" && (e.operator === "+" || e.operator === "-")) {
      return indexLeaves(e.left, sign, acc) && indexLeaves(e.right, e.operator === "-" ? -sign : sign, acc);
    }
    return false;
  };
  const isMemoryRead = (m: N): boolean => {
    if (m.type !== "MemberExpression" || !m.computed || m.object.type !== "Identifier") return false;
    const b = resolved.get(m.object);
    if (b === null || b === undefined || b.kind !== "outerConst") return false;
    const acc = { counter: 0, leaves: [] as Binding[] };
    return indexLeaves(m.property, 1, acc) && acc.counter === 1;
  };
  const memoryArrays = new Map<Binding, N[]>();
  const markReads = (node: N, assignTarget = false): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const x of node) markReads(x);
      return;
    }
    if (node.type === "MemberExpression" && !assignTarget && isMemoryRead(node)) {
      const b = resolved.get(node.object) as Binding;
      const acc = { counter: 0, leaves: [] as Binding[] };
      indexLeaves(node.property, 1, acc);
      for (const l of acc.leaves) l.int = true;
      const list = memoryArrays.get(b) ?? [];
      list.push(node.property);
      memoryArrays.set(b, list);
      return;
    }
    if (node.type === "AssignmentExpression") {
      markReads(node.left, true);
      markReads(node.right);
      return;
    }
    if (node.type === "UpdateExpression") {
      markReads(node.argument, true);
      return;
    }
    for (const key of Object.keys(node)) if (key !== "type" && key !== "start" && key !== "end") markReads(node[key]);
  };
  markReads(loop.body);
  for (const b of memoryArrays.keys()) if (b.int) fail(`${b.name} is both an array and an index`);

  // ---- Types (a fixed point): a binding is a boolean when everything it holds is, else a number.
  const isMath = (callee: N): boolean =>
    callee.type === "MemberExpression" && !callee.computed && callee.object.type === "Identifier" && callee.object.name === "Math" && resolved.get(callee.object) === null;
  const typeOf = (e: N): Ty => {
    switch (e.type) {
      case "Literal":
        return typeof e.value === "boolean" ? "bool" : "num";
      case "Identifier": {
        const b = target(resolved.get(e) ?? null);
        if (b === null) return "num";
        return bindingType(b);
      }
      case "UnaryExpression":
        return e.operator === "!" ? "bool" : "num";
      case "BinaryExpression":
        return F64_CMP[e.operator] !== undefined || e.operator === "instanceof" || e.operator === "in" ? "bool" : "num";
      case "LogicalExpression":
        return join(typeOf(e.left), typeOf(e.right), e);
      case "ConditionalExpression":
        return join(typeOf(e.consequent), typeOf(e.alternate), e);
      case "AssignmentExpression":
        return typeOf(e.right);
      default:
        return "num";
    }
  };
  const join = (a: Ty, b: Ty, at: N): Ty => {
    if (a === "unknown") return b;
    if (b === "unknown" || a === b) return a;
    return fail("a value that is a number or a boolean", at);
  };
  const bindingType = (b: Binding): Ty => {
    if (b.kind === "outerConst" || b.kind === "param") return b.init !== undefined && typeOf(b.init) === "bool" ? "bool" : "num";
    return b.type;
  };
  const typed = [...locals, ...[...bindings.values()].filter((b) => b.kind === "outerLet")];
  for (let round = 0; round < 50; round++) {
    let changed = false;
    for (const b of typed) {
      let t: Ty = b.init === undefined ? "unknown" : typeOf(b.init);
      for (const a of b.assigns) t = join(t, a === "num" ? "num" : typeOf(a), a === "num" ? undefined : a);
      if (t !== b.type) {
        b.type = t;
        changed = true;
      }
    }
    if (!changed) break;
  }
  for (const b of typed) {
    if (b.type === "unknown") b.type = "num";
    if (b.type === "bool" && b.assigns.includes("num")) fail(`${b.name}: ++ or a compound assignment on a boolean`);
  }
  for (const b of memoryArrays.keys()) b.type = "num";

  // ---- Code.
  const wasmLocals: ValType[] = [];
  const newLocal = (t: ValType): number => wasmLocals.push(t) + 1; // params lo (0), hi (1)
  counter.local = newLocal(I32);
  const valType = (b: Binding): ValType => (b.int ? I32 : bindingType(b) === "bool" ? I32 : F64);
  let slots = 0;
  const newSlot = (): number => {
    if (slots >= SLAB_SLOTS) fail("too many numbers for the slab");
    return slots++;
  };
  /** Inputs (constants and lets from before the loop) in the order they are loaded: binding and what the wrapper stores. */
  const inputs: { b: Binding; slot: number; local: number; store: string; guard: string }[] = [];
  const outerLocal = (b: Binding): number => {
    if (b.local !== undefined) return b.local;
    const vt = valType(b);
    b.local = newLocal(vt);
    b.slot = newSlot();
    const t = bindingType(b);
    const guard = b.int
      ? `Number.isInteger(${b.name}) && Math.abs(${b.name}) <= ${INT_LIMIT}`
      : t === "bool"
        ? `typeof ${b.name} === "boolean"`
        : `typeof ${b.name} === "number"`;
    inputs.push({ b, slot: b.slot, local: b.local, store: t === "bool" ? `(${b.name} ? 1 : 0)` : b.name, guard });
    return b.local;
  };
  const localOf = (b: Binding): number => {
    if (b.kind === "counter") return b.local as number;
    if (b.kind === "local") {
      if (b.local === undefined) fail(`${b.name} read before its declaration`);
      return b.local;
    }
    if (b.kind === "param" && (b.name === loName || b.name === hiName)) fail("the loop's bounds read in the loop");
    return outerLocal(b);
  };
  const defineds: { b: Binding; slot: number; local: number }[] = [];
  const definedLocal = (b: Binding): number => {
    if (b.defined !== undefined) return b.defined;
    b.defined = newLocal(I32);
    defineds.push({ b, slot: newSlot(), local: b.defined });
    return b.defined;
  };
  const arrays: { b: Binding; slot: number; local: number; indexes: N[] }[] = [];
  const baseLocal = (b: Binding): number => {
    if (b.base !== undefined) return b.base;
    b.base = newLocal(I32);
    arrays.push({ b, slot: newSlot(), local: b.base, indexes: memoryArrays.get(b) as N[] });
    return b.base;
  };
  const escapes: Escape[] = [];
  const src = (n: N): string => text.slice(n.start, n.end);

  /** The loop's bindings a piece of source reads or writes (declared outside it), and those it writes. */
  const usesOf = (nodes: N[]): { reads: Binding[]; writes: Binding[]; aliases: Binding[] } => {
    const reads = new Set<Binding>();
    const writes = new Set<Binding>();
    const aliases = new Set<Binding>();
    const visit = (node: N): void => {
      if (node === null || typeof node !== "object") return;
      if (Array.isArray(node)) {
        for (const x of node) visit(x);
        return;
      }
      if (node.type === "Identifier") {
        const b = resolved.get(node);
        if (b === undefined || b === null) return;
        if (b.aliasOf !== undefined) aliases.add(b);
        else if (b.kind === "local" || b.kind === "outerLet" || b.kind === "counter") reads.add(b);
        return;
      }
      if (node.type === "MemberExpression") {
        visit(node.object);
        if (node.computed) visit(node.property);
        return;
      }
      if (node.type === "AssignmentExpression" || node.type === "UpdateExpression") {
        const left = node.type === "AssignmentExpression" ? node.left : node.argument;
        if (left.type === "Identifier") {
          const b = resolved.get(left);
          if (b !== undefined && b !== null) writes.add(b);
        }
      }
      for (const key of Object.keys(node)) if (key !== "type" && key !== "start" && key !== "end") visit(node[key]);
    };
    visit(nodes);
    for (const w of writes) reads.add(w);
    return { reads: [...reads], writes: [...writes], aliases: [...aliases] };
  };
  /** Emit a call to an escape: its arguments (the loop's numbers it uses), the call. */
  const escapeCall = (code: Code, nodes: N[], body: () => string, result: ValType | undefined): { writes: Binding[] } => {
    const { reads, writes, aliases } = usesOf(nodes);
    // The numbers it reads go through the slab (a call's f64 arguments would be boxed, one heap number each).
    let prefix = "";
    for (const b of reads) {
      const slot = newSlot();
      code.i32(0).op(OP.localGet).u32(localOf(b));
      if (valType(b) === I32) code.op(OP.f64ConvertI32S);
      code.mem(OP.f64Store, slot * 8);
      prefix += valType(b) === I32 && !b.int ? `let ${b.name} = __s[${slot}] !== 0; ` : `let ${b.name} = __s[${slot}]; `;
    }
    for (const a of aliases) prefix += `const ${a.name} = ${(a.aliasOf as Binding).name}; `;
    escapes.push({ params: [], result, text: `() => { ${prefix}${body()} }` });
    code.op(OP.call).u32(escapes.length - 1);
    return { writes };
  };

  const truthy = (code: Code, t: ValType | "int"): void => {
    if (t === F64) code.op(OP.f64Abs).f64(0).op(OP.f64Gt);
    else if (t === "int") code.i32(0).op(OP.i32Ne);
  };
  /** The natural wasm type of an expression: F64, I32 (boolean) or "int" (an i32 integer). */
  const natural = (e: N): ValType | "int" => {
    if (e.type === "Identifier") {
      const b = target(resolved.get(e) ?? null);
      if (b !== null && b.int) return "int";
    }
    if (isMemoryRead(e)) return F64;
    return typeOf(e) === "bool" ? I32 : F64;
  };
  const genInt = (code: Code, e: N): void => {
    if (e.type === "Literal") code.i32(e.value as number);
    else if (e.type === "Identifier") code.op(OP.localGet).u32(localOf(resolved.get(e) as Binding));
    else {
      genInt(code, e.left);
      genInt(code, e.right);
      code.op(e.operator === "+" ? OP.i32Add : OP.i32Sub);
    }
  };
  const isUndefined = (e: N): boolean =>
    (e.type === "UnaryExpression" && e.operator === "void" && e.argument.type === "Literal") || (e.type === "Identifier" && e.name === "undefined" && resolved.get(e) === null);
  /** Whether an expression's own operation needs JavaScript (a call or property access the wasm code does not do...), its operands aside. */
  const selfOpaque = (e: N): boolean => {
    switch (e.type) {
      case "CallExpression":
        return !(isMath(e.callee) && (MATH1[e.callee.property.name] !== undefined ? e.arguments.length === 1 : MATH2[e.callee.property.name] !== undefined && e.arguments.length === 2));
      case "MemberExpression":
        return !isMemoryRead(e);
      case "BinaryExpression":
        if ((e.operator === "===" || e.operator === "!==") && (isUndefined(e.left) || isUndefined(e.right))) return false;
        return ARITH[e.operator] === undefined && F64_CMP[e.operator] === undefined;
      case "UnaryExpression":
        return e.operator !== "!" && e.operator !== "-" && e.operator !== "+";
      case "Identifier": {
        if (resolved.get(e) !== null) return false;
        return e.name !== "NaN" && e.name !== "Infinity";
      }
      case "Literal":
        if (typeof e.value !== "number" && typeof e.value !== "boolean") fail("a literal that is not a number", e);
        return false;
      case "LogicalExpression":
        return e.operator === "??";
      case "ConditionalExpression":
      case "AssignmentExpression":
      case "UpdateExpression":
        return false;
      case "NewExpression":
      case "ArrayExpression":
      case "ObjectExpression":
      case "TemplateLiteral":
      case "TaggedTemplateExpression":
        return fail("a value that is not a number", e);
      default:
        return true;
    }
  };
  /** Whether anything in an expression needs JavaScript. */
  const opaque = (e: N): boolean => {
    if (e === null || typeof e !== "object") return false;
    if (Array.isArray(e)) return e.some(opaque);
    if (typeof e.type !== "string") return false;
    if (selfOpaque(e)) return true;
    if (e.type === "MemberExpression") return false;
    if (e.type === "CallExpression") return opaque(e.arguments);
    if (e.type === "BinaryExpression" && (isUndefined(e.left) || isUndefined(e.right))) return false;
    for (const key of Object.keys(e)) if (key !== "type" && key !== "start" && key !== "end" && opaque(e[key])) return true;
    return false;
  };
  /** Code leaving e's value as `want` (F64, or I32: its truthiness). */
  const isLogical = (e: N): boolean => e.type === "LogicalExpression" && e.operator !== "??";
  /**
   * A condition as branches (not a boolean made then tested): `br depth` when e is falsy, fall
   * through when truthy; `&&`, `||` and `!` are followed down to their operands.
   */
  const jumpIfFalse = (code: Code, e: N, depth: number): void => {
    if (isLogical(e) && e.operator === "&&") {
      jumpIfFalse(code, e.left, depth);
      jumpIfFalse(code, e.right, depth);
    } else if (isLogical(e)) {
      code.op(OP.block, VOID);
      jumpIfTrue(code, e.left, 0);
      jumpIfFalse(code, e.right, depth + 1);
      code.op(OP.end);
    } else if (e.type === "UnaryExpression" && e.operator === "!" && !selfOpaque(e)) jumpIfTrue(code, e.argument, depth);
    else {
      gen(code, e, I32);
      code.op(OP.i32Eqz, OP.brIf).u32(depth);
    }
  };
  const jumpIfTrue = (code: Code, e: N, depth: number): void => {
    if (isLogical(e) && e.operator === "||") {
      jumpIfTrue(code, e.left, depth);
      jumpIfTrue(code, e.right, depth);
    } else if (isLogical(e)) {
      code.op(OP.block, VOID);
      jumpIfFalse(code, e.left, 0);
      jumpIfTrue(code, e.right, depth + 1);
      code.op(OP.end);
    } else if (e.type === "UnaryExpression" && e.operator === "!" && !selfOpaque(e)) jumpIfFalse(code, e.argument, depth);
    else {
      gen(code, e, I32);
      code.op(OP.brIf).u32(depth);
    }
  };
  /** if (test) then else other: blocks and branches. `other` may be empty. */
  const branch = (code: Code, test: N, result: number, then: () => void, other: () => void): void => {
    code.op(OP.block, result, OP.block, VOID);
    jumpIfFalse(code, test, 0);
    then();
    code.op(OP.br).u32(1).op(OP.end);
    other();
    code.op(OP.end);
  };
  const gen = (code: Code, e: N, want: ValType): void => {
    if (want === I32 && isLogical(e)) {
      branch(code, e, I32, () => code.i32(1), () => code.i32(0));
      return;
    }
    const t = genNatural(code, e);
    if (want === I32) truthy(code, t);
    else if (t === I32 || t === "int") code.op(OP.f64ConvertI32S);
  };
  const genNatural = (code: Code, e: N): ValType | "int" => {
    if (e.type === "AssignmentExpression" || e.type === "UpdateExpression") fail("an assignment used as a value", e);
    if (selfOpaque(e)) {
      const t = typeOf(e);
      const { writes } = escapeCall(
        code,
        [e],
        () =>
          t === "bool"
            ? `return (${src(e)}) ? 1 : 0;`
            : `const __v = (${src(e)}); if (typeof __v !== "number") __W.notNumber(__v); return __v;`,
        t === "bool" ? I32 : F64,
      );
      if (writes.length > 0) fail("an expression run by JavaScript assigns a local", e);
      return t === "bool" ? I32 : F64;
    }
    switch (e.type) {
      case "Literal":
        if (typeof e.value === "boolean") {
          code.i32(e.value ? 1 : 0);
          return I32;
        }
        code.f64(e.value as number);
        return F64;
      case "Identifier": {
        const b = target(resolved.get(e) ?? null);
        if (b === null) {
          if (e.name === "NaN") code.f64(Number.NaN);
          else if (e.name === "Infinity") code.f64(Number.POSITIVE_INFINITY);
          else fail(`the global ${String(e.name)}`, e);
          return F64;
        }
        if (b.kind === "local" && b.local === undefined) fail(`${b.name} read before its declaration`, e);
        code.op(OP.localGet).u32(localOf(b));
        return b.int ? "int" : valType(b);
      }
      case "MemberExpression": {
        // A memory read (opaque() said so).
        code.op(OP.localGet).u32(baseLocal(resolved.get(e.object) as Binding));
        genInt(code, e.property);
        code.i32(3).op(OP.i32Shl, OP.i32Add).mem(OP.f64Load, 0);
        return F64;
      }
      case "CallExpression": {
        const name: string = e.callee.property.name;
        gen(code, e.arguments[0], F64);
        if (e.arguments.length === 2) {
          gen(code, e.arguments[1], F64);
          code.op(MATH2[name] as number);
        } else code.op(MATH1[name] as number);
        return F64;
      }
      case "UnaryExpression":
        if (e.operator === "!") {
          gen(code, e.argument, I32);
          code.op(OP.i32Eqz);
          return I32;
        }
        gen(code, e.argument, F64);
        if (e.operator === "-") code.op(OP.f64Neg);
        return F64;
      case "BinaryExpression": {
        const op: string = e.operator;
        if (ARITH[op] !== undefined) {
          gen(code, e.left, F64);
          gen(code, e.right, F64);
          code.op(ARITH[op] as number);
          return F64;
        }
        if (isUndefined(e.left) || isUndefined(e.right)) {
          const other = isUndefined(e.left) ? e.right : e.left;
          const b = other.type === "Identifier" ? target(resolved.get(other) ?? null) : null;
          if (b === null || (b.kind !== "outerConst" && b.kind !== "param") || b.name === loName || b.name === hiName) fail("x === void 0 of a constant only", e);
          code.op(OP.localGet).u32(definedLocal(b));
          if (op === "===") code.op(OP.i32Eqz);
          return I32;
        }
        const lt = natural(e.left);
        const rt = natural(e.right);
        const equality = op === "===" || op === "!==" || op === "==" || op === "!=";
        if (equality && (lt === I32) !== (rt === I32)) fail("a boolean compared with a number", e);
        if (lt === "int" && rt === "int") {
          genNatural(code, e.left);
          genNatural(code, e.right);
          code.op(I32_CMP[op] as number);
        } else if (lt === I32 && rt === I32 && equality) {
          genNatural(code, e.left);
          genNatural(code, e.right);
          code.op(I32_CMP[op] as number);
        } else {
          gen(code, e.left, F64);
          gen(code, e.right, F64);
          code.op(F64_CMP[op] as number);
        }
        return I32;
      }
      case "LogicalExpression": {
        const t = typeOf(e);
        if (t === "bool") {
          gen(code, e, I32);
          return I32;
        }
        // Numbers: a && b is b when a is truthy, else a; a || b is a when a is truthy, else b.
        const tmp = newLocal(F64);
        gen(code, e.left, F64);
        code.op(OP.localTee).u32(tmp);
        truthy(code, F64);
        code.op(OP.if, F64);
        if (e.operator === "&&") gen(code, e.right, F64);
        else code.op(OP.localGet).u32(tmp);
        code.op(OP.else);
        if (e.operator === "&&") code.op(OP.localGet).u32(tmp);
        else gen(code, e.right, F64);
        code.op(OP.end);
        return F64;
      }
      case "ConditionalExpression": {
        const vt = typeOf(e) === "bool" ? I32 : F64;
        branch(code, e.test, vt, () => gen(code, e.consequent, vt), () => gen(code, e.alternate, vt));
        return vt;
      }
      default:
        return fail("not translated", e);
    }
  };
  /** A statement that JavaScript runs: an expression statement with a call or property access in it. */
  const isEscape = (s: N): boolean => {
    if (s.type !== "ExpressionStatement") return false;
    const e = s.expression;
    if (e.type === "UpdateExpression" && e.argument.type === "Identifier") return false;
    if (e.type !== "AssignmentExpression" || e.left.type !== "Identifier") return opaque(e);
    // x = c ? a : f(...) keeps its choice in wasm (the call only when taken); else a right side with a call goes to JavaScript whole.
    return e.right.type !== "ConditionalExpression" && e.right.type !== "LogicalExpression" && opaque(e.right);
  };
  const genStatements = (code: Code, list: N[]): void => {
    for (let a = 0; a < list.length; ) {
      if (isEscape(list[a])) {
        let b = a;
        while (b < list.length && isEscape(list[b])) b++;
        const group = list.slice(a, b);
        const slotsOf = new Map<Binding, number>();
        const { writes } = escapeCall(
          code,
          group,
          () => {
            const wb = usesOf(group).writes.map((w) => {
              let slot = slotsOf.get(w);
              if (slot === undefined) slotsOf.set(w, (slot = newSlot()));
              return valType(w) === I32 ? `__s[${slot}] = ${w.name} ? 1 : 0;` : `if (typeof ${w.name} !== "number") __W.notNumber(${w.name}); __s[${slot}] = ${w.name};`;
            });
            return `${group.map(src).join("\n")}\n${wb.join(" ")}`;
          },
          undefined,
        );
        for (const w of writes) {
          const slot = slotsOf.get(w) as number;
          code.i32(0).mem(OP.f64Load, slot * 8);
          if (valType(w) === I32) {
            if (w.int) fail("an index constant written by JavaScript");
            code.f64(0).op(OP.f64Ne);
          }
          code.op(OP.localSet).u32(localOf(w));
        }
        a = b;
        continue;
      }
      genStatement(code, list[a]);
      a++;
    }
  };
  const genStatement = (code: Code, s: N): void => {
    switch (s.type) {
      case "BlockStatement":
        genStatements(code, s.body);
        return;
      case "EmptyStatement":
        return;
      case "IfStatement":
        if (s.alternate === null) {
          code.op(OP.block, VOID);
          jumpIfFalse(code, s.test, 0);
          genStatement(code, s.consequent);
          code.op(OP.end);
        } else branch(code, s.test, VOID, () => genStatement(code, s.consequent), () => genStatement(code, s.alternate));
        return;
      case "VariableDeclaration":
        for (const d of s.declarations) {
          const b = declared.get(d) as Binding;
          if (b.aliasOf !== undefined) continue;
          if (d.init === null) fail("a declaration without a value", d);
          gen(code, d.init, valType(b));
          b.local = newLocal(valType(b));
          code.op(OP.localSet).u32(b.local);
        }
        return;
      case "ExpressionStatement": {
        if (isEscape(s)) {
          genStatements(code, [s]);
          return;
        }
        const e = s.expression;
        if (e.type === "AssignmentExpression" && e.left.type === "Identifier") {
          const b = resolved.get(e.left) as Binding;
          const vt = valType(b);
          if (e.operator === "=") gen(code, e.right, vt);
          else {
            const op = ARITH[String(e.operator).slice(0, -1)];
            if (op === undefined || vt !== F64) fail(`operator ${String(e.operator)}`, e);
            code.op(OP.localGet).u32(localOf(b));
            gen(code, e.right, F64);
            code.op(op);
          }
          code.op(OP.localSet).u32(localOf(b));
          return;
        }
        if (e.type === "UpdateExpression" && e.argument.type === "Identifier") {
          const b = resolved.get(e.argument) as Binding;
          code.op(OP.localGet).u32(localOf(b)).f64(1).op(e.operator === "++" ? OP.f64Add : OP.f64Sub, OP.localSet).u32(localOf(b));
          return;
        }
        gen(code, e, F64);
        code.op(OP.drop);
        return;
      }
      default:
        fail("not translated", s);
    }
  };

  const bodyCode = new Code();
  // for (i = lo; i < hi; i++) { body }
  bodyCode.op(OP.localGet).u32(0).op(OP.localSet).u32(counter.local);
  bodyCode.op(OP.block, VOID, OP.loop, VOID);
  bodyCode.op(OP.localGet).u32(counter.local).op(OP.localGet).u32(1).op(OP.i32GeS, OP.brIf).u32(1);
  genStatement(bodyCode, loop.body);
  bodyCode.op(OP.localGet).u32(counter.local).i32(1).op(OP.i32Add, OP.localSet).u32(counter.local).op(OP.br).u32(0);
  bodyCode.op(OP.end, OP.end);
  // Every let from before the loop that it uses goes back to the slab.
  const outs = inputs.filter((x) => x.b.kind === "outerLet" && x.b.assigns.length > 0);
  for (const x of outs) {
    bodyCode.i32(0);
    bodyCode.op(OP.localGet).u32(x.local);
    if (valType(x.b) === I32) bodyCode.op(OP.f64ConvertI32S);
    bodyCode.mem(OP.f64Store, x.slot * 8);
  }
  const prologue = new Code();
  const loadSlot = (slot: number, local: number, vt: ValType, int: boolean): void => {
    prologue.i32(0).mem(OP.f64Load, slot * 8);
    if (vt === I32) {
      if (int) prologue.op(0xaa); // i32.trunc_f64_s: an integer checked by the wrapper
      else prologue.f64(0).op(OP.f64Ne);
    }
    prologue.op(OP.localSet).u32(local);
  };
  for (const x of inputs) loadSlot(x.slot, x.local, valType(x.b), x.b.int);
  for (const x of defineds) loadSlot(x.slot, x.local, I32, false);
  for (const x of arrays) loadSlot(x.slot, x.local, I32, true);
  const all = new Code();
  all.bytes.push(...prologue.bytes, ...bodyCode.bytes);
  const sigs: Signature[] = escapes.map((x) => ({ params: x.params, results: x.result === undefined ? [] : [x.result] }));
  const bytes = encodeModule(sigs, { params: [I32, I32], results: [] }, wasmLocals, all);

  // ---- The wrapper: the same function, its loop run by the module when the checks hold.
  const guards = [
    `${loName} < ${hiName}`,
    `Number.isInteger(${loName})`,
    `Number.isInteger(${hiName})`,
    `${loName} >= 0`,
    `${hiName} <= ${INT_LIMIT}`,
    ...inputs.map((x) => x.guard),
    ...arrays.map((x) => `${x.b.name} instanceof Float64Array`),
    ...arrays.flatMap((x) =>
      x.indexes.map((ix: N) => `((${counter.name}) => ${src(ix)})(${loName}) >= 0 && ((${counter.name}) => ${src(ix)})(${hiName} - 1) < ${x.b.name}.length`),
    ),
  ];
  const stores = [
    ...arrays.map((x) => `__b[${x.slot}] = __W.place(${x.b.name});`),
    "{ const __s = __W.slab;",
    ...arrays.map((x) => `__s[${x.slot}] = __b[${x.slot}];`),
    ...inputs.map((x) => `__s[${x.slot}] = ${x.store};`),
    ...defineds.map((x) => `__s[${x.slot}] = ${x.b.name} !== undefined ? 1 : 0;`),
    "}",
  ];
  const loads = outs.map((x) => (valType(x.b) === I32 ? `${x.b.name} = __s[${x.slot}] !== 0;` : `${x.b.name} = __s[${x.slot}];`));
  const wasmRun = `if (__W.on && ${guards.join(" && ")}) {
    const __b = {}; ${stores.join(" ")}
    const __s = __W.slab;
    __W.esc = [${escapes.map((x) => x.text).join(",\n")}];
    __W.stats.runs++;
    __W.run(${loName}, ${hiName});
    __W.esc = undefined;
    { const __s = __W.slab; ${loads.join(" ")} }
  } else `;
  const source = text.slice(0, loop.start) + wasmRun + text.slice(loop.start);
  return { source, bytes, escapes };
}

// ---------------------------------------------------------------------------------------------
// The engine's WebAssembly API, as far as used here (the project's TypeScript libs, ES2022 and
// @types/node 20, do not declare it).
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
declare namespace WebAssembly {
  type Memory = WasmMemory;
  type Module = object;
}
declare const WebAssembly: {
  Memory: new (d: { initial: number; maximum?: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (m: object, imports: Record<string, Record<string, unknown>>) => { readonly exports: Record<string, unknown> };
  CompileError: new (message?: string) => Error;
};

// ---------------------------------------------------------------------------------------------
// Run time: one memory per thread, the arrays placed in it, the modules' instances.

/** The thread's memory: the slab at 0, arrays from 64 KiB. */
let memory: WebAssembly.Memory | undefined;
let slabView: Float64Array | undefined;
/** Arrays copied into memory, by identity, and where the next one goes. */
let placed = new WeakMap<Float64Array, number>();
let next = 65536;
/** Past this many bytes, placement starts over (the copies are found again by copying anew). */
const MEMORY_LIMIT = 2 ** 31 - 2 ** 16;

function theMemory(): WebAssembly.Memory {
  memory ??= new WebAssembly.Memory({ initial: 1 });
  return memory;
}

function slab(): Float64Array {
  const buffer = theMemory().buffer;
  if (slabView === undefined || slabView.buffer !== buffer) slabView = new Float64Array(buffer, 0, SLAB_SLOTS);
  return slabView;
}

/**
 * The byte address in the thread's memory of a copy of `a` (made on its first call, then found by
 * identity: `a` must not change afterwards). @internal
 */
export function placeArray(a: Float64Array): number {
  const at = placed.get(a);
  if (at !== undefined) return at;
  const bytes = a.length * 8;
  if (next + bytes > MEMORY_LIMIT) {
    if (65536 + bytes > MEMORY_LIMIT) throw new RangeError(`wasmLoop: an array of ${a.length} numbers does not fit in WebAssembly memory`);
    placed = new WeakMap();
    next = 65536;
  }
  const mem = theMemory();
  const need = Math.ceil((next + bytes) / 65536) - mem.buffer.byteLength / 65536;
  if (need > 0) mem.grow(need);
  new Float64Array(mem.buffer, next, a.length).set(a);
  const base = next;
  next += Math.ceil(bytes / 64) * 64;
  placed.set(a, base);
  return base;
}

/** A value handed back to the wasm loop that is not a number (the loop's assumption broken): stop rather than compute with it. */
function notNumber(v: unknown): never {
  throw new TypeError(`wasmLoop: a value computed by JavaScript inside a WebAssembly loop is ${typeof v}, not a number; the generated loop must keep objects out of its locals`);
}

/**
 * The generated function of `text` (a `new Function` body returning the loop, with `rules` in
 * scope) with its loop compiled to WebAssembly, or undefined when the source does not translate
 * (see translateLoop). The result behaves as `new Function("rules", text)(rules)`.
 * @internal
 */
export function compileWasmLoop<F>(text: string, rules: unknown): F | undefined {
  let tr: WasmTranslation;
  let module: WebAssembly.Module;
  try {
    tr = translateLoop(text);
    module = new WebAssembly.Module(tr.bytes);
  } catch (e) {
    if (e instanceof Untranslatable || e instanceof WebAssembly.CompileError) {
      lastFailure = e.message;
      return undefined;
    }
    throw e;
  }
  const W: { on: boolean; esc: ((...a: number[]) => number | undefined)[] | undefined; run: (lo: number, hi: number) => void; readonly slab: Float64Array; place: typeof placeArray; notNumber: typeof notNumber; stats: typeof WASM_STATS } = {
    on: true,
    esc: undefined,
    run: () => undefined,
    get slab() {
      return slab();
    },
    place: placeArray,
    notNumber,
    stats: WASM_STATS,
  };
  const env: Record<string, unknown> = { m: theMemory() };
  tr.escapes.forEach((x, f) => {
    const args = x.params.map((_, a) => `a${a}`).join(", ");
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- a fixed-arity forwarder to the escape of the current call
    env[`f${f}`] = new Function("W", `return function f${f}(${args}) { return W.esc[${f}](${args}); };`)(W);
  });
  const instance = new WebAssembly.Instance(module, { e: env });
  W.run = instance.exports["run"] as (lo: number, hi: number) => void;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the caller's generated source, its loop replaced by the call above
  return new Function("rules", "__W", tr.source)(rules, W) as F;
}

/** Why the last translation failed (for tests and benches). @internal */
export let lastFailure: string | undefined;

/** Calls whose loop ran in WebAssembly (for tests: the wrapper's checks held). @internal */
export const WASM_STATS = { runs: 0 };
