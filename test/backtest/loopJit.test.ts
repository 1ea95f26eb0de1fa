import { describe, expect, it } from "vitest";
import { scaledMs } from "../support/timeScale.js";
import { traceChild, traceLines, type TracedRun } from "../support/v8Trace.js";

// Issue 32, "no slow mode, proven": the generated loops (the fused backtest's variantLoop1 for a
// composite replay, a position column and a column of labels, the block pipeline's spanLoopOneCoin,
// the sweep's variantLoop4) were optimised before some branch had run (bar 0's own branch, then
// the data's first sell label or flip) and deoptimised by it; when that fell during the loop's
// concurrent on-stack-replacement compile, V8 ran the slower OSR code for the rest of the process
// (7 of 10 fresh processes; 5 of 5 after a short warm-up call). Now bar 0 runs in a function of its
// own and every new loop first runs over the priming bars (src/backtest/kernel/primingBars.ts), so
// it is compiled from complete feedback. Read from V8's own trace (no timing) in 20 fresh child
// processes (8,192 bars each), 10 of them after a 4,096-bar warm-up backtest: no generated loop is ever
// deoptimised, so none can be left running its OSR code (the slow mode's signature, checked too).
// The replay's label column loop (labelGroup, read by the users' path) is checked the same way: it was
// deoptimised at the data's first sell label until the label rule was primed (signals/fuseComposite.ts).

/**
 * A generated loop's name in V8's trace (bar 0's own functions, `...Bar0`, run once per run and are not loops that matter);
 * `labelGroup` is the replay's label column loop (signals/fuseComposite.ts, read by the users' path).
 */
const LOOP = /<JSFunction (variantLoop\d+|spanLoop(?:OneCoin|ManyCoins)|labelGroup)(?: |>)/;

/** The loops left running only OSR code: deoptimised, then optimised again only by on-stack replacement. */
function osrStuck(lines: readonly string[]): string[] {
  const state = new Map<string, "ok" | "deopt" | "osr-only">();
  for (const l of lines) {
    const m = LOOP.exec(l);
    if (m === null) continue;
    const name = m[1] as string;
    if (l.startsWith("[bailout")) state.set(name, "deopt");
    else if (l.startsWith("[completed optimizing")) {
      if (!l.includes(" OSR]")) state.set(name, "ok");
      else if (state.get(name) === "deopt") state.set(name, "osr-only");
    }
  }
  return [...state].filter(([, s]) => s !== "ok").map(([name, s]) => `${name}: ${s}`);
}

/**
 * Bars per child: 8,192 (twice the 4,096-bar warm-up). Every kind of event the loops meet happens well before it in the
 * seeded data (a prefix of the 30,000 bars used before: `generateBars` is prefix-stable): the replay's first buy at bar
 * 214 and first sell at 3,268; in the sweep's 32 variants every first sell or reversal that falls inside 30,000 bars falls
 * before 6,000 except three (22,157-25,562), which take the same branches of variantLoop4 that the other variants of their
 * pass took thousands of bars earlier. Every generated loop is optimised in every child at 6,000 bars as at 30,000, and with
 * the priming switched off (PRIMING_RUNS = 0 and no primeLabelRule) a bailout of variantLoop1/variantLoop4 showed in every
 * child at 6,000, 8,192, 10,000 and 30,000 bars alike (measured 2026-11-28). ~0.25 s of CPU less per child than 30,000.
 */
const BARS = "8192";

/** One fresh child process (V8's trace and the script's phases). */
function trace(warm: boolean): Promise<TracedRun> {
  return traceChild(new URL("../support/loopJit.ts", import.meta.url), [warm ? "warm" : "cold", BARS]);
}

