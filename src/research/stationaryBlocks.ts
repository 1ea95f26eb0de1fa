import type { Rng } from "../random/prng.js";

/**
 * One stationary-bootstrap resample of n bars as contiguous runs of the original bars
 * (Politis & Romano 1994): a run starts at a uniformly drawn bar and goes on for a geometric
 * number of bars with mean `meanBlock` (at each bar a new run starts with probability
 * 1/meanBlock), wrapping from the last bar to the first (a wrapped run is written as two runs).
 * Writes the runs' first bars into `starts` and their lengths into `lengths` (each of length ≥ the
 * resample's) and returns how many runs there are; the lengths add up to `length` (default n: a
 * resample as long as the original; a paper trader's performance band draws longer or shorter
 * paths). The one rule of the stationary bootstrap's draws: stationaryResample (stationaryBootstrap's and
 * performanceBand's resamples), the SPA and performanceBand's paths all draw their runs here.
 * @internal
 */
export function stationaryBlocks(n: number, meanBlock: number, rng: Rng, starts: Int32Array, lengths: Int32Array, length = n): number {
  if (length <= 0) return 0;
  const restart = 1 / meanBlock;
  // the current run (its first bar, its length so far) is held here and written when the next one starts
  let at = Math.floor(rng.uniform() * n);
  let start = at;
  let run = 1;
  let runs = 0;
  for (let t = 1; t < length; t++) {
    if (rng.uniform() < restart) at = Math.floor(rng.uniform() * n);
    else if (++at === n) at = 0;
    else {
      run++;
      continue;
    }
    starts[runs] = start;
    lengths[runs] = run;
    runs++;
    start = at;
    run = 1;
  }
  starts[runs] = start;
  lengths[runs] = run;
  return runs + 1;
}
