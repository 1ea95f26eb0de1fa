/**
 * Seeded one-minute bars for the backtest benchmark: a close price and the five
 * composite components (imbalance, funding, basis_spread, momentum_5m, gas) plus
 * the per-bar funding charged to positions. Written column-major as raw float64
 * (little-endian) so that the TypeScript, danfo and pandas runs read identical numbers.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { mulberry32 } from "../support/mulberry32.js";

export const COLUMNS = ["close", "imbalance", "funding", "basis_spread", "momentum_5m", "gas", "funding_bar"] as const;
export type BenchColumns = Record<(typeof COLUMNS)[number], Float64Array>;

/** Generate n bars from a seed. Components follow slow AR(1) processes so signals persist for hundreds of bars. */
export function generateBars(n: number, seed = 42): BenchColumns {
  const rnd = mulberry32(seed);
  let spare = Number.NaN;
  const normal = (): number => {
    if (spare === spare) {
      const s = spare;
      spare = Number.NaN;
      return s;
    }
    const u = 1 - rnd();
    const v = rnd();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
  const cols = Object.fromEntries(COLUMNS.map((c) => [c, new Float64Array(n)])) as BenchColumns;
  const phi = 0.999;
  const eps = Math.sqrt(1 - phi * phi);
  let logp = Math.log(60_000);
  let a = 0;
  let b = 0;
  let c = 0;
  let g = 0;
  for (let i = 0; i < n; i++) {
    logp += 0.0008 * normal();
    a = phi * a + eps * normal();
    b = phi * b + eps * normal();
    c = phi * c + eps * normal();
    g = phi * g + eps * normal();
    const close = Math.exp(logp);
    cols.close[i] = close;
    cols.imbalance[i] = Math.min(0.99, Math.max(0.01, 0.5 + 0.15 * a));
    const funding = 0.00002 * b; // hourly rate, decimal
    cols.funding[i] = funding;
    cols.basis_spread[i] = 20 * c;
    cols.momentum_5m[i] = i >= 5 ? 100 * (close / (cols.close[i - 5] as number) - 1) : 0;
    cols.gas[i] = 0.8 + 0.6 * Math.abs(g);
    cols.funding_bar[i] = funding / 60;
  }
  return cols;
}

/** Write the columns, column-major float64. */
export function writeBars(path: string, cols: BenchColumns): void {
  const n = cols.close.length;
  const all = new Float64Array(n * COLUMNS.length);
  COLUMNS.forEach((name, j) => all.set(cols[name], j * n));
  writeFileSync(path, new Uint8Array(all.buffer));
}

/** Read what writeBars wrote (views into one buffer, no copies). */
export function readBars(path: string, n: number): BenchColumns {
  const buf = readFileSync(path);
  const all =
    buf.byteOffset % 8 === 0
      ? new Float64Array(buf.buffer, buf.byteOffset, n * COLUMNS.length)
      : new Float64Array(new Uint8Array(buf).buffer, 0, n * COLUMNS.length);
  return Object.fromEntries(COLUMNS.map((c, j) => [c, all.subarray(j * n, (j + 1) * n)])) as BenchColumns;
}

/** Strategy constants shared by the three implementations. */
export const FEE_BPS = 5;
export const SLIPPAGE_BPS = 2;
export const THRESHOLD = 0.1;
/** One-minute bars: the Sharpe ratio's annualisation in the summary row. */
export const BARS_PER_YEAR = 525_600;

/**
 * What every side of the benchmark's summary row computes (no per-bar output): total return
 * (final equity from 1, minus 1), maximum drawdown (a negative decimal), the annualised Sharpe ratio of the n - 1
 * per-bar returns (ddof 1) and the trades (positions opened: leaving flat or flipping).
 */
export interface BenchSummary {
  readonly totalReturn: number;
  readonly maxDrawdown: number;
  readonly sharpe: number;
  readonly trades: number;
}
