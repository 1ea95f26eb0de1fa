import { describe, expect, it } from "vitest";
import { InvalidArgumentError, sweepComposite } from "../../src/index.js";

const close = Float64Array.from({ length: 50 }, (_, i) => 100 + Math.sin(i));
const gas = Float64Array.from({ length: 50 }, (_, i) => Math.cos(i));

describe("sweepComposite's workers are bounded", () => {
  for (const workers of [1e9, 257, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "2"]) {
    it(`workers ${String(workers)} is refused with a typed error before any thread starts`, async () => {
      const run = sweepComposite({ close, gas }, { weights: [{ gas: 1 }], thresholds: [0.1], periodsPerYear: 8760, workers: workers as number });
      await expect(run).rejects.toThrow(InvalidArgumentError);
      await expect(run).rejects.toThrow(`sweepComposite: workers must be a whole number 0..256 (0 = the calling thread; about the number of cores is best), got ${String(workers)}`);
    });
  }

  it("0 and the bound's edge 1 run", async () => {
    for (const workers of [0, 1]) expect((await sweepComposite({ close, gas }, { weights: [{ gas: 1 }], thresholds: [0.1], periodsPerYear: 8760, workers })).length).toBe(1);
  });
});
