export { mulberry32 } from "../support/mulberry32.js";

/** Element-wise equality where NaN equals NaN (and +0 equals -0). */
export function sameValues(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (!(x === y || (x !== x && y !== y))) return false;
  }
  return true;
}
