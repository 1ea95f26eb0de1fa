/**
 * stationaryResample: one stationary-bootstrap resample (Politis & Romano 1994) written into a reused buffer.
 * References worked out from the definition, drawing the generator by hand:
 * - meanBlock 1 restarts at every bar: bar 0 is x[⌊u₀ n⌋], bar t ≥ 1 is x[⌊u n⌋] of the second of its two draws
 *   (the first is the restart test, always below 1);
 * - a block that never ends (meanBlock 1e12) is one rotation: x[(s + t) mod n], s = ⌊u₀ n⌋;
 * - the output is exactly overwritten (stale contents do not leak), x is not mutated, and n = 1 gives x.
 */
import { describe, expect, it } from "vitest";
import { createRng } from "../../src/random/prng.js";
import { stationaryResample } from "../../src/research/stationaryResample.js";

const n = 37;
const x = Float64Array.from({ length: n }, (_, t) => 100 + t);

function scratch(len: number): { out: Float64Array; starts: Int32Array; lengths: Int32Array } {
  return { out: new Float64Array(len).fill(Number.NaN), starts: new Int32Array(len), lengths: new Int32Array(len) };
}

describe("stationaryResample", () => {
  it("meanBlock 1 is the i.i.d. bootstrap: each bar from the second of its two uniform draws", () => {
    const { out, starts, lengths } = scratch(n);
    stationaryResample(x, 1, createRng(5), out, starts, lengths);
    const u = createRng(5);
    const expected = new Float64Array(n);
    expected[0] = x[Math.floor(u.uniform() * n)] as number;
    for (let t = 1; t < n; t++) {
      u.uniform();
      expected[t] = x[Math.floor(u.uniform() * n)] as number;
    }
    expect(Array.from(out)).toEqual(Array.from(expected));
  });

  it("a block that never ends is one rotation of the series, wrapping from the last bar to the first", () => {
    const { out, starts, lengths } = scratch(n);
    stationaryResample(x, 1e12, createRng(11), out, starts, lengths);
    const s = Math.floor(createRng(11).uniform() * n);
    expect(Array.from(out)).toEqual(Array.from({ length: n }, (_, t) => x[(s + t) % n]));
  });

  it("overwrites every bar of a reused buffer, draw after draw, and leaves x as it was", () => {
    const rng = createRng(3);
    const { out, starts, lengths } = scratch(n);
    const before = Array.from(x);
    for (let d = 0; d < 50; d++) {
      out.fill(Number.NaN);
      stationaryResample(x, 4, rng, out, starts, lengths);
      expect(out.every((v) => v >= 100 && v < 100 + n && Number.isInteger(v))).toBe(true);
    }
    expect(Array.from(x)).toEqual(before);
  });

  it("one bar gives that bar", () => {
    const { out, starts, lengths } = scratch(1);
    stationaryResample([0.5], 3, createRng(0), out, starts, lengths);
    expect(Array.from(out)).toEqual([0.5]);
  });
});
