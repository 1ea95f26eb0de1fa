/**
 * Every number the resampling statistics give on fixed inputs, for a before/after comparison of a change that must
 * not move them (`npx tsx test/bench/bootstrapOutputs.ts --write FILE`, then `--compare FILE`: exit 1 unless this
 * run's JSON is byte-identical to FILE's). Inputs: verdictFamilies' matrices (every family, test size, 3 seeds).
 * Per matrix: superiorPredictiveAbility (199 draws; default mean block, and a fixed one of 3.5 bars: p-values, t,
 * mean block, Romano–Wolf), optimalBlockLength of every variant, assessSweep (8 splits: PBO, effectiveTrials, DSR,
 * verdict), stationaryBootstrap of the first variant (300 draws) and performanceBand of it (200 draws x 50 bars).
 * Also optimalBlockLength of AR(1) series (phi -0.5..0.99, n 0..2000, NaN, constant) and of persistent series.
 * Prints the process CPU time of the whole run.
 */
import { parseArgs } from "node:util";
import { performanceBand } from "../../src/paper/performanceBand.js";
import { createRng, mixSeed } from "../../src/random/prng.js";
import { optimalBlockLength } from "../../src/research/optimalBlockLength.js";
import { stationaryBootstrap } from "../../src/research/stationaryBootstrap.js";
import { superiorPredictiveAbility } from "../../src/research/superiorPredictiveAbility.js";
import { assessSweep } from "../../src/research/assessSweep.js";
import { generate, matrixSweep, NULL_FAMILIES, PLANTED_FAMILIES } from "../research/verdictFamilies.js";
import { writeOrCompare } from "./snapshot.js";

const { values: args } = parseArgs({ options: { write: { type: "string" }, compare: { type: "string" } } });
const t0 = process.cpuUsage();
const out: Record<string, unknown> = {};
for (const family of [...NULL_FAMILIES, ...PLANTED_FAMILIES]) {
  for (let r = 0; r < 3; r++) {
    const m = generate(family, mixSeed(2028, r), "test");
    const spa = superiorPredictiveAbility(m.returns, { seed: r, draws: 199 });
    const spaFixed = superiorPredictiveAbility(m.returns, { seed: r + 10, draws: 199, meanBlock: 3.5 });
    const a = assessSweep(matrixSweep(m), { splits: 8, seed: r });
    const first = m.returns[0] as Float64Array;
    const boot = stationaryBootstrap(first, { seed: r, draws: 300, periodsPerYear: 365 });
    const band = performanceBand(first, { seed: r, draws: 200, horizonBars: 50, level: 0.05 });
    out[`${family}/${r}`] = { spa, spaFixed, blocks: m.returns.map((x) => optimalBlockLength(x)), assess: a, boot, band };
  }
}
const rng = createRng(99);
const series: number[] = [];
for (const n of [0, 1, 2, 7, 8, 9, 20, 60, 100, 365, 500, 1000, 2000]) {
  for (const phi of [-0.5, 0, 0.3, 0.7, 0.95, 0.99]) {
    const x = new Float64Array(n);
    let prev = 0;
    for (let t = 0; t < n; t++) x[t] = prev = phi * prev + rng.normal();
    if (n > 10 && phi === 0.3) x[3] = Number.NaN;
    series.push(optimalBlockLength(x));
  }
  series.push(optimalBlockLength(new Float64Array(n).fill(0.01)));
  series.push(optimalBlockLength(Float64Array.from({ length: n }, (_, t) => t * 1e-3)));
}
out["optimalBlockLength"] = series;
const u = process.cpuUsage(t0);
console.log(`process CPU ${((u.user + u.system) / 1e6).toFixed(2)} s (user ${(u.user / 1e6).toFixed(2)}, sys ${(u.system / 1e6).toFixed(2)})`);
writeOrCompare(out, args);
