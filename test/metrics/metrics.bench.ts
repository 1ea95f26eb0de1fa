/**
 * Metrics benchmark (not a test): `npx tsx test/metrics/metrics.bench.ts [bars]`.
 * On identical generated one-minute returns (default 2e6 bars) it times
 * (a) performanceSummary, (b) forward returns + Spearman IC with interval,
 * (c) quintile returns, (d) metricsByRegime over 4 x 3 groups, here and in
 * numpy/pandas (Debian /usr/bin/python3, the vectorised code a quant would
 * write), checks that both give the same numbers, and prints best-of-3 times.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  decileReturns,
  forwardReturns,
  informationCoefficient,
  metricsByRegime,
  performanceSummary,
  sharpeRatio,
} from "../../src/metrics/index.js";

const n = Number(process.argv[2] ?? 2_000_000);
let seed = 12345;
const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
const ret = new Float64Array(n);
const close = new Float64Array(n);
const signal = new Float64Array(n);
const regime = new Float64Array(n);
const label = new Float64Array(n);
let p = 100;
for (let i = 0; i < n; i++) {
  const r = (rand() - 0.5) * 0.002;
  ret[i] = r;
  p *= 1 + r;
  close[i] = p;
  signal[i] = rand() - 0.5 + (i > 0 ? 0.3 * (signal[i - 1] as number) : 0);
  regime[i] = Math.floor(rand() * 4);
  label[i] = Math.floor(rand() * 3) - 1;
}

function best(f: () => unknown): [number, unknown] {
  let t = Infinity;
  let out: unknown;
  for (let k = 0; k < 3; k++) {
    const s = performance.now();
    out = f();
    t = Math.min(t, performance.now() - s);
  }
  return [t, out];
}
const ppy = 525_600;
const [tA, summary] = best(() => performanceSummary(ret, { periodsPerYear: ppy })) as [number, ReturnType<typeof performanceSummary>];
const [tB, ic] = best(() => informationCoefficient(signal, forwardReturns(close, { horizons: [60] })["60 bars"] as Float64Array, { horizon: 60 })) as [
  number,
  ReturnType<typeof informationCoefficient>,
];
const fwd = forwardReturns(close, { horizons: [60] })["60 bars"] as Float64Array;
const [tC, dec] = best(() => decileReturns(signal, fwd, { buckets: 5 })) as [number, ReturnType<typeof decileReturns>];
const sharpeOnly = { sharpeRatio: (r: Float64Array) => sharpeRatio(r, { periodsPerYear: ppy }) };
const [tD, byReg] = best(() => metricsByRegime(ret, { by: { regime, label }, periodsPerYear: ppy, lag: 1, metrics: sharpeOnly, includeAll: false })) as [
  number,
  ReturnType<typeof metricsByRegime>,
];

const dir = mkdtempSync(join(tmpdir(), "metrics-bench-"));
for (const [name, a] of Object.entries({ ret, close, signal, regime, label })) writeFileSync(join(dir, `${name}.f64`), a);
const py = `
import numpy as np, pandas as pd, time, json, sys
d = sys.argv[1]; ppy = 525600
L = lambda k: np.fromfile(f"{d}/{k}.f64", dtype=np.float64)
ret, close, signal, regime, label = (L(k) for k in ["ret", "close", "signal", "regime", "label"])
def best(f):
    t = 1e9
    for _ in range(3):
        s = time.perf_counter(); out = f(); t = min(t, time.perf_counter() - s)
    return t * 1000, out
def summary():
    r = ret; w = np.cumprod(1 + r); W = np.concatenate([[1.0], w])
    sharpe = np.nanmean(r) / np.nanstd(r, ddof=1) * np.sqrt(ppy)
    d = np.minimum(r, 0); sortino = np.nanmean(r) / np.sqrt(np.nanmean(d * d))* np.sqrt(ppy)
    mdd = np.min(W / np.maximum.accumulate(W) - 1)
    cagr = w[-1] ** (ppy / len(r)) - 1
    x = np.sort(r); var = np.percentile(x, 5); k = int((len(x) - 1) * 0.05); cvar = x[:k + 1].mean()
    tail = abs(np.percentile(x, 95)) / abs(np.percentile(x, 5))
    return dict(sharpe=sharpe, sortino=sortino, mdd=mdd, cagr=cagr, var=var, cvar=cvar, tail=tail, vol=np.nanstd(r, ddof=1)*np.sqrt(ppy))
def ic():
    c = pd.Series(close); f = c.shift(-60) / c - 1
    df = pd.DataFrame({"s": signal, "f": f}).dropna()
    return df.s.rank().corr(df.f.rank())
def dec():
    c = pd.Series(close); f = c.shift(-60) / c - 1
    df = pd.DataFrame({"s": signal, "f": f}).dropna()
    b = np.floor((df.s.rank() - 1) * 5 / len(df))
    return df.f.groupby(b).mean().to_numpy()
def byreg():
    df = pd.DataFrame({"r": ret, "g": pd.Series(regime).shift(1), "l": pd.Series(label).shift(1)}).dropna()
    g = df.groupby(["g", "l"]).r
    return g.agg(lambda r: r.mean() / r.std(ddof=1) * np.sqrt(ppy)).to_numpy()
ta, s = best(summary); tb, i = best(ic); tc, q = best(dec); td, b = best(byreg)
print(json.dumps(dict(times=[ta, tb, tc, td], summary=s, ic=i, dec=list(q), byreg=list(b))))
`;
const res = spawnSync("/usr/bin/python3", ["-c", py, dir], { encoding: "utf8", maxBuffer: 1 << 24 });
rmSync(dir, { recursive: true, force: true });
const fmt = (ms: number) => `${ms.toFixed(0).padStart(7)} ms`;
const rows: [string, number][] = [
  ["performanceSummary (numpy: 8 of its numbers)", tA],
  ["forward returns + Spearman IC", tB],
  ["quintile forward returns", tC],
  ["metricsByRegime 4 x 3 groups, Sharpe", tD],
];
console.log(`metrics on ${n.toLocaleString("en-US")} one-minute bars, best of 3`);
if (res.status !== 0 || !res.stdout) {
  console.log("numpy/pandas comparison skipped (/usr/bin/python3 with numpy and pandas not available):", res.stderr?.split("\n").slice(-2).join(" "));
  for (const [name, t] of rows) console.log(`${name.padEnd(44)} ${fmt(t)}`);
  process.exit(0);
}
const pyOut = JSON.parse(res.stdout) as { times: number[]; summary: Record<string, number>; ic: number; dec: number[]; byreg: number[] };
const agree = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
const checks: [string, number, number][] = [
  ["sharpe", summary.sharpeRatio, pyOut.summary.sharpe as number],
  ["sortino", summary.sortinoRatio, pyOut.summary.sortino as number],
  ["max drawdown", summary.maxDrawdown, pyOut.summary.mdd as number],
  ["CAGR", summary.annualReturn, pyOut.summary.cagr as number],
  ["volatility", summary.annualVolatility, pyOut.summary.vol as number],
  ["VaR 5%", summary.valueAtRisk, pyOut.summary.var as number],
  ["CVaR 5%", summary.conditionalValueAtRisk, pyOut.summary.cvar as number],
  ["tail ratio", summary.tailRatio, pyOut.summary.tail as number],
  ["IC 60 bars", ic.ic, pyOut.ic],
  ...pyOut.dec.map((v, i): [string, number, number] => [`quintile ${i + 1}`, (dec.columns.meanForwardReturn as Float64Array)[i] as number, v]),
  ...pyOut.byreg.map((v, i): [string, number, number] => [`regime group ${i + 1} sharpe`, (byReg.columns.sharpeRatio as Float64Array)[i] as number, v]),
];
const bad = checks.filter(([, a, b]) => !agree(a, b));
console.log(`${"".padEnd(44)} ${"ours".padStart(10)} ${"numpy/pandas".padStart(12)}  speed-up`);
rows.forEach(([name, t], i) => {
  const tp = pyOut.times[i] as number;
  console.log(`${name.padEnd(44)} ${fmt(t)} ${fmt(tp).padStart(12)}  ${(tp / t).toFixed(1)}x`);
});
console.log(bad.length === 0 ? `all ${checks.length} numbers agree (relative 1e-9)` : `DISAGREE: ${bad.map(([k, a, b]) => `${k} ${a} vs ${b}`).join("; ")}`);
process.exit(bad.length === 0 ? 0 : 1);
