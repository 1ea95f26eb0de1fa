/**
 * What a sweep pass costs (`npx tsx test/bench/sweepProfile.ts`): the sweep bench's 128 variants
 * (32 random weight vectors x 4 thresholds) over 500k seeded bars, on the calling thread, timed
 * in process CPU time (robust on a shared machine): the whole sweepComposite (scoring included),
 * its plan alone (validation, scoring, layout), then its passes alone (evaluateVariants:
 * VARIANTS_PER_PASS variants per pass of one generated loop), per bar-evaluation.
 * BENCH_SWEEP_BARS overrides the size, BENCH_SWEEP_REPS the runs (best of).
 */
import { randomSimplex, sweepComposite } from "../../src/index.js";
import { evaluateVariants } from "../../src/research/evaluateVariants.js";
import { buildPlan } from "../../src/research/sweepComposite.js";
import { SWEEP_METRICS } from "../../src/research/sweepMetrics.js";
import { VARIANTS_PER_PASS } from "../../src/research/variantPass.js";
import { FEE_BPS, SLIPPAGE_BPS, generateBars } from "./backtestData.js";

const n = Math.round(Number(process.env["BENCH_SWEEP_BARS"] ?? 5e5));
const reps = Number(process.env["BENCH_SWEEP_REPS"] ?? 4);
const bars = generateBars(n, 42);
const input = { close: bars.close, imbalance: bars.imbalance, funding: bars.funding, basis_spread: bars.basis_spread, momentum_5m: bars.momentum_5m, gas: bars.gas };
const options = { weights: randomSimplex(32, { seed: 2024 }), thresholds: [0.05, 0.1, 0.15, 0.2], feeBps: FEE_BPS, slippageBps: SLIPPAGE_BPS, barFunding: bars.funding_bar, periodsPerYear: 525_600, workers: 0 };
const variants = options.weights.length * options.thresholds.length;
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
let whole = Number.POSITIVE_INFINITY;
let planning = Number.POSITIVE_INFINITY;
let passes = Number.POSITIVE_INFINITY;
const out = new Float64Array(SWEEP_METRICS.length * variants);
for (let r = 0; r < reps; r++) {
  let t = cpu();
  await sweepComposite(input, options);
  whole = Math.min(whole, cpu() - t);
  t = cpu();
  const { plan } = buildPlan(input, options, "sweepProfile");
  planning = Math.min(planning, cpu() - t);
  t = cpu();
  evaluateVariants(plan, 0, variants, out, 0, variants);
  passes = Math.min(passes, cpu() - t);
}
const rate = (s: number): string => `${((variants * n) / s / 1e6).toFixed(0)} M bar-evaluations per CPU-second, ${((s * 1e9) / (variants * n)).toFixed(1)} ns each`;
console.log(`${variants} variants x ${n} bars, ${VARIANTS_PER_PASS} per pass, best of ${reps} (process CPU time):`);
console.log(`  sweepComposite, calling thread       ${whole.toFixed(3)} s  ${rate(whole)}`);
console.log(`  its plan alone (checks, scoring)     ${planning.toFixed(3)} s`);
console.log(`  its passes alone (evaluateVariants)  ${passes.toFixed(3)} s  ${rate(passes)}`);
