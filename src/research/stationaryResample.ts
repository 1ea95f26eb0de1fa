import type { Rng } from "../random/prng.js";
import { stationaryBlocks } from "./stationaryBlocks.js";

/**
 * One stationary-bootstrap resample of `x` (Politis & Romano 1994) written into `out` (as long as x): the runs
 * {@link stationaryBlocks} draws with mean length `meanBlock`, copied bar by bar in their order. `starts` and
 * `lengths` are its scratch (each at least x's length), reused across draws so that a draw allocates nothing.
 * The resample that {@link stationaryBootstrap} takes the statistic of and the one performanceBand's paths are
 * drawn from (one resampler for both).
 * @internal
 */
export function stationaryResample(x: ArrayLike<number>, meanBlock: number, rng: Rng, out: Float64Array, starts: Int32Array, lengths: Int32Array): void {
  const runs = stationaryBlocks(x.length, meanBlock, rng, starts, lengths);
  for (let r = 0, t = 0; r < runs; r++) for (let s = starts[r] as number, e = s + (lengths[r] as number); s < e; s++) out[t++] = x[s] as number;
}
