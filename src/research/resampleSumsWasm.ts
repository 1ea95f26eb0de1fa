/**
 * The SPA's hot loop as a WebAssembly function (SIMD, two doubles an instruction), assembled here from its
 * instructions: `sums(ps, stride, starts, lengths, j0, j1, out)` sets, for every lane l of a tile (byte offsets, 16
 * bytes = two lanes a step),
 *
 *   out[l] = 0; for j in j0..j1-1: out[l] = out[l] + (ps[hi_j + l] - ps[lo_j + l]),
 *   lo_j = ps + starts[j] · stride, hi_j = lo_j + lengths[j] · stride
 *
 * i.e. a stationary-bootstrap resample's sums from prefix sums, run after run in the runs' order. `f64x2.sub` and
 * `f64x2.add` round as the scalar operations do (IEEE 754, no fused multiply-add), so every lane holds the same
 * double the loop written in JavaScript gave; V8 compiled that loop to scalar code with bounds checks, at about
 * 3 ns a lane.
 * @internal
 */

/** Unsigned LEB128 of a non-negative integer. */
function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** A section: id, then its byte length and bytes. */
function section(id: number, bytes: number[]): number[] {
  return [id, ...leb(bytes.length), ...bytes];
}

const get = (i: number): number[] => [0x20, i];
const set = (i: number): number[] => [0x21, i];
const i32 = (n: number): number[] => [0x41, ...leb(n)];
const ADD = 0x6a;
const MUL = 0x6c;
const GE_U = 0x4f;
const LOAD_I32 = [0x28, 2, 0]; // align 4, offset 0
const V128_LOAD = [0xfd, 0x00, 3, 0]; // align 8 (a tile's rows are 8-byte aligned), offset 0
const V128_STORE = [0xfd, 0x0b, 3, 0];
const V128_ZERO = [0xfd, 0x0c, ...new Array<number>(16).fill(0)];
const F64X2_ADD = [0xfd, ...leb(240)];
const F64X2_SUB = [0xfd, ...leb(241)];
/** `while (a < b) { body }` as block/loop: exit when a >= b (unsigned). */
const whileLess = (a: number, b: number, body: number[]): number[] => [0x02, 0x40, 0x03, 0x40, ...get(a), ...get(b), GE_U, 0x0d, 1, ...body, 0x0c, 0, 0x0b, 0x0b];

// params: 0 ps, 1 stride, 2 starts, 3 lengths, 4 j (from j0), 5 j1, 6 out; locals: 7 o, 8 lo, 9 hi, 10 end (of out)
const [PS, STRIDE, STARTS, LENGTHS, J, J1, OUT, O, LO, HI, END] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
const bump = (i: number): number[] => [...get(i), ...i32(16), ADD, ...set(i)];
const body = [
  ...get(OUT), ...get(STRIDE), ADD, ...set(END),
  ...get(OUT), ...set(O),
  ...whileLess(O, END, [...get(O), ...V128_ZERO, ...V128_STORE, ...bump(O)]),
  ...whileLess(J, J1, [
    ...get(PS), ...get(STARTS), ...get(J), ...i32(4), MUL, ADD, ...LOAD_I32, ...get(STRIDE), MUL, ADD, ...set(LO),
    ...get(LO), ...get(LENGTHS), ...get(J), ...i32(4), MUL, ADD, ...LOAD_I32, ...get(STRIDE), MUL, ADD, ...set(HI),
    ...get(OUT), ...set(O),
    // the three addresses move together, 16 bytes a step: out[o] = out[o] + (hi[o] - lo[o])
    ...whileLess(O, END, [
      ...get(O),
      ...get(O), ...V128_LOAD,
      ...get(HI), ...V128_LOAD,
      ...get(LO), ...V128_LOAD,
      ...F64X2_SUB, ...F64X2_ADD, ...V128_STORE,
      ...bump(O), ...bump(HI), ...bump(LO),
    ]),
    ...get(J), ...i32(1), ADD, ...set(J),
  ]),
  0x0b,
];
const fn = [1, 4, 0x7f, ...body]; // one local group: 4 × i32
const BYTES = Uint8Array.from([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  ...section(1, [1, 0x60, 7, ...new Array<number>(7).fill(0x7f), 0]), // type 0: (i32 × 7) -> ()
  ...section(2, [1, 1, 0x65, 1, 0x6d, 0x02, 0x00, 1]), // import "e"."m": memory, at least 1 page
  ...section(3, [1, 0]), // function 0 has type 0
  ...section(7, [1, 1, 0x73, 0x00, 0]), // export "s" = function 0
  ...section(10, [1, ...leb(fn.length), ...fn]),
]);

/** The few WebAssembly constructors used here (the compiler's ES2022 + node library has no WebAssembly types). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
let compiled: object | undefined;

/** `sums(ps, stride, starts, lengths, j0, j1, out)`: byte offsets into `buffer`, as the header says. @internal */
export type ResampleSums = (ps: number, stride: number, starts: number, lengths: number, j0: number, j1: number, out: number) => void;

/**
 * The largest memory kept from one call to the next (64 MiB: an SPA of ~250 variants x 2,880 bars). A fresh memory
 * per call cost its pages' faults (~12 us a 4 KiB page on the 2-vCPU VM) and the mapping of V8's guard region: in
 * the verdict's Monte Carlo (1,600 SPA calls of ~1 MB) most of the run's system time.
 */
const KEEP_BYTES = 64 << 20;
let kept: { readonly memory: WasmMemory; readonly sums: ResampleSums } | undefined;

/**
 * A WebAssembly memory of at least `bytes` bytes (at most 4 GiB) and the resample-sums function over it: the
 * thread's one kept memory, grown as needed, when `bytes` is at most 64 MiB (its contents are whatever the last
 * caller left: a caller writes every byte it reads), a fresh one above. The module is compiled once per process.
 * Not re-entrant: the buffer is the caller's until it returns (spaKernel is synchronous).
 * @internal
 */
export function resampleSumsMemory(bytes: number): { readonly buffer: ArrayBuffer; readonly sums: ResampleSums } {
  compiled ??= new wasm.Module(BYTES);
  const pages = Math.max(1, Math.ceil(bytes / 65536));
  if (bytes > KEEP_BYTES) return instantiate(new wasm.Memory({ initial: pages }));
  kept ??= instantiate(new wasm.Memory({ initial: pages }));
  const have = kept.memory.buffer.byteLength / 65536;
  if (have < pages) kept.memory.grow(pages - have);
  return { buffer: kept.memory.buffer, sums: kept.sums };
}

function instantiate(memory: WasmMemory): { readonly memory: WasmMemory; readonly buffer: ArrayBuffer; readonly sums: ResampleSums } {
  const instance = new wasm.Instance(compiled as object, { e: { m: memory } });
  return { memory, buffer: memory.buffer, sums: instance.exports["s"] as ResampleSums };
}