describe("the generated loops under V8", () => {
  it("are never deoptimised nor left in OSR code in 20 fresh processes (10 after a short warm-up call)", async () => {
    const runs: TracedRun[] = [];
    // Two at a time (the machine has two cores).
    for (let p = 0; p < 10; p++) runs.push(...(await Promise.all([trace(false), trace(true)])));
    expect(runs).toHaveLength(20);
    for (const r of runs) {
      expect(r.status, r.err).toBe(0);
      const lines = traceLines(r.out);
      expect(lines.filter((l) => l.startsWith("phase "))).toEqual(expect.arrayContaining(["phase fused", "phase users", "phase labels", "phase delayed", "phase sweep", "phase end true"]));
      // The test can fail: the fused backtest's loop is hot enough to be optimised in every process.
      expect(lines.some((l) => l.startsWith("[completed optimizing") && l.includes("<JSFunction variantLoop1 "))).toBe(true);
      expect(lines.some((l) => l.startsWith("[completed optimizing") && l.includes("<JSFunction labelGroup "))).toBe(true);
      expect(lines.filter((l) => l.startsWith("[bailout") && LOOP.test(l))).toEqual([]);
      expect(osrStuck(lines)).toEqual([]);
    }
  }, scaledMs(240_000));

  it("reads a bailout only of the function it names, when a compile thread's record shares its line (seen in CI)", () => {
    const line =
      "[bailout (kind: deopt-eager, reason: Insufficient type feedback for generic named access): begin. deoptimizing 0x3aa9220e8731 <JSFunction carryOnMissingPrice (sfi = 0x3342c637b729)>, 0x0b01e8f11581 " +
      "[completed compiling 0x357eaff01829 <JSFunction spanLoopOneCoin (sfi = 0xb01e8f12959)> (target TURBOFAN) - took 0.005, 18.197, 0.059 ms]";
    expect(line.split("\n").filter((l) => l.startsWith("[bailout") && LOOP.test(l))).toHaveLength(1); // the whole line: wrong
    expect(traceLines(line).filter((l) => l.startsWith("[bailout") && LOOP.test(l))).toEqual([]);
    // and a loop's bailout behind a compile record is found
    const hidden = "[completed compiling 0x1 <JSFunction foo (sfi = 0x2)> (target TURBOFAN)][bailout (kind: deopt-eager, reason: x): begin. deoptimizing 0x3 <JSFunction variantLoop1 (sfi = 0x4)>";
    expect(traceLines(hidden).filter((l) => l.startsWith("[bailout") && LOOP.test(l))).toHaveLength(1);
  });

  it("reads a phase line the child wrote inside a V8 record, and the record mended (seen in CI)", () => {
    const out = "phase delayed\n[completed optimizing 0x1phase sweep\n <JSFunction variantLoop1 (sfi = 0x2)> (target TURBOFAN)]\nphase end true\n";
    expect(out.split("\n").filter((l) => l.startsWith("phase "))).toEqual(["phase delayed", "phase end true"]); // line by line: wrong
    const lines = traceLines(out);
    expect(lines.filter((l) => l.startsWith("phase "))).toEqual(["phase delayed", "phase sweep", "phase end true"]);
    expect(lines).toContain("[completed optimizing 0x1 <JSFunction variantLoop1 (sfi = 0x2)> (target TURBOFAN)]");
    expect(lines.indexOf("phase sweep")).toBe(lines.indexOf("[completed optimizing 0x1 <JSFunction variantLoop1 (sfi = 0x2)> (target TURBOFAN)]") + 1);
  });

  it("reads the slow mode's signature from a trace", () => {
    const opt = (name: string, osr: boolean): string => `[completed optimizing 0x1 <JSFunction ${name} (sfi = 0x2)> (target TURBOFAN)${osr ? " OSR" : ""}]`;
    const deopt = (name: string): string => `[bailout (kind: deopt-eager, reason: Insufficient type feedback for compare operation): begin. deoptimizing 0x1 <JSFunction ${name} (sfi = 0x2)>, 0x3 <Code TURBOFAN>]`;
    expect(osrStuck([opt("variantLoop1", false), deopt("variantLoop1"), opt("variantLoop1", true)])).toEqual(["variantLoop1: osr-only"]);
    expect(osrStuck([opt("variantLoop1", false), deopt("variantLoop1"), opt("variantLoop1", true), opt("variantLoop1", false)])).toEqual([]);
    expect(osrStuck([opt("spanLoopOneCoin", false), deopt("spanLoopOneCoin")])).toEqual(["spanLoopOneCoin: deopt"]);
    expect(osrStuck([opt("variantLoop1Bar0", false), deopt("variantLoop1Bar0")])).toEqual([]);
  });
});
