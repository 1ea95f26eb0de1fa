import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import type { WorkerPoolError } from "../errors/WorkerPoolError.js";
import type { SweepProgress } from "./sweepComposite.js";
import { SWEEP_METRICS } from "./sweepMetrics.js";
import { checkWorkers } from "./checkWorkers.js";
import { poolFaults, sweepPool } from "./sweepPool.js";
import type { SweepTask } from "./sweepWorker.js";

/** Variants lo..hi-1 of a sweep. @internal */
export interface SweepBlock {
  readonly lo: number;
  readonly hi: number;
}

/** How a sweep's share of variants is run. @internal */
export interface SweepRun {
  /** The share: variants lo..hi-1 of the whole sweep. */
  readonly lo: number;
  readonly hi: number;
  /** Bars per variant (sizes the blocks). */
  readonly bars: number;
  /** 0: the calling thread; n: the process's pool of n threads. */
  readonly workers: number;
  /** Evaluate a block on the calling thread. */
  readonly evaluate: (block: SweepBlock) => void;
  /** The pool task of a block (its inputs in shared memory). */
  readonly task: (block: SweepBlock) => SweepTask;
  readonly signal: AbortSignal | undefined;
  readonly onProgress: ((progress: SweepProgress) => void) | undefined;
  readonly where: string;
  /** A block's time limit on the pool, ms (its worker is terminated past it, the run rejects with {@link BlockTimedOut}) [none]. */
  readonly blockTimeoutMs?: (block: SweepBlock) => number | undefined;
  /**
   * What a run on the pool rejects with when blocks failed: given every block's failure (once the blocks in flight
   * have settled) [the first failure]. The blocks share the data's memory, so a block's failure may be another's doing.
   */
  readonly settleFailures?: (failures: readonly BlockFailure[]) => unknown;
}

/**
 * A block that failed on the pool (its error, or {@link BlockTimedOut}), and the blocks in flight at any moment while
 * it was (sent to the pool before it settled and settled after it was sent; itself included), in variant order,
 * with whether each was terminated (its time limit or the run's signal: its thread stopped mid-block). @internal
 */
export interface BlockFailure {
  readonly block: SweepBlock;
  readonly error: unknown;
  readonly alongside: readonly { readonly block: SweepBlock; readonly terminated: boolean }[];
}

/** What runSweepBlocks rejects with when a block ran past its blockTimeoutMs. @internal */
export class BlockTimedOut {
  constructor(
    readonly block: SweepBlock,
    readonly timeoutMs: number,
  ) {}
}

/** What ran: the blocks, which of them finished, and how many variants that is. @internal */
export interface SweepBlocksDone {
  readonly blocks: readonly SweepBlock[];
  readonly finished: Uint8Array;
  readonly done: number;
}

/**
 * Check a sweep's run controls: `workers` (0..MAX_WORKERS), `signal` (an AbortSignal) and
 * `onProgress` (a function).
 * @throws InvalidArgumentError naming the bad one
 * @internal
 */
export function checkSweepControls(options: { readonly workers?: unknown; readonly signal?: unknown; readonly onProgress?: unknown }, where: string): void {
  checkWorkers(options.workers, where);
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    throw new InvalidArgumentError("signal", `${where}: signal must be an AbortSignal (e.g. new AbortController().signal), got ${String(options.signal)}`);
  }
  if (options.onProgress !== undefined && typeof options.onProgress !== "function") {
    throw new InvalidArgumentError("onProgress", `${where}: onProgress must be a function ({ done, total }) => void, got ${typeof options.onProgress}`);
  }
}

/** Bar-evaluations per block of variants: progress and cancellation granularity (~0.1 s). */
const BLOCK_EVALS = 4e6;

/**
 * A variant's fixed cost (its parameters, account set-up and summary) in bar-evaluations, counted with its bars
 * when sizing blocks: measured 50-100 us a variant at 12-48 bars (~4,000 bar-evaluations at the loop's speed), so
 * a sweep of few bars and many variants got blocks of 100,000+ variants (15 s each: Ctrl-C waited that long).
 */
const VARIANT_COST_BARS = 4000;

/**
 * Run a sweep's share of variants in blocks of about BLOCK_EVALS bar-evaluations, a variant's fixed cost
 * counted as VARIANT_COST_BARS more bars (and at
 * least 8 per thread, for progress, cancellation and balance): on the calling thread, yielding
 * to the event loop between blocks (timers and Ctrl-C run), or on the process's persistent
 * pool with at most 2 blocks per thread in flight. No block starts once `signal` has fired;
 * those finished are kept. Each block writes its own variants' slots, so the numbers do not
 * depend on which thread ran which block.
 * @internal
 */
