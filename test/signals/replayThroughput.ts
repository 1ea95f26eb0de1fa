/**
 * Throughput of the signal kernels on one year of one-minute rows (525 600):
 * replayComposite (default model; and a 5-component custom-weights sweep step; its
 * label column read, which computes scores, composite and labels),
 * the same composite row by row through scoreComponents + compositeScore (the
 * record-based path a naive loop would take), componentsFromFeeds, realizedVol
 * (24h window), atr, classifyVolRegimesByPercentile (30-day lookback).
 * Run: `TZ=UTC npx tsx test/signals/replayThroughput.ts`. The machine is shared:
 * expect run-to-run noise of +-30 %; the median CPU time of 7 runs is printed.
 */
import {
  COMPONENT_NAMES,
  DEFAULT_WEIGHTS,
  atr,
  classifyVolRegimesByPercentile,
  componentsFromFeeds,
  compositeScore,
  realizedVol,
  replayComposite,
  scoreComponents,
} from "../../src/signals/index.js";
import { mulberry32 } from "./helpers.js";

const N = 525_600;
const rnd = mulberry32(42);
const values: Record<string, Float64Array> = {
  imbalance: Float64Array.from({ length: N }, () => rnd()),
  funding: Float64Array.from({ length: N }, () => (rnd() - 0.5) * 2e-4),
  basis_spread: Float64Array.from({ length: N }, () => (rnd() - 0.5) * 80),
  momentum_5m: Float64Array.from({ length: N }, () => (rnd() - 0.5) * 3),
  gas: Float64Array.from({ length: N }, () => rnd() * 3),
};
const close = new Float64Array(N);
close[0] = 90_000;
for (let i = 1; i < N; i++) close[i] = close[i - 1]! * Math.exp((rnd() - 0.5) * 0.002);
const high = close.map((c) => c * 1.0005);
const low = close.map((c) => c * 0.9995);

/** Median CPU time (user + system, ms) of `runs` calls: steadier than wall time on a shared machine. */
function median(f: () => unknown, runs = 7): number {
  const ms: number[] = [];
  f(); // warm-up: JIT compilation is not throughput
  for (let r = 0; r < runs; r++) {
    const t0 = process.cpuUsage();
    f();
    const d = process.cpuUsage(t0);
    ms.push((d.user + d.system) / 1000);
  }
  ms.sort((a, b) => a - b);
  return ms[Math.floor(runs / 2)]!;
}

function report(name: string, ms: number): void {
  console.log(`${name.padEnd(58)} ${ms.toFixed(1).padStart(8)} ms  ${((N / ms) * 1000 / 1e6).toFixed(1).padStart(6)} M rows/s`);
}

const sweepWeights = { imbalance: 0.4, funding: 0.2, basis_spread: 0.2, momentum_5m: 0.1, gas: 0.1 };
// The replay builds its columns on first access: each run reads the label column (scores,
// composite and labels computed) so the figure is the work, not the construction.
report("replayComposite (default model): label column", median(() => replayComposite(values).label));
report("replayComposite (other weights, threshold 0.15): label column", median(() => replayComposite(values, { weights: sweepWeights, threshold: 0.15 }).label));
report("replayComposite (from: scores): label column", median(() => replayComposite(values, { from: "scores" }).label));
report("replayComposite (default model): + confidence column", median(() => replayComposite(values).confidence));
report(
  "row by row: scoreComponents + compositeScore (records)",
  median(() => {
    const out = new Float64Array(N);
    const row: Record<string, number> = {};
    for (let i = 0; i < N; i++) {
      for (const c of COMPONENT_NAMES) row[c] = values[c]![i]!;
      out[i] = compositeScore(scoreComponents(row), { weights: DEFAULT_WEIGHTS });
    }
    return out;
  }, 3),
);
const feeds = { spotPrice: close, perpPrice: close.map((c) => c * 1.0003), bidShare: values["imbalance"]!, fundingRate: values["funding"]!, baseFeeGwei: values["gas"]! };
report("componentsFromFeeds (5 components)", median(() => componentsFromFeeds(feeds)));
report("realizedVol (window 24h = 1440)", median(() => realizedVol(close, { window: "24h" })));
report("atr (period 14)", median(() => atr(high, low, close)));
const vol = realizedVol(close, { window: "24h" });
report("classifyVolRegimesByPercentile (lookback 43 200)", median(() => classifyVolRegimesByPercentile(vol, { lookback: 43_200 }), 3));
