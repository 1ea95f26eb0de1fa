import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/**
 * A regular time grid: `start, start + stepMs, ...` up to and including `end`
 * (epoch ms). Empty when `end < start`.
 * @throws InvalidArgumentError when start or end is not finite or stepMs is not a positive number
 * @example timeGrid(0, 180_000, 60_000) // Float64Array [0, 60000, 120000, 180000]
 */
export function timeGrid(start: number, end: number, stepMs: number): Float64Array {
  if (!Number.isFinite(start) || !Number.isFinite(end)) {
    throw new InvalidArgumentError("start", `timeGrid: start and end must be finite epoch ms, got ${start} and ${end}`);
  }
  if (typeof stepMs !== "number" || !(stepMs > 0) || !Number.isFinite(stepMs)) {
    throw new InvalidArgumentError("stepMs", `timeGrid: stepMs must be a positive number of ms, got ${String(stepMs)}`);
  }
  if (end < start) return new Float64Array(0);
  const n = Math.floor((end - start) / stepMs) + 1;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = start + i * stepMs;
  return out;
}
