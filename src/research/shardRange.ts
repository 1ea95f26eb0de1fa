import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** One job's share of a sweep: shard `index` (0-based) of `count`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/**
 * The variants shard `index` of `count` evaluates: the contiguous range
 * [floor(index x total / count), floor((index + 1) x total / count)). The ranges of
 * shards 0..count-1 cover 0..total-1 once each, in order, and differ in size by at most
 * one variant. Any job array can run them: a Kubernetes indexed Job
 * (JOB_COMPLETION_INDEX), a Slurm array (SLURM_ARRAY_TASK_ID), a CI matrix.
 * @throws InvalidArgumentError unless 0 <= index < count are whole numbers
 * @example shardRange(10, { index: 1, count: 3 }) // { lo: 3, hi: 6 }
 */
export function shardRange(total: number, shard: Shard): { lo: number; hi: number } {
  const where = "shardRange";
  if (typeof shard !== "object" || shard === null || !Number.isInteger(shard.count) || shard.count < 1) {
    throw new InvalidArgumentError("shard", `${where}: shard.count must be a whole number >= 1, got ${String(shard?.count)}`);
  }
  if (!Number.isInteger(shard.index) || shard.index < 0 || shard.index >= shard.count) {
    throw new InvalidArgumentError("shard", `${where}: shard.index must be a whole number in 0..${shard.count - 1}, got ${String(shard.index)}`);
  }
  return { lo: Math.floor((shard.index * total) / shard.count), hi: Math.floor(((shard.index + 1) * total) / shard.count) };
}
