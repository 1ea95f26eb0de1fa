/**
 * The worker-thread side of sweepComposite (a piscina task): evaluate one range of
 * variants of a plan held in shared memory and write their metrics into the shared
 * result buffer. Returns the number of variants done.
 * @internal
 */
import { evaluateVariants } from "./evaluateVariants.js";
import type { SweepPlan } from "./SweepPlan.js";

/** One task: variants lo..hi-1, written at `out[m * stride + (v - base)]`. @internal */
export interface SweepTask {
  readonly plan: SweepPlan;
  readonly lo: number;
  readonly hi: number;
  readonly out: Float64Array;
  readonly base: number;
  readonly stride: number;
}

export default function sweepTask(task: SweepTask): number {
  evaluateVariants(task.plan, task.lo, task.hi, task.out, task.base, task.stride);
  return task.hi - task.lo;
}
