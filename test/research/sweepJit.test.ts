import { describe, expect, it } from "vitest";
import { scaledMs } from "../support/timeScale.js";
import { traceChild, traceLines } from "../support/v8Trace.js";

// Issue 20: the sweep pass's generated loop (variantLoop4) used to be optimised before some of its
// accounts had left their idle path, been short, or before a label had taken its second branch;
// the first such bar deoptimised it ("Insufficient type feedback for compare operation"), and
// when that fell during the loop's concurrent on-stack-replacement compile, V8 ran the slower
// OSR code for the rest of the process (~1.8-2.6x slower sweeps in some processes). Primed over
// a few synthetic bars (variantPass.ts, primingPlan), the loop is compiled once, from complete
// feedback, and a sweep on the bench's data deoptimises it no more. Read from V8's own trace
// (no timing).
describe("the sweep pass's generated loop under V8", () => {
  it("is not deoptimised during two sweeps of 64 variants x 200k bars", async () => {
    const res = await traceChild(new URL("../support/sweepDeopts.ts", import.meta.url));
    expect(res.status, res.err).toBe(0);
    const lines = traceLines(res.out);
    expect(lines.filter((l) => l.startsWith("sweep "))).toEqual(["sweep 0: 64 variants", "sweep 1: 64 variants"]);
    // It was optimised (the trace is there) and never deoptimised.
    expect(lines.some((l) => l.includes("completed optimizing") && l.includes("variantLoop4"))).toBe(true);
    expect(lines.filter((l) => l.includes("bailout") && l.includes("variantLoop4"))).toEqual([]);
  }, scaledMs(60_000));
});