export async function runSweepBlocks(run: SweepRun): Promise<SweepBlocksDone> {
  const { lo, hi, workers, signal, onProgress } = run;
  const count = hi - lo;
  const per = Math.max(1, Math.min(Math.ceil(BLOCK_EVALS / (Math.max(1, run.bars) + VARIANT_COST_BARS)), Math.ceil(count / (8 * Math.max(1, workers)))));
  const blocks: SweepBlock[] = [];
  for (let b = lo; b < hi; b += per) blocks.push({ lo: b, hi: Math.min(hi, b + per) });
  const finished = new Uint8Array(blocks.length);
  let done = 0;
  const report = (b: number): void => {
    finished[b] = 1;
    const blk = blocks[b] as SweepBlock;
    done += blk.hi - blk.lo;
    onProgress?.({ done, total: count });
  };
  if (workers === 0) {
    for (let b = 0; b < blocks.length; b++) {
      if (signal?.aborted) break;
      run.evaluate(blocks[b] as SweepBlock);
      report(b);
      if (b + 1 < blocks.length) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return { blocks, finished, done };
  }
  const pool = sweepPool(workers, run.where);
  let next = 0;
  let running = 0;
  // A flag beside the value: a task may reject with null or undefined.
  let failed = false;
  let failure: unknown;
  // when each block was sent and settled (one counter: their order), and every failure, for settleFailures
  let clock = 0;
  const sent = new Int32Array(blocks.length).fill(-1);
  const settled = new Int32Array(blocks.length).fill(-1);
  const terminated = new Uint8Array(blocks.length);
  const failures: { b: number; error: unknown }[] = [];
  let finish = (): void => undefined;
  // a fault of the pool outside any task (onPoolError): no block is sent after it, and the sweep rejects with it
  let poolFault: WorkerPoolError | undefined;
  const pump = (): void => {
    while (!failed && poolFault === undefined && !signal?.aborted && next < blocks.length && running < 2 * workers) {
      const b = next++;
      const blk = blocks[b] as SweepBlock;
      running++;
      sent[b] = clock++;
      // piscina terminates the thread of a task whose signal fires while it runs: the sweep's
      // abort ends a runaway variant, and so does the block's time limit.
      const limit = run.blockTimeoutMs?.(blk);
      const timer = limit === undefined ? undefined : AbortSignal.timeout(limit);
      const taskSignal = timer === undefined ? signal : signal === undefined ? timer : AbortSignal.any([signal, timer]);
      pool.run(run.task(blk), taskSignal === undefined ? {} : { signal: taskSignal }).then(
        () => {
          running--;
          settled[b] = clock++;
          report(b);
          pump();
        },
        (e: unknown) => {
          running--;
          settled[b] = clock++;
          if (timer?.aborted === true || signal?.aborted === true) terminated[b] = 1;
          if (!(signal?.aborted === true && timer?.aborted !== true)) {
            const error = timer?.aborted === true ? new BlockTimedOut(blk, limit as number) : e;
            failures.push({ b, error });
            if (!failed) {
              failed = true;
              failure = error;
            }
          }
          pump();
        },
      );
    }
    if (running === 0) finish();
  };
  const unsubscribe = poolFaults(pool, (fault) => {
    poolFault ??= fault;
    pump();
  });
  try {
    await new Promise<void>((resolve) => {
      finish = resolve;
      signal?.addEventListener("abort", pump);
      pump();
    });
  } finally {
    signal?.removeEventListener("abort", pump);
    unsubscribe();
  }
  if (failed) {
    if (run.settleFailures === undefined) throw failure;
    throw run.settleFailures(
      failures.map(({ b, error }) => ({
        block: blocks[b] as SweepBlock,
        error,
        alongside: blocks.flatMap((block, o) => {
          const from = sent[o] as number;
          return from >= 0 && from < (settled[b] as number) && (settled[o] as number) > (sent[b] as number) ? [{ block, terminated: terminated[o] === 1 }] : [];
        }),
      })),
    );
  }
  if (poolFault !== undefined) throw poolFault;
  return { blocks, finished, done };
}

/**
 * A sweep's table from its finished blocks, in variant order: `variant`, the parameter
 * columns (`paramsInto(v, row, columns)` writes variant v's values at `row`), then the
 * metrics read from `out` (metric m of variant v at `out[m * stride + (v - base)]`).
 * @internal
 */
export function sweepColumns(
  ran: SweepBlocksDone,
  out: Float64Array,
  base: number,
  stride: number,
  parameters: readonly string[],
  paramsInto: (v: number, row: number, columns: readonly Float64Array[]) => void,
): Record<string, Float64Array> {
  const { blocks, finished } = ran;
  let rows = 0;
  for (let b = 0; b < blocks.length; b++) if (finished[b]) rows += (blocks[b] as SweepBlock).hi - (blocks[b] as SweepBlock).lo;
  const variant = new Float64Array(rows);
  const params = parameters.map(() => new Float64Array(rows));
  const metrics = SWEEP_METRICS.map(() => new Float64Array(rows));
  let r = 0;
  for (let b = 0; b < blocks.length; b++) {
    if (!finished[b]) continue;
    const blk = blocks[b] as SweepBlock;
    for (let v = blk.lo; v < blk.hi; v++, r++) {
      variant[r] = v;
      paramsInto(v, r, params);
      for (let m = 0; m < metrics.length; m++) (metrics[m] as Float64Array)[r] = out[m * stride + (v - base)] as number;
    }
  }
  const columns: Record<string, Float64Array> = { variant };
  parameters.forEach((p, j) => (columns[p] = params[j] as Float64Array));
  SWEEP_METRICS.forEach((m, i) => (columns[m] = metrics[i] as Float64Array));
  return columns;
}
