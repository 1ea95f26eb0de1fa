import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/**
 * The eigenvalues of a real symmetric n × n matrix (row-major, only its lower triangle read),
 * ascending: Householder reduction to tridiagonal form, then the implicit QL iteration with
 * Wilkinson shifts (EISPACK tred1 / tql1; Press et al., Numerical Recipes, 3rd ed., §11.3–11.4).
 * O(n³); the input is not modified.
 * @throws InvalidArgumentError when the matrix is not n × n, or the QL iteration does not converge
 * @example symmetricEigenvalues(Float64Array.of(2, 1, 1, 2), 2) // Float64Array [1, 3]
 * @internal
 */
export function symmetricEigenvalues(matrix: ArrayLike<number>, n: number): Float64Array {
  const where = "symmetricEigenvalues";
  if (!Number.isInteger(n) || n < 0 || matrix.length !== n * n) {
    throw new InvalidArgumentError("matrix", `${where}: needs an n × n matrix (n = ${n}), got ${matrix.length} values`);
  }
  const a = Float64Array.from(matrix);
  const d = new Float64Array(n);
  const e = new Float64Array(n);
  tridiagonal(a, n, d, e);
  for (let i = 0; i < n; i++) d[i] = a[i * n + i] as number;
  tridiagonalEigenvalues(d, e, n);
  return d.sort();
}

/**
 * Householder reduction of `a` (lower triangle, overwritten) to tridiagonal form: sub-diagonal into `e`, the
 * reduction's h per row into `d` (tred1). Kept apart from the QL iteration so V8 compiles each loop nest on its own.
 */
function tridiagonal(a: Float64Array, n: number, d: Float64Array, e: Float64Array): void {
  // Householder: a → tridiagonal (diagonal d, sub-diagonal e), lower triangle only
  for (let i = n - 1; i > 0; i--) {
    const l = i - 1;
    let h = 0;
    if (l > 0) {
      let scale = 0;
      for (let k = 0; k <= l; k++) scale += Math.abs(a[i * n + k] as number);
      if (scale === 0) {
        e[i] = a[i * n + l] as number;
      } else {
        for (let k = 0; k <= l; k++) {
          const x = (a[i * n + k] as number) / scale;
          a[i * n + k] = x;
          h += x * x;
        }
        let f = a[i * n + l] as number;
        let g = f >= 0 ? -Math.sqrt(h) : Math.sqrt(h);
        e[i] = scale * g;
        h -= f * g;
        a[i * n + l] = f - g;
        f = 0;
        for (let j = 0; j <= l; j++) {
          g = 0;
          for (let k = 0; k <= j; k++) g += (a[j * n + k] as number) * (a[i * n + k] as number);
          for (let k = j + 1; k <= l; k++) g += (a[k * n + j] as number) * (a[i * n + k] as number);
          e[j] = g / h;
          f += (e[j] as number) * (a[i * n + j] as number);
        }
        const hh = f / (h + h);
        for (let j = 0; j <= l; j++) {
          const fj = a[i * n + j] as number;
          const gj = (e[j] as number) - hh * fj;
          e[j] = gj;
          for (let k = 0; k <= j; k++) a[j * n + k] = (a[j * n + k] as number) - (fj * (e[k] as number) + gj * (a[i * n + k] as number));
        }
      }
    } else {
      e[i] = a[i * n + l] as number;
    }
    d[i] = h;
  }
}

/**
 * The implicit QL iteration with Wilkinson shifts on the tridiagonal matrix (diagonal `d`, sub-diagonal `e` in
 * e[1..n−1]): `d` becomes its eigenvalues, unordered (tql1).
 * @throws InvalidArgumentError when the iteration does not converge
 */
function tridiagonalEigenvalues(d: Float64Array, e: Float64Array, n: number): void {
  const where = "symmetricEigenvalues";
  // implicit QL on the tridiagonal matrix
  for (let i = 1; i < n; i++) e[i - 1] = e[i] as number;
  if (n > 0) e[n - 1] = 0;
  for (let l = 0; l < n; l++) {
    let iter = 0;
    let m: number;
    do {
      for (m = l; m < n - 1; m++) {
        const dd = Math.abs(d[m] as number) + Math.abs(d[m + 1] as number);
        if (Math.abs(e[m] as number) <= Number.EPSILON * dd) break;
      }
      if (m !== l) {
        if (iter++ === 60) throw new InvalidArgumentError("matrix", `${where}: the QL iteration did not converge (is the matrix finite?)`);
        let g = ((d[l + 1] as number) - (d[l] as number)) / (2 * (e[l] as number));
        let r = Math.hypot(g, 1);
        g = (d[m] as number) - (d[l] as number) + (e[l] as number) / (g + (g >= 0 ? r : -r));
        let s = 1;
        let c = 1;
        let p = 0;
        let i: number;
        for (i = m - 1; i >= l; i--) {
          const f = s * (e[i] as number);
          const b = c * (e[i] as number);
          r = Math.hypot(f, g);
          e[i + 1] = r;
          if (r === 0) {
            d[i + 1] = (d[i + 1] as number) - p;
            e[m] = 0;
            break;
          }
          s = f / r;
          c = g / r;
          g = (d[i + 1] as number) - p;
          r = ((d[i] as number) - g) * s + 2 * c * b;
          p = s * r;
          d[i + 1] = g + p;
          g = c * r - b;
        }
        if (r === 0 && i >= l) continue;
        d[l] = (d[l] as number) - p;
        e[l] = g;
        e[m] = 0;
      }
    } while (m !== l);
  }
}
