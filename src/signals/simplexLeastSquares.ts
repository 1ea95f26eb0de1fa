/**
 * Solve min_w ||X w - y||² subject to w >= 0 and sum(w) = 1, from the normal
 * equations G = XᵀX (k x k, row-major) and b = Xᵀy. Exact for small k: the
 * optimum of this convex quadratic program is the equality-constrained
 * least-squares solution on its support, so every support is solved through
 * its KKT system [[G_SS, 1], [1ᵀ, 0]] [w; λ] = [b_S; 1] and the best feasible
 * (all w_S >= 0) one kept. 2^k - 1 supports: meant for k <= 16.
 * Returns NaNs when no support has a non-singular system.
 * @internal
 */
export function simplexLeastSquares(G: Float64Array, b: Float64Array, k: number): Float64Array {
  let best = new Float64Array(k).fill(Number.NaN);
  let bestObj = Number.POSITIVE_INFINITY;
  const idx = new Int32Array(k);
  const m = new Float64Array((k + 1) * (k + 2));
  for (let mask = 1; mask < 1 << k; mask++) {
    let s = 0;
    for (let j = 0; j < k; j++) if (mask & (1 << j)) idx[s++] = j;
    const w = solveKkt(G, b, k, idx, s, m);
    if (w === undefined) continue;
    let feasible = true;
    for (let a = 0; a < s; a++) if ((w[a] as number) < -1e-12) feasible = false;
    if (!feasible) continue;
    const full = new Float64Array(k);
    for (let a = 0; a < s; a++) full[idx[a] as number] = Math.max(0, w[a] as number);
    // objective up to the constant yᵀy: wᵀGw - 2 bᵀw
    let obj = 0;
    for (let p = 0; p < k; p++) {
      const wp = full[p] as number;
      if (wp === 0) continue;
      let gw = 0;
      for (let q = 0; q < k; q++) gw += (G[p * k + q] as number) * (full[q] as number);
      obj += wp * gw - 2 * (b[p] as number) * wp;
    }
    if (bestObj === Number.POSITIVE_INFINITY || obj < bestObj - 1e-15 * Math.max(1, Math.abs(bestObj))) {
      bestObj = obj;
      best = full;
    }
  }
  let sum = 0;
  for (let j = 0; j < k; j++) sum += best[j] as number;
  if (sum > 0) for (let j = 0; j < k; j++) best[j] = (best[j] as number) / sum;
  return best;
}

/** Gaussian elimination with partial pivoting on the (s+1)-square KKT system; undefined when singular. */
function solveKkt(G: Float64Array, b: Float64Array, k: number, idx: Int32Array, s: number, m: Float64Array): Float64Array | undefined {
  const size = s + 1;
  const cols = size + 1;
  let scale = 0;
  for (let r = 0; r < s; r++) {
    const gi = idx[r] as number;
    for (let c = 0; c < s; c++) {
      const v = G[gi * k + (idx[c] as number)] as number;
      m[r * cols + c] = v;
      scale = Math.max(scale, Math.abs(v));
    }
    m[r * cols + s] = 1;
    m[r * cols + size] = b[gi] as number;
  }
  for (let c = 0; c < s; c++) m[s * cols + c] = 1;
  m[s * cols + s] = 0;
  m[s * cols + size] = 1;
  const eps = 1e-13 * Math.max(1, scale);
  for (let c = 0; c < size; c++) {
    let piv = c;
    for (let r = c + 1; r < size; r++) if (Math.abs(m[r * cols + c] as number) > Math.abs(m[piv * cols + c] as number)) piv = r;
    if (Math.abs(m[piv * cols + c] as number) <= eps) return undefined;
    if (piv !== c) {
      for (let q = 0; q < cols; q++) {
        const t = m[c * cols + q] as number;
        m[c * cols + q] = m[piv * cols + q] as number;
        m[piv * cols + q] = t;
      }
    }
    const d = m[c * cols + c] as number;
    for (let r = c + 1; r < size; r++) {
      const f = (m[r * cols + c] as number) / d;
      if (f === 0) continue;
      for (let q = c; q < cols; q++) m[r * cols + q] = (m[r * cols + q] as number) - f * (m[c * cols + q] as number);
    }
  }
  const x = new Float64Array(size);
  for (let r = size - 1; r >= 0; r--) {
    let acc = m[r * cols + size] as number;
    for (let q = r + 1; q < size; q++) acc -= (m[r * cols + q] as number) * (x[q] as number);
    x[r] = acc / (m[r * cols + r] as number);
  }
  return x.subarray(0, s);
}
