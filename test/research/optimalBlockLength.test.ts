/**
 * optimalBlockLength against the arch package's formula (arch/bootstrap/base.py _single_optimal_block, Politis & White
 * 2004 with the 2009 correction), transcribed by hand in numpy (Debian /usr/bin/python3, numpy 1.24; arch itself is
 * not installed there) and run on the same series:
 *
 *   def pw(x):
 *       x = np.asarray(x, dtype=float); x = x[~np.isnan(x)]
 *       n = len(x); e = x - x.mean()
 *       b_max = np.ceil(min(3 * np.sqrt(n), n / 3))
 *       kn = max(5, int(np.log10(n))); m_max = int(np.ceil(np.sqrt(n))) + kn
 *       cv = 2 * np.sqrt(np.log10(n) / n)
 *       acv = np.zeros(m_max + 1); ac = np.zeros(m_max + 1); opt = None
 *       for i in range(m_max + 1):
 *           v1 = e[i + 1:] @ e[i + 1:]; v2 = e[: -(i + 1)] @ e[: -(i + 1)]
 *           c = e[i:] @ e[: n - i]
 *           acv[i] = c / n; ac[i] = abs(c) / np.sqrt(v1 * v2)
 *           if i >= kn and opt is None and np.all(ac[i - kn: i] < cv): opt = i - kn
 *       m = min(2 * max(opt, 1) if opt is not None else m_max, m_max)
 *       g = 0.0; lr = acv[0]
 *       for k in range(1, m + 1):
 *           lam = 1 if k / m <= 0.5 else 2 * (1 - k / m)
 *           g += 2 * lam * k * acv[k]; lr += 2 * lam * acv[k]
 *       return min(((2 * g ** 2) / (2 * lr ** 2)) ** (1 / 3) * n ** (1 / 3), b_max)
 *
 *   def ar1(n, phi):   # the same recurrence as ar1 below
 *       e = np.empty(n); x = 0.0
 *       for i in range(n):
 *           z = np.sin(i * 12.9898) * 43758.5453; z = z - np.floor(z) - 0.5
 *           x = phi * x + 0.01 * z; e[i] = x + 0.0004
 *       return e
 */
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/InvalidArgumentError.js";
import { optimalBlockLength, stationaryBootstrap } from "../../src/research/index.js";

function ar1(n: number, phi: number): Float64Array {
  const e = new Float64Array(n);
  let x = 0;
  for (let i = 0; i < n; i++) {
    let z = Math.sin(i * 12.9898) * 43758.5453;
    z = z - Math.floor(z) - 0.5;
    x = phi * x + 0.01 * z;
    e[i] = x + 0.0004;
  }
  return e;
}

function close(actual: number, expected: number, rel = 1e-8): void {
  if (!(Math.abs(actual - expected) <= rel * Math.abs(expected))) expect.fail(`expected ${actual} to be within ${rel} (relative) of ${expected}`);
}

describe("optimalBlockLength (Politis & White 2004 / Patton, Politis & White 2009, as arch computes it)", () => {
  it("matches the numpy transcription of arch: long blocks for persistent series, short for independent ones", () => {
    close(optimalBlockLength(ar1(500, 0.6)), 11.275829736967358);
    close(optimalBlockLength(ar1(2000, 0.9)), 64.87110212595087);
    close(optimalBlockLength(ar1(1000, 0)), 1.3047858869943731);
    // the slow sine of stationaryBootstrap.test.ts (n = 400)
    close(optimalBlockLength(Float64Array.from({ length: 400 }, (_, t) => 0.0005 + 0.01 * Math.sin(t / 15) + 0.004 * Math.sin(2.3 * t))), 28.69648557709236);
  });
  it("caps at ceil(min(3 sqrt(n), n / 3)), and works from 8 values (arch's minimum): 3.0 on 8", () => {
    expect(optimalBlockLength(ar1(8, 0.6))).toBe(3);
  });
  it("drops NaN, does not mutate, and is NaN on empty, short or constant input", () => {
    const x = ar1(500, 0.6);
    const withNaN = Float64Array.from([Number.NaN, ...x.subarray(0, 200), Number.NaN, ...x.subarray(200)]);
    const copy = Float64Array.from(withNaN);
    close(optimalBlockLength(withNaN), 11.275829736967358);
    expect(Array.from(withNaN)).toEqual(Array.from(copy));
    expect(optimalBlockLength([])).toBeNaN();
    expect(optimalBlockLength([0.01])).toBeNaN();
    expect(optimalBlockLength(ar1(7, 0.6))).toBeNaN();
    expect(optimalBlockLength(new Float64Array(50).fill(0.01))).toBeNaN();
    expect(() => optimalBlockLength(null as never)).toThrow(InvalidArgumentError);
  });
  it("is stationaryBootstrap's default mean block (at least 1)", () => {
    const x = ar1(500, 0.6);
    expect(stationaryBootstrap(x, { draws: 30, seed: 4, periodsPerYear: 365 })).toEqual(stationaryBootstrap(x, { draws: 30, seed: 4, periodsPerYear: 365, meanBlock: optimalBlockLength(x) }));
    // undefined (5 returns): the rule of thumb ceil(5^(1/3)) = 2
    const five = [0.01, -0.02, 0.015, 0.003, -0.004];
    expect(stationaryBootstrap(five, { draws: 30, seed: 4, periodsPerYear: 365 })).toEqual(stationaryBootstrap(five, { draws: 30, seed: 4, periodsPerYear: 365, meanBlock: 2 }));
  });
});
