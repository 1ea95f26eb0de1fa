/**
 * effectiveTrials: the effective rank (exp of the entropy of the normalised correlation
 * eigenvalues, Roy & Vetterli 2007) against numpy, spawned here:
 *
 *   X = np.array(variants)            # N x T, the variants with variance
 *   lam = np.clip(np.linalg.eigvalsh(np.corrcoef(X)), 0, None); p = lam / lam.sum()
 *   n_eff = np.exp(-(p[p > 0] * np.log(p[p > 0])).sum())
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { effectiveTrials, InvalidArgumentError } from "../../src/index.js";
import { symmetricEigenvalues } from "../../src/research/symmetricEigenvalues.js";
import { createRng } from "../../src/random/prng.js";

const PY = [
  "import sys, json, numpy as np",
  "X = np.array(json.load(sys.stdin))",
  "lam = np.clip(np.linalg.eigvalsh(np.corrcoef(X)), 0, None); p = lam / lam.sum(); p = p[p > 0]",
  "print(json.dumps(float(np.exp(-(p * np.log(p)).sum()))))",
].join("\n");
const numpyEffective = (variants: number[][]): number => {
  const out = spawnSync("/usr/bin/python3", ["-c", PY], { input: JSON.stringify(variants), encoding: "utf8" });
  if (out.status !== 0) throw new Error(out.stderr);
  return JSON.parse(out.stdout) as number;
};

describe("effectiveTrials", () => {
  const rng = createRng(12);
  const T = 300;
  const noise = () => Array.from({ length: T }, () => 0.01 * rng.normal());
  // 3 families of 10 near-identical variants (a common series plus 5 % noise) and 5 independent ones
  const families = Array.from({ length: 3 }, () => noise()).flatMap((base) => Array.from({ length: 10 }, () => base.map((x) => x + 0.0005 * rng.normal())));
  const variants = [...families, ...Array.from({ length: 5 }, noise)];

  it("equals numpy's exp(entropy) of the correlation eigenvalues; 35 variants in 3 families of 10 + 5 loners count as about 4.9", () => {
    const e = effectiveTrials(variants);
    const ref = numpyEffective(variants);
    expect(e.effective).toBeCloseTo(ref, 9);
    expect(e.raw).toBe(35);
    expect(e.method).toBe("correlation eigenvalue entropy");
    // by hand, eigenvalues ≈ (10, 10, 10, 1, 1, 1, 1, 1): H = 3·(10/35)·ln 3.5 + 5·(1/35)·ln 35 = 1.582, exp(H) = 4.86
    // (the entropy weighs each direction by its share of the variance: a family of 10 counts more than a loner)
    expect(e.effective).toBeGreaterThan(4.5);
    expect(e.effective).toBeLessThan(5.3);
  });

  it("independent variants count about one each; identical ones once; never-trading ones once together", () => {
    const ind = Array.from({ length: 20 }, noise);
    expect(effectiveTrials(ind).effective).toBeCloseTo(numpyEffective(ind), 9);
    expect(effectiveTrials(ind).effective).toBeGreaterThan(15);
    const a = noise();
    expect(effectiveTrials([a, a, a]).effective).toBeCloseTo(1, 6);
    const idle = new Array<number>(T).fill(0);
    const withIdle = effectiveTrials([...ind, idle, idle, idle]);
    expect(withIdle.effective).toBeCloseTo(numpyEffective(ind) + 1, 9);
    expect(withIdle.raw).toBe(23);
    expect(effectiveTrials([idle]).effective).toBe(1);
  });

  it("uses the bars where every variant has a return (NaN at bar 0 of a sweep's series)", () => {
    const withNaN = variants.map((r) => [Number.NaN, ...r]);
    expect(effectiveTrials(withNaN).effective).toBeCloseTo(effectiveTrials(variants).effective, 12);
  });

  it("does not mutate its input and rejects bad arguments", () => {
    const copy = variants.map((r) => [...r]);
    effectiveTrials(variants);
    expect(variants).toEqual(copy);
    expect(() => effectiveTrials([])).toThrow(InvalidArgumentError);
    expect(() => effectiveTrials([[1, 2], [1]])).toThrow(/effectiveTrials: every variant needs one return per bar \(2, like variant 0\), got 1 in variant 1/);
  });

  it("symmetricEigenvalues matches numpy's eigvalsh", () => {
    const n = 40;
    const m = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) m[i * n + j] = m[j * n + i] = rng.normal();
    const out = spawnSync("/usr/bin/python3", ["-c", "import sys, json, numpy as np; d = json.load(sys.stdin); print(json.dumps(np.linalg.eigvalsh(np.array(d).reshape(40, 40)).tolist()))"], { input: JSON.stringify(Array.from(m)), encoding: "utf8" });
    const ref = JSON.parse(out.stdout) as number[];
    const got = symmetricEigenvalues(m, n);
    ref.forEach((x, i) => expect(got[i]).toBeCloseTo(x, 10));
    expect(Array.from(symmetricEigenvalues(Float64Array.of(2, 1, 1, 2), 2))).toEqual([expect.closeTo(1, 14), expect.closeTo(3, 14)]);
    expect(symmetricEigenvalues([], 0).length).toBe(0);
  });
});
