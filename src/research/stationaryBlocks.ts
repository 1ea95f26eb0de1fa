import type { Rng } from "../random/prng.js";

/**
 * One stationary-bootstrap resample of n bars as contiguous runs of the original bars
 * (Politis & Romano 1994): a run starts at a uniformly drawn bar and goes on for a geometric
 * number of bars with mean `meanBlock` (at each bar a new run starts with probability
 * 1/meanBlock), wrapping from the last bar to the first (a wrapped run is written as two runs).
 * Writes the runs' first bars into `starts` and their lengths into `lengths` (each of length ≥ the
 * resample's) and returns how many runs there are; the lengths add up to `length` (default n: a
 * resample as long as the original; a paper trader's performance band draws longer or shorter
 * paths). Consumes the generator exactly as {@link stationaryBootstrap} does per draw, so both see
 * the same resample for the same state.
 * @internal
 */
export function stationaryBlocks(n: number, meanBlock: number, rng: Rng, starts: Int32Array, lengths: Int32Array, length = n): number {
  const restart = 1 / meanBlock;
  let runs = 0;
  let at = 0;
  for (let t = 0; t < length; t++) {
    if (t === 0 || rng.uniform() < restart) {
      at = Math.floor(rng.uniform() * n);
      starts[runs] = at;
      lengths[runs] = 1;
      runs++;
    } else if (++at === n) {
      at = 0;
      starts[runs] = 0;
      lengths[runs] = 1;
      runs++;
    } else {
      lengths[runs - 1] = (lengths[runs - 1] as number) + 1;
    }
  }
  return runs;
}
