/**
 * A process that sweeps a strategy whose variant 3 loops forever, on 2 worker
 * threads, and aborts the sweep 500 ms in. Prints `aborted <true|false> rows
 * <n> after <ms>` and then must exit by itself (the test waits for the exit).
 *
 * Run by plain node as a bundle (test/support/bundleChild.ts), the library from the built package
 * (`market-intel-lab`, the checkout itself through its self-dependency, as a user's script imports it;
 * its worker threads run dist/ in any case): ~1 s of CPU instead of ~5 s under `node --import tsx`
 * (measured 2026-11-28). The import is dynamic so that the bundle keeps it external and the types come
 * from the source.
 */
const pkg = "market-intel-lab";
const { sweepStrategy } = (await import(pkg)) as typeof import("../../../src/research/index.js");

const n = 400;
const close = Float64Array.from({ length: n }, (_, i) => 100 + Math.sin(i / 7) * 5 + i * 0.01);
const time = Float64Array.from({ length: n }, (_, i) => Date.UTC(2026, 0, 1) + i * 3_600_000);
const strategy = (c: Readonly<Record<string, Float64Array>>, p: Readonly<Record<string, unknown>>): Float64Array => {
  if (p["k"] === 3) for (;;) {
    // a runaway variant
  }
  const out = new Float64Array((c["close"] as Float64Array).length);
  for (let i = 1; i < out.length; i++) out[i] = (c["close"] as Float64Array)[i]! > (c["close"] as Float64Array)[i - 1]! ? 1 : 0;
  return out;
};
const ac = new AbortController();
const t0 = Date.now();
let abortedAt = 0;
setTimeout(() => {
  abortedAt = Date.now();
  ac.abort();
}, 500);
const r = await sweepStrategy(strategy, { data: { time, close }, grid: { k: Array.from({ length: 24 }, (_, i) => i) }, workers: 2, signal: ac.signal, periodsPerYear: 8760 });
process.stdout.write(`aborted ${r.aborted} rows ${r.length} after ${Date.now() - t0} ms, ${Date.now() - abortedAt} ms after abort()\n`);
