import { describe, expect, it } from "vitest";
import { scaledMs } from "../support/timeScale.js";
import { traceChild, traceLines } from "../support/v8Trace.js";

// Issue 20: the fused backtest's generated loop (variantLoop1) read the run's bar count through
// KernelState.settings; `backtest(..., outputs: ["metrics"])` passes a spread copy of the settings
// (`{ ...settings, accumulate: true }`), whose map changed at about the 8th call in a process, which
// generalised KernelState.settings' field type and deoptimised the loop (code dependencies), then
// V8 ran its slower OSR code for every later call (41 -> 85 ms at 2e6 bars). The loop now reads
// KernelState.bars. And its parameters object was a literal, whose typed-array fields V8 generalised
// on the 2nd call (code dependencies: the loop compiled again in run 2); it is now a class
// (compositeTargets' CompositeParams). Read from V8's own trace (no timing): after the first run
// (its compile), no deoptimisation of the loop.
describe("the fused backtest's generated loop under V8", () => {
  it("is not deoptimised in runs 2-10 of a process", async () => {
    const res = await traceChild(new URL("../support/backtestDeopts.ts", import.meta.url), [], ["--trace-deopt"]);
    expect(res.status, res.err).toBe(0);
    const lines = traceLines(res.out);
    const from = lines.indexOf("run 2");
    expect(from).toBeGreaterThan(0);
    expect(lines.includes("run 10")).toBe(true);
    expect(lines.slice(from).filter((l) => l.includes("variantLoop1") && (l.includes("bailout") || l.includes("marking dependent code")))).toEqual([]);
  }, scaledMs(60_000));
});
