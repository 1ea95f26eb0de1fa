import { describe, expect, it } from "vitest";
import { scaledMs } from "../support/timeScale.js";
import { traceChild } from "../support/v8Trace.js";

// Issue 32 (engine32): a fused backtest's run settings are the prepared settings with the close check's
// `where`. They were copied by a spread that added the field (`{ ...settings, checkClose: where }`), and from
// about the 22nd call of a process V8 gave each call's copy a hidden class of its own (18 of 39 calls after the
// first, every call from the 22nd); runVariants' optimised code, which depends on those classes, was marked
// for deoptimisation there ("code dependencies"). Every run's settings are now built by one literal with every
// field written (execution.ts settingsOf). Read with V8's %HaveSameMap in fresh child processes (no timing):
// no change of class over 40 calls.

describe("a fused backtest's run settings under V8", () => {
  it("keep one hidden class from call to call (2 fresh processes, 40 calls each)", async () => {
    const runs = await Promise.all([0, 1].map(() => traceChild(new URL("./settingsMapChild.ts", import.meta.url), ["40", "5000"], ["--allow-natives-syntax"])));
    for (const r of runs) {
      expect(r.status, r.err).toBe(0);
      const lines = r.out.trim().split("\n");
      expect(lines.at(-1)).toBe("phase end true");
      const changes = Number(/^changes (\d+)$/.exec(lines.at(-2) ?? "")?.[1]);
      expect(changes).toBe(0);
    }
  }, scaledMs(60_000));
});
