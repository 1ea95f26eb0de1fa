import { describe, expect, it } from "vitest";
import { scaledMs } from "../support/timeScale.js";
import { traceChild } from "../support/v8Trace.js";

// Issue 32 (engine32): a fused backtest's run settings are the prepared settings copied with the close
// check's `where` (runPass: `{ ...settings, checkClose: where }`). The prepared settings had no
// checkClose property, so the copy added one; from about the 22nd call of a process V8 gave each call's
// copy a hidden class of its own (18 of 39 calls after the first, every call from the 22nd), and
// runVariants' optimised code, which depends on those classes, was marked for deoptimisation there
// ("code dependencies"). kernelSettings now writes checkClose (undefined) itself, so the copy only
// overwrites it. Read with V8's %HaveSameMap in fresh child processes (no timing): at most one change of
// class over 40 calls (one remains at about the 22nd call; its cause is not known).

describe("a fused backtest's run settings under V8", () => {
  it("keep one hidden class from call to call (2 fresh processes, 40 calls each)", async () => {
    const runs = await Promise.all([0, 1].map(() => traceChild(new URL("./settingsMapChild.ts", import.meta.url), ["40", "5000"], ["--allow-natives-syntax"])));
    for (const r of runs) {
      expect(r.status, r.err).toBe(0);
      const lines = r.out.trim().split("\n");
      expect(lines.at(-1)).toBe("phase end true");
      const changes = Number(/^changes (\d+)$/.exec(lines.at(-2) ?? "")?.[1]);
      expect(changes).toBeGreaterThanOrEqual(0);
      expect(changes).toBeLessThanOrEqual(1);
    }
  }, scaledMs(60_000));
});
