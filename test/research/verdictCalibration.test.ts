/**
 * Is the verdict calibrated? A Monte Carlo over six families of skill-less sweeps (issue 28: independent
 * variants, near-duplicate clusters, mirrored pairs, few bars and many variants, fat-tailed GARCH returns,
 * rarely trading variants) and two families with a planted edge (a region of variants with a true annualised
 * Sharpe of 2.5 after fees), generated as return matrices by test/research/verdictFamilies.ts (which says how).
 * - In every null family "edge" comes out in at most 5 % + 2 standard errors of the sweeps.
 * - In the planted families "edge" comes out at least 90 % as often as a reference Hansen SPA written in numpy
 *   (test/research/reference/spa.py, run by /usr/bin/python3) rejects on the same matrices at the same block length.
 * Sizes and seeds: REPS matrices per null family (in their smaller "test" size, see generate), PLANTED_REPS per planted one, replication r seeded mixSeed(SEED, r); the SPA with DRAWS resamples
 * (seed r; the reference's numpy generator seeded SEED). The larger run (400 per family, 1,000 resamples, the
 * whole assessSweep) is `npx tsx test/research/verdictFamilies.ts 400`, reported in docs/guide.md.
 * The verdict is read through the same pieces assessSweep joins (checked below on a few matrices).
 */
import { describe, expect, it } from "vitest";
import { assessSweep } from "../../src/research/assessSweep.js";
import { mixSeed } from "../../src/random/prng.js";
import { fastVerdictOf, generate, matrixSweep, NULL_FAMILIES, PLANTED_FAMILIES, runFamily } from "./verdictFamilies.js";

const REPS = 200;
const PLANTED_REPS = 100;
const DRAWS = 199;
const SEED = 2028;
// generous: a busy machine must not fail the test; the run takes about a minute of CPU on a quiet one
const TIMEOUT = 1_800_000;
const bound = 0.05 + 2 * Math.sqrt((0.05 * 0.95) / REPS);

describe("the verdict on skill-less sweeps (Monte Carlo, 200 per family)", () => {
  for (const family of NULL_FAMILIES) {
    it(`${family}: "edge" in at most 5 % + 2 SE (${(100 * bound).toFixed(1)} %) of the sweeps`, () => {
      const r = runFamily(family, REPS, SEED, false, { draws: DRAWS }, "test");
      expect(r.edge, JSON.stringify(r.verdicts)).toBeLessThanOrEqual(bound);
    }, TIMEOUT);
  }
});

describe("the verdict on planted edges against a numpy Hansen SPA", () => {
  for (const family of PLANTED_FAMILIES) {
    it(`${family}: finds the edge at least 90 % as often as the reference SPA`, () => {
      const r = runFamily(family, PLANTED_REPS, SEED, true, { draws: DRAWS }, "test");
      expect(r.reference).toBeGreaterThan(0.3); // the comparison means something: the reference finds it often
      expect(r.edge, `${JSON.stringify(r.verdicts)} reference ${r.reference}`).toBeGreaterThanOrEqual(0.9 * r.reference);
    }, TIMEOUT);
  }
});

describe("the Monte Carlo reads the verdict assessSweep gives", () => {
  it("assessSweep's verdict is 'edge' exactly when the fast path's is, with the same SPA p-value", () => {
    for (const family of ["plantedGrid", "independent", "rare"] as const) {
      for (let r = 0; r < 3; r++) {
        const m = generate(family, mixSeed(SEED, r));
        const fast = fastVerdictOf(m, r, DRAWS);
        const a = assessSweep(matrixSweep(m), { splits: 8, seed: r, spa: { draws: DRAWS } });
        expect(a.spa.pValue).toBe(fast.spa);
        expect(a.verdict.verdict === "edge").toBe(fast.verdict === "edge");
      }
    }
  }, TIMEOUT);
});
