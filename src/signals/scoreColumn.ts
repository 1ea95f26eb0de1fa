import { scoreBasis, scoreFunding, scoreGas, scoreImbalance, scoreMomentum, CHEAP_GAS_GWEI, type Scorer } from "./scorers.js";

function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/**
 * Score a whole column: out[i] = f(values[i]), NaN for a NaN value. The default
 * scorers run as specialised loops (the same expressions as the scorers in
 * scorers.ts, so the results are identical; replayComposite's tests compare the
 * two); any other scorer goes through one generic loop.
 * @internal
 */
export function scoreColumn(f: Scorer, values: Float64Array, out: Float64Array): Float64Array {
  const n = values.length;
  if (f === scoreImbalance) {
    for (let i = 0; i < n; i++) out[i] = 2 * (clamp(values[i] as number, 0, 1) - 0.5);
  } else if (f === scoreFunding) {
    for (let i = 0; i < n; i++) out[i] = clamp(-(values[i] as number) * 1e4, -1, 1);
  } else if (f === scoreBasis) {
    for (let i = 0; i < n; i++) out[i] = clamp(-(values[i] as number) / 50, -1, 1);
  } else if (f === scoreMomentum) {
    for (let i = 0; i < n; i++) out[i] = clamp((values[i] as number) / 2, -1, 1);
  } else if (f === scoreGas) {
    for (let i = 0; i < n; i++) {
      const v = values[i] as number;
      out[i] = v !== v ? Number.NaN : v <= CHEAP_GAS_GWEI ? 0.3 : clamp(0.3 - (v - CHEAP_GAS_GWEI) / 10, -1, 0.3);
    }
  } else {
    for (let i = 0; i < n; i++) {
      const v = values[i] as number;
      out[i] = v !== v ? Number.NaN : f(v);
    }
  }
  return out;
}
