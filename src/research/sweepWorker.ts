/**
 * The worker-thread side of the sweeps (a piscina task of the process's persistent pool,
 * loaded as built JavaScript): evaluate one range of variants of a plan held in shared memory
 * and write their metrics into the shared result buffer. Returns the number of variants done.
 * @internal
 */
import { evaluateVariants } from "./evaluateVariants.js";
import { compileStrategy, evaluateStrategyVariants, type StrategyFunction, type StrategyPlan } from "./strategyVariant.js";
import type { SweepPlan } from "./SweepPlan.js";

/** Where a task writes: variants lo..hi-1 at `out[m * stride + (v - base)]`. @internal */
interface TaskRange {
  readonly lo: number;
  readonly hi: number;
  readonly out: Float64Array;
  readonly base: number;
  readonly stride: number;
}

/** One task: a composite sweep's variants, or a strategy sweep's. @internal */
export type SweepTask = (TaskRange & { readonly kind: "composite"; readonly plan: SweepPlan }) | (TaskRange & { readonly kind: "strategy"; readonly plan: StrategyPlan });

/** Strategy functions compiled in this thread, by source. */
const compiled = new Map<string, StrategyFunction>();

export default function sweepTask(task: SweepTask): number {
  if (task.kind === "composite") {
    evaluateVariants(task.plan, task.lo, task.hi, task.out, task.base, task.stride);
  } else {
    const s = task.plan.strategy;
    let fn: StrategyFunction | undefined;
    if (s.kind === "function") {
      fn = compiled.get(s.source);
      if (fn === undefined) compiled.set(s.source, (fn = compileStrategy(s.source)));
    }
    evaluateStrategyVariants(task.plan, fn, task.lo, task.hi, task.out, task.base, task.stride, "sweepStrategy");
  }
  return task.hi - task.lo;
}
