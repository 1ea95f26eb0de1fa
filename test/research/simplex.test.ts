/**
 * simplexGrid and randomSimplex: counts against the stars-and-bars formula
 * (python3: `math.comb(14, 4)` = 1001, `math.comb(24, 4)` = 10626, `math.comb(6, 2)` = 15),
 * exact grid weights, and the uniform Dirichlet's marginals against their Beta laws
 * with a Kolmogorov-Smirnov bound (python3: `scipy.stats.kstwo.ppf(0.99, 20000)` = 0.01150).
 */
import { describe, expect, it } from "vitest";
import { COMPONENT_NAMES, InvalidArgumentError, randomSimplex, simplexGrid } from "../../src/index.js";
import { mulberry32 } from "../support/mulberry32.js";

const sum = (w: Readonly<Record<string, number>>): number => Object.values(w).reduce((a, b) => a + b, 0);

describe("simplexGrid", () => {
  it("has 1,001 vectors for the five components at 0.1 and 10,626 at 0.05", () => {
    expect(simplexGrid(COMPONENT_NAMES, 0.1)).toHaveLength(1001);
    expect(simplexGrid(COMPONENT_NAMES, 0.05)).toHaveLength(10626);
  });

  it("gives every weight as an exact multiple of the step and every vector once, summing to 1", () => {
    const g = simplexGrid(COMPONENT_NAMES, 0.1);
    const seen = new Set<string>();
    for (const w of g) {
      expect(Object.keys(w)).toEqual([...COMPONENT_NAMES]);
      const parts = Object.values(w).map((x) => Math.round(x * 10));
      // each weight is the double nearest parts/10: no drift along the grid
      Object.values(w).forEach((x, j) => expect(x).toBe((parts[j] as number) / 10));
      expect(parts.reduce((a, b) => a + b, 0)).toBe(10);
      expect(Math.abs(sum(w) - 1)).toBeLessThan(1e-15);
      seen.add(parts.join(","));
    }
    expect(seen.size).toBe(1001);
  });

  it("enumerates the same set as nested loops (3 components at 0.25: C(6, 2) = 15)", () => {
    const expected: string[] = [];
    for (let a = 0; a <= 4; a++) for (let b = 0; a + b <= 4; b++) expected.push(`${a},${b},${4 - a - b}`);
    const got = simplexGrid(["a", "b", "c"], 0.25).map((w) => [w["a"], w["b"], w["c"]].map((x) => (x as number) * 4).join(","));
    expect(got.sort()).toEqual(expected.sort());
    expect(got).toHaveLength(15);
  });

  it("starts with all weight on the first component and ends with all on the last", () => {
    const g = simplexGrid(["a", "b"], 0.5);
    expect(g).toEqual([{ a: 1, b: 0 }, { a: 0.5, b: 0.5 }, { a: 0, b: 1 }]);
  });

  it("handles one component and step 1", () => {
    expect(simplexGrid(["a"], 0.1)).toEqual([{ a: 1 }]);
    expect(simplexGrid(["a", "b", "c"], 1)).toEqual([{ a: 1, b: 0, c: 0 }, { a: 0, b: 1, c: 0 }, { a: 0, b: 0, c: 1 }]);
  });

  it("does not modify the component list", () => {
    const names = ["x", "y"];
    simplexGrid(names, 0.5);
    expect(names).toEqual(["x", "y"]);
  });

  it("rejects steps that do not divide 1, empty or doubled components, and grids too large", () => {
    for (const step of [0.3, 0, -0.1, Number.NaN, 2, Number.POSITIVE_INFINITY]) {
      expect(() => simplexGrid(COMPONENT_NAMES, step)).toThrow(InvalidArgumentError);
    }
    expect(() => simplexGrid(COMPONENT_NAMES, 0.3)).toThrow(/simplexGrid: step must be 1\/m/);
    expect(() => simplexGrid([], 0.1)).toThrow(/components must be a non-empty array/);
    expect(() => simplexGrid(["a", "a"], 0.1)).toThrow(/listed twice/);
    expect(() => simplexGrid(COMPONENT_NAMES, 0.001)).toThrow(/use a larger step, or sample with randomSimplex/);
  });
});

/** Kolmogorov-Smirnov distance between a sample and a continuous CDF. */
function ksDistance(sample: number[], cdf: (x: number) => number): number {
  const s = [...sample].sort((a, b) => a - b);
  const n = s.length;
  let d = 0;
  s.forEach((x, i) => {
    const f = cdf(x);
    d = Math.max(d, (i + 1) / n - f, f - i / n);
  });
  return d;
}

describe("randomSimplex", () => {
  it("draws non-negative vectors over COMPONENT_NAMES summing to 1", () => {
    const r = randomSimplex(500, { seed: 1 });
    expect(r).toHaveLength(500);
    for (const w of r) {
      expect(Object.keys(w)).toEqual([...COMPONENT_NAMES]);
      expect(Math.abs(sum(w) - 1)).toBeLessThan(1e-12);
      for (const x of Object.values(w)) expect(x).toBeGreaterThanOrEqual(0);
    }
  });

  it("is uniform on the simplex: w_1 ~ Beta(1, 4) and w_1 + w_2 ~ Beta(2, 3) (Dirichlet aggregation)", () => {
    const r = randomSimplex(20000, { seed: 1 });
    const first = r.map((w) => w["imbalance"] as number);
    const pair = r.map((w) => (w["imbalance"] as number) + (w["funding"] as number));
    // Beta(1, 4) CDF: 1 - (1 - x)^4; Beta(2, 3) CDF: the regularised incomplete beta I_x(2, 3) = 6x^2 - 8x^3 + 3x^4
    expect(ksDistance(first, (x) => 1 - (1 - x) ** 4)).toBeLessThan(0.0115);
    expect(ksDistance(pair, (x) => 6 * x ** 2 - 8 * x ** 3 + 3 * x ** 4)).toBeLessThan(0.0115);
    // the bound has power: normalised uniforms (a common mistake) fail it
    const rnd = mulberry32(1);
    const wrong = Array.from({ length: 20000 }, () => {
      const u = [rnd(), rnd(), rnd(), rnd(), rnd()];
      return (u[0] as number) / u.reduce((x, y) => x + y, 0);
    });
    expect(ksDistance(wrong, (x) => 1 - (1 - x) ** 4)).toBeGreaterThan(0.0115);
  });

  it("is reproducible by seed and differs between seeds", () => {
    expect(randomSimplex(3, { seed: 5 })).toEqual(randomSimplex(3, { seed: 5 }));
    expect(randomSimplex(3, { seed: 5 })).not.toEqual(randomSimplex(3, { seed: 6 }));
  });

  it("takes its own component names and n = 0", () => {
    expect(randomSimplex(0)).toEqual([]);
    const [w] = randomSimplex(1, { seed: 2, components: ["a", "b"] });
    expect(Object.keys(w as object)).toEqual(["a", "b"]);
    expect(randomSimplex(1, { components: ["solo"] })).toEqual([{ solo: 1 }]);
  });

  it("rejects a bad n, seed or component list", () => {
    expect(() => randomSimplex(-1)).toThrow(/n must be a whole number/);
    expect(() => randomSimplex(1.5)).toThrow(InvalidArgumentError);
    expect(() => randomSimplex(2, { seed: 0.5 })).toThrow(/seed must be an integer/);
    expect(() => randomSimplex(2, { components: [] })).toThrow(/components must be a non-empty array/);
  });
});
