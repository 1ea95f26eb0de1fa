import { describe, expect, it } from "vitest";
import { scaledMs } from "../support/timeScale.js";
import { traceChild, traceLines } from "../support/v8Trace.js";

// Issue 32 (item 3): callStrategy handed the strategy function a fresh spread copy of the columns record and of the
// parameters on every call (`Object.freeze({ ...params })`); V8 gives a spread copy a new hidden class, so the
// function's `params["fast"]` met new maps mid-sweep and its optimised code was thrown away ("wrong map", twice per
// 400-variant grid, each time back to the interpreter and on-stack replacement). Now the columns record is frozen once
// per plan and the parameters are copied key by key (one hidden class for every variant): read from V8's own trace,
// no timing.
describe("the user's strategy function under V8, as sweepStrategy calls it", () => {
  it("is optimised and never deoptimised for a wrong map during two sweeps of the guide's smaCross", async () => {
    const res = await traceChild(new URL("../support/smaCrossDeopts.ts", import.meta.url));
    expect(res.status, res.err).toBe(0);
    const lines = traceLines(res.out);
    expect(lines.filter((l) => l.startsWith("sweep "))).toEqual(["sweep 0: 36 variants", "sweep 1: 36 variants"]);
    expect(lines.some((l) => l.includes("completed optimizing") && l.includes("JSFunction smaCross "))).toBe(true);
    expect(lines.filter((l) => l.includes("bailout") && l.includes("wrong map") && l.includes("JSFunction smaCross "))).toEqual([]);
  }, scaledMs(60_000));
});
