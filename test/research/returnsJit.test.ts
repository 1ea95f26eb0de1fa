import { describe, expect, it } from "vitest";
import { scaledMs } from "../support/timeScale.js";
import { traceChild, traceLines } from "../support/v8Trace.js";

// Issue 32 (item 1): assessSweep recomputes every variant's returns (returnsOf: one fused backtest pass each,
// variantLoop1). compositeTargets handed the loop `P.rows` (and `P.cols`, `P.scorers`) as the arrays
// Array.prototype.map returned, whose elements kind differs between an optimised and an interpreted caller; after
// compositeTargets was deoptimised (~1,500 variants in), the loop met a map it had not seen at `const row0 =
// P.rows[0]` and was thrown away mid-sweep ("wrong map", 4 of 4 fresh processes; in `milab demo` it then ran slower
// code for the rest of the process). The arrays are now built one way (packedArray): read from V8's own trace, no timing.
describe("the one-account loop under V8, as returnsOf runs it for every variant of a sweep", () => {
  it("is optimised and never deoptimised while 3,003 variants' returns are recomputed, in 2 fresh processes", async () => {
    const runs = await Promise.all([0, 1].map(() => traceChild(new URL("../support/sweepReturnsDeopts.ts", import.meta.url))));
    for (const res of runs) {
      expect(res.status, res.err).toBe(0);
      const lines = traceLines(res.out);
      const from = lines.indexOf("returns");
      expect(from).toBeGreaterThan(0);
      expect(lines.includes("done 3003 true")).toBe(true);
      const loop = (l: string): boolean => /JSFunction variantLoop1(Bar0)? /.test(l);
      expect(lines.slice(from).some((l) => loop(l) && l.includes("completed optimizing"))).toBe(true);
      expect(lines.slice(from).filter((l) => loop(l) && (l.includes("bailout") || l.includes("marking dependent code")))).toEqual([]);
    }
  }, scaledMs(90_000));
});
