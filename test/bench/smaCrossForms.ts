/**
 * V8's view of the guide's `smaCross` (issue 32, item 3): `npx tsx test/bench/smaCrossForms.ts [BARS] [ROUNDS]`.
 * Times, in ONE process and interleaved (the order rotated each round, so the machine's load drifts over every
 * form alike), the user's function of the yardsticks' SMA grid written several ways, each its own closure (its
 * own feedback and optimised code), into one reused column:
 * - "guide": test/support/smaCross.ts, the function the yardstick and the guide run;
 * - "guide, primed": the same text, first called 50 times on 512 bars, so V8 optimises the whole function from
 *   complete feedback instead of entering its loop on-stack-replaced (OSR) on the first 500k-bar call;
 * - "split": the warm-up bars in their own loops (no window test a bar), the steady loop with running indexes;
 * - "select": the compare as `2 * +(f / fast > s / slow) - 1` (a boolean to a number, no ternary).
 * Every form computes the same sums in the same order: before timing, each one's targets are compared with the
 * guide's bit for bit over the whole 20 x 20 grid (a difference exits 1). Prints ms a call, best and median of
 * ROUNDS (default 8) rounds of 40 calls, and the load. Trace V8 with
 * `node --import tsx --trace-opt --trace-deopt test/bench/smaCrossForms.ts 2>&1 | grep -i smaCross`.
 * numba's own split of the grid (its sma_cross and position_metrics apart): test/bench/smaParts_numba.py.
 * No timing is asserted anywhere.
 */
import { loadavg } from "node:os";
import { generateBars } from "./backtestData.js";
import { smaCross } from "../support/smaCross.js";
import { median } from "./median.js";

type Fn = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, number>>, out: Float64Array) => Float64Array;
const n = Math.round(Number(process.argv[2] ?? 5e5));
const ROUNDS = Number(process.argv[3] ?? 8);
const close = generateBars(n, 42).close;
const FAST = Array.from({ length: 20 }, (_, i) => 5 + i);
const SLOW = Array.from({ length: 20 }, (_, i) => 30 + 10 * i);

const SPLIT = `(c, p, out) => {
  const close = c["close"], fast = p["fast"], slow = p["slow"], n = close.length;
  let f = 0, s = 0, i = 0;
  for (; i < fast && i < n; i++) { f += close[i]; s += close[i]; if (i + 1 >= slow) out[i] = f / fast > s / slow ? 1 : -1; }
  for (; i < slow && i < n; i++) { f += close[i]; f -= close[i - fast]; s += close[i]; if (i + 1 >= slow) out[i] = f / fast > s / slow ? 1 : -1; }
  for (let j = i - fast, k = i - slow; i < n; i++, j++, k++) {
    const x = close[i];
    f += x; f -= close[j];
    s += x; s -= close[k];
    out[i] = f / fast > s / slow ? 1 : -1;
  }
  return out;
}`;
const SELECT = `(c, p, out) => {
  const close = c["close"], fast = p["fast"], slow = p["slow"], n = close.length;
  let f = 0, s = 0;
  for (let i = 0; i < n; i++) {
    const x = close[i]; f += x; s += x;
    if (i >= fast) f -= close[i - fast];
    if (i >= slow) s -= close[i - slow];
    out[i] = i + 1 < slow ? 0 : 2 * +(f / fast > s / slow) - 1;
  }
  return out;
}`;
const build = (text: string): Fn => new Function(`return (${text});`)() as Fn;
const primed = build(smaCross.toString());
{
  const c = Object.freeze({ close: close.subarray(0, Math.min(512, n)) });
  const o = new Float64Array(c.close.length);
  for (let k = 0; k < 50; k++) primed(c, Object.freeze({ fast: 5 + (k % 20), slow: 30 + 10 * (k % 20) }), o);
}
const forms: [string, Fn][] = [
  ["guide", smaCross as unknown as Fn],
  ["guide, primed", primed],
  ["split", build(SPLIT)],
  ["select", build(SELECT)],
];

// the same targets, bit for bit, for every variant of the grid (out zeroed before each call, as the sweep does)
const ref = new Float64Array(n);
const got = new Float64Array(n);
const bytes = (a: Float64Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
for (const fast of FAST) {
  for (const slow of SLOW) {
    ref.fill(0);
    smaCross(Object.freeze({ close }), Object.freeze({ fast, slow }), ref);
    for (const [name, fn] of forms.slice(2)) {
      got.fill(0);
      fn(Object.freeze({ close }), Object.freeze({ fast, slow }), got);
      if (!bytes(got).equals(bytes(ref))) {
        console.error(`${name} differs from the guide's smaCross at fast ${fast}, slow ${slow}`);
        process.exit(1);
      }
    }
  }
}

const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
};
const out = new Float64Array(n);
const times = new Map<string, number[]>(forms.map(([name]) => [name, []]));
let sink = 0;
for (let r = 0; r < ROUNDS; r++) {
  const order = forms.map((_, j) => forms[(j + r) % forms.length] as [string, Fn]);
  for (const [name, fn] of order) {
    const t0 = cpu();
    for (let q = 0; q < 40; q++) sink += fn(Object.freeze({ close }), Object.freeze({ fast: FAST[q % 20] as number, slow: SLOW[(q * 7) % 20] as number }), out)[n - 1] as number;
    (times.get(name) as number[]).push((cpu() - t0) / 40);
  }
}
console.log(`smaCross written four ways, ${n} bars, ms of process CPU a call (best / median of ${ROUNDS} rounds of 40 calls, interleaved); load ${loadavg().map((x) => x.toFixed(1)).join(" ")}; every form's targets equal the guide's over the 20 x 20 grid`);
for (const [name] of forms) {
  const ts = times.get(name) as number[];
  console.log(`  ${name.padEnd(14)} best ${Math.min(...ts).toFixed(3)}  median ${median(ts).toFixed(3)}`);
}
if (!Number.isFinite(sink)) console.log(sink);
