import { availableParallelism, loadavg } from "node:os";
import { readFileSync } from "node:fs";

/**
 * The one rule for every wall-clock bound in the tests (vitest's test and hook
 * timeouts, a test's own `timeout`, a deadline for a child process, a server,
 * a notebook run or Chromium): a bound is the time the wait takes on an idle
 * machine, with margin, times `timeScale()`, read when the wait starts.
 *
 * timeScale() = max(1, MILAB_TEST_TIME_SCALE, load / cores), where load is the
 * largest of the 1- and 5-minute load averages and the number of tasks that
 * can run right now (/proc/loadavg; it rises at once when a second copy of the
 * suite starts, while the averages lag). On the 2-core machine at load 10 (two
 * copies of `npm test`) every bound is 5x its idle value. It is capped at
 * MAX_TIME_SCALE, so a test that really hangs still fails, just later.
 */
export const MAX_TIME_SCALE = 30;

/** vitest's base timeouts on an idle machine (vitest.config.ts and test/support/scaleTimeouts.ts scale them). */
export const TEST_TIMEOUT_MS = 30_000;
export const HOOK_TIMEOUT_MS = 60_000;

function runnableNow(): number {
  try {
    // "0.52 0.58 0.59 3/466 12345": the 4th field is runnable/total tasks; this process is one of them.
    const field = readFileSync("/proc/loadavg", "utf8").split(" ")[3] ?? "";
    const n = Number(field.split("/")[0]);
    return Number.isFinite(n) ? n - 1 : 0;
  } catch {
    return 0;
  }
}

export function timeScale(): number {
  const floor = Number(process.env.MILAB_TEST_TIME_SCALE ?? "1");
  const [one = 0, five = 0] = loadavg();
  const load = Math.max(one, five, runnableNow());
  const scale = Math.max(1, Number.isFinite(floor) ? floor : 1, load / availableParallelism());
  return Math.min(MAX_TIME_SCALE, scale);
}

/** `idleMs` (what the wait needs on an idle machine, with margin) scaled to the load now. */
export function scaledMs(idleMs: number): number {
  return Math.ceil(idleMs * timeScale());
}
