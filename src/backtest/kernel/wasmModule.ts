/**
 * The few pieces of the WebAssembly binary format (https://webassembly.github.io/spec/core/binary/)
 * that wasmLoop.ts emits: one module importing a memory and some functions and exporting one
 * function, whose body is a byte list of instructions (`Code`). Not a general assembler: the
 * engine's `new WebAssembly.Module(bytes)` validates what is emitted (a malformed body throws,
 * and the caller falls back to the JavaScript loop).
 *
 * Why not binaryen (the library made for this): loading its 15 MB module costs ~0.47 s of CPU
 * (0.68-0.76 s wall, measured 2026-11-25 20:33 UTC at load 3.0), once per process and once per
 * worker thread, against a whole first sweep of ~0.7 s; this file is ~100 lines, and V8 compiles
 * (and optimises) the module itself. See docs/benchmarks.md, "WebAssembly sweep pass".
 * @internal
 */

/** Value types. */
export const I32 = 0x7f;
export const F64 = 0x7c;
export type ValType = typeof I32 | typeof F64;

/** Instructions used (opcodes of the core spec). */
export const OP = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  call: 0x10,
  drop: 0x1a,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  f64Load: 0x2b,
  f64Store: 0x39,
  i32Const: 0x41,
  f64Const: 0x44,
  i32Eqz: 0x45,
  i32Eq: 0x46,
  i32Ne: 0x47,
  i32LtS: 0x48,
  i32GtS: 0x4a,
  i32LeS: 0x4c,
  i32GeS: 0x4e,
  f64Eq: 0x61,
  f64Ne: 0x62,
  f64Lt: 0x63,
  f64Gt: 0x64,
  f64Le: 0x65,
  f64Ge: 0x66,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32Shl: 0x74,
  f64Abs: 0x99,
  f64Neg: 0x9a,
  f64Ceil: 0x9b,
  f64Floor: 0x9c,
  f64Trunc: 0x9d,
  f64Sqrt: 0x9f,
  f64Add: 0xa0,
  f64Sub: 0xa1,
  f64Mul: 0xa2,
  f64Div: 0xa3,
  f64Min: 0xa4,
  f64Max: 0xa5,
  f64ConvertI32S: 0xb7,
} as const;

/** Block type of a block, loop or if with no result. */
export const VOID = 0x40;

/** A function body under construction: instruction bytes. */
export class Code {
  readonly bytes: number[] = [];
  op(...ops: number[]): this {
    for (const o of ops) this.bytes.push(o);
    return this;
  }
  u32(v: number): this {
    uleb(this.bytes, v);
    return this;
  }
  i32(v: number): this {
    this.bytes.push(OP.i32Const);
    sleb(this.bytes, v);
    return this;
  }
  f64(v: number): this {
    this.bytes.push(OP.f64Const);
    const b = new Uint8Array(new Float64Array([v]).buffer);
    for (const x of b) this.bytes.push(x);
    return this;
  }
  /** A memory access (load/store) with alignment 2^3 and a constant offset. */
  mem(op: number, offset: number): this {
    this.bytes.push(op);
    uleb(this.bytes, 3);
    uleb(this.bytes, offset);
    return this;
  }
}

/** A function signature. */
export interface Signature {
  readonly params: readonly ValType[];
  readonly results: readonly ValType[];
}

/**
 * A module: memory imported as `e.m`, functions imported as `e.f<n>` (signatures in order),
 * one exported function `run` (its signature, its extra locals, its body, without the final `end`).
 */
export function encodeModule(imports: readonly Signature[], run: Signature, locals: readonly ValType[], body: Code): Uint8Array {
  const out: number[] = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  const types = [...imports, run];
  section(out, 1, vec(types.map((t) => [0x60, ...vec(t.params.map((p) => [p])), ...vec(t.results.map((r) => [r]))])));
  const imp = [[...name("e"), ...name("m"), 0x02, 0x00, 0x01], ...imports.map((_, f) => [...name("e"), ...name(`f${f}`), 0x00, ...u(f)])];
  section(out, 2, vec(imp));
  section(out, 3, vec([u(imports.length)]));
  section(out, 7, vec([[...name("run"), 0x00, ...u(imports.length)]]));
  // Locals run-length encoded by type.
  const runs: number[][] = [];
  for (let a = 0; a < locals.length; ) {
    let b = a;
    while (b < locals.length && locals[b] === locals[a]) b++;
    runs.push([...u(b - a), locals[a] as number]);
    a = b;
  }
  const fn = [...vec(runs), ...body.bytes, OP.end];
  section(out, 10, vec([[...u(fn.length), ...fn]]));
  return Uint8Array.from(out);
}

function section(out: number[], id: number, content: number[]): void {
  out.push(id, ...u(content.length));
  for (const b of content) out.push(b);
}

function vec(items: readonly (readonly number[])[]): number[] {
  const out = u(items.length);
  for (const it of items) for (const b of it) out.push(b);
  return out;
}

function name(s: string): number[] {
  const b = [...new TextEncoder().encode(s)];
  return [...u(b.length), ...b];
}

function u(v: number): number[] {
  const out: number[] = [];
  uleb(out, v);
  return out;
}

function uleb(out: number[], v: number): void {
  do {
    let b = v & 0x7f;
    v >>>= 7;
    if (v !== 0) b |= 0x80;
    out.push(b);
  } while (v !== 0);
}

function sleb(out: number[], v: number): void {
  for (;;) {
    const b = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (b & 0x40) === 0) || (v === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return;
    }
    out.push(b | 0x80);
  }
}
