/**
 * The engine's fingerprint: every series and every trade of the backtest kernel over
 * seeded bars, in every fill x units x rebalance mode crossed with stops, take-profit,
 * liquidation, latency, spread + impact, settlement funding, confidence sizing and
 * missing prices, plus a two-coin portfolio, a levered run that is liquidated and ruined,
 * the composite replay streamed as `signal` and read as a `position` column (with missing
 * component values, every fill/units/rebalance mode), and weight sweeps (neutral flat and hold,
 * missing scores, several thresholds; one calling-thread run, one over 3 shards). Run it
 * before and after a change to the engine (kernel, target rule, composite, sweep passes):
 *
 *   npx tsx test/bench/engineFingerprint.ts --write /tmp/before.json
 *   npx tsx test/bench/engineFingerprint.ts --compare /tmp/before.json [--tolerance 1e-9]
 *
 * `--compare` prints, per case, the largest relative difference over every number
 * (integers such as trade counts, indexes and sides must match exactly) and exits 1
 * when one exceeds the tolerance (default 0: bit-identical). A change that only
 * reorders floating-point operations shows as differences near 1e-15..1e-12.
 *
 * Every run also checks that each sweep variant equals a plain `backtest` of that variant
 * (replayComposite of the scores with the variant's weights and threshold as the signal):
 * returns bit for bit (`returnsOf`), total return, trades, max drawdown, turnover and
 * exposure bit for bit, the Sharpe ratio (from sums vs from the series) within 1e-12; and
 * that the sharded sweep equals the whole one bit for bit. A failure exits 1.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { backtest, backtestPortfolio, type BacktestOptions } from "../../src/backtest/index.js";
import { maxDrawdown, sharpeRatio } from "../../src/metrics/index.js";
import { mergeSweeps, sweepComposite, type SweepOptions, type SweepResult } from "../../src/research/index.js";
import { replayComposite } from "../../src/signals/index.js";
import { mulberry32 } from "../support/mulberry32.js";

const { values: args } = parseArgs({ options: { write: { type: "string" }, compare: { type: "string" }, tolerance: { type: "string", default: "0" }, bars: { type: "string", default: "20000" } } });
const n = Number(args.bars);

/** Seeded OHLC bars with funding, spread, volume, a composite-like signal and a few missing prices. */
function bars(seed: number, missing: boolean) {
  const rnd = mulberry32(seed);
  const close = new Float64Array(n);
  const open = new Float64Array(n);
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  const funding = new Float64Array(n);
  const spreadBps = new Float64Array(n);
  const volume = new Float64Array(n);
  const signal = new Float64Array(n);
  const confidence = new Float64Array(n);
  const time = new Float64Array(n);
  let p = 100;
  let s = 0;
  for (let i = 0; i < n; i++) {
    const o = p * (1 + 0.004 * (rnd() - 0.5));
    p = o * (1 + 0.01 * (rnd() - 0.5));
    open[i] = o;
    close[i] = p;
    high[i] = Math.max(o, p) * (1 + 0.004 * rnd());
    low[i] = Math.min(o, p) * (1 - 0.004 * rnd());
    funding[i] = 2e-5 * (rnd() - 0.4);
    spreadBps[i] = rnd() < 0.05 ? Number.NaN : 2 * rnd();
    volume[i] = 1e6 * (0.5 + rnd());
    s = 0.97 * s + 0.3 * (rnd() - 0.5);
    signal[i] = s > 0.15 ? 1 : s < -0.15 ? -1 : 0;
    confidence[i] = rnd();
    time[i] = 1_700_000_000_000 + i * 60_000;
    if (missing && i > 0 && rnd() < 0.01) {
      close[i] = open[i] = high[i] = low[i] = Number.NaN;
    }
  }
  return { close, open, high, low, funding, spreadBps, volume, signal, confidence, time };
}

type Fingerprint = Record<string, number[]>;

function ofBacktest(o: BacktestOptions): Fingerprint {
  const r = backtest(o);
  const f: Fingerprint = {
    equity: Array.from(r.equity),
    returns: Array.from(r.returns),
    exposure: Array.from(r.exposure),
    holdings: Array.from(r.holdings),
    turnover: Array.from(r.turnover),
    fees: Array.from(r.fees),
    fundingPaid: Array.from(r.fundingPaid),
    positions: Array.from(r.positions),
    "int:ruinIndex": [r.ruinIndex],
    "int:trades": [r.trades.length],
  };
  const t = r.trades;
  f["int:trade.entry"] = t.map((x) => x.entryIndex);
  f["int:trade.exit"] = t.map((x) => x.exitIndex);
  f["int:trade.side"] = t.map((x) => (x.side === "long" ? 1 : -1));
  f["trade.units"] = t.map((x) => x.units);
  f["trade.pnl"] = t.map((x) => x.pnl);
  f["trade.fees"] = t.map((x) => x.fees);
  f["trade.funding"] = t.map((x) => x.funding);
  f["trade.entryPrice"] = t.map((x) => x.entryPrice);
  f["trade.exitPrice"] = t.map((x) => x.exitPrice);
  const c = r.costs as unknown as Record<string, number>;
  for (const [k, v] of Object.entries(c)) if (typeof v === "number") f[`costs.${k}`] = [v];
  return f;
}

async function fingerprints(): Promise<Record<string, Fingerprint>> {
  const a = bars(7, false);
  const m = bars(11, true);
  const out: Record<string, Fingerprint> = {};
  const base = { time: a.time, close: a.close, open: a.open, high: a.high, low: a.low, signal: a.signal, funding: a.funding, feeBps: 4, slippageBps: 1, initialCash: 10_000 };
  const extras: Record<string, Partial<BacktestOptions>> = {
    plain: {},
    stops: { stopLoss: 0.004, takeProfit: 0.006 },
    margin: { maxLeverage: 20, size: 20, maintenanceMargin: 0.03, liquidationFeeBps: 50 },
    delay: { delayBars: 2 },
    costs: { spreadBps: a.spreadBps, impact: { volume: a.volume, coefficient: 0.5 } },
    settlements: { funding: { rate: a.funding, intervalMs: 8 * 3_600_000 } },
    sizing: { sizing: { by: "confidence", confidence: a.confidence }, neutral: "hold" },
  };
  for (const fill of ["next_close", "next_open"] as const) {
    for (const units of ["fractional", "whole"] as const) {
      for (const rebalance of ["every_bar", "on_change"] as const) {
        for (const [name, extra] of Object.entries(extras)) {
          out[`${fill}/${units}/${rebalance}/${name}`] = ofBacktest({ ...base, fill, units, rebalance, ...extra } as BacktestOptions);
        }
        out[`${fill}/${units}/${rebalance}/missing`] = ofBacktest({ ...base, close: m.close, open: m.open, high: m.high, low: m.low, signal: m.signal, fill, units, rebalance, stopLoss: 0.01 } as BacktestOptions);
      }
    }
  }
  out["ruin"] = ofBacktest({ ...base, maxLeverage: 400, size: 400, fill: "next_open" });
  out["ruin-close"] = ofBacktest({ ...base, maxLeverage: 400, size: 400 });
  const p = backtestPortfolio({
    time: a.time,
    coins: {
      A: { close: a.close, open: a.open, high: a.high, low: a.low, funding: a.funding, spreadBps: a.spreadBps, signal: a.signal } as never,
      B: { close: m.close, open: m.open, high: m.high, low: m.low, funding: m.funding, signal: m.signal } as never,
    },
    feeBps: 3,
    stopLoss: 0.01,
  } as never);
  const pf: Fingerprint = { equity: Array.from(p.equity), returns: Array.from(p.returns), "int:trades": [p.trades.length], "trade.pnl": p.trades.map((x) => x.pnl) };
  for (const [name, s] of Object.entries(p.coins)) {
    pf[`${name}.positions`] = Array.from(s.positions);
    pf[`${name}.holdings`] = Array.from(s.holdings);
  }
  out["portfolio"] = pf;
  const comp = { imbalance: new Float64Array(n), funding: new Float64Array(n), basis_spread: new Float64Array(n), momentum_5m: new Float64Array(n), gas: new Float64Array(n) };
  const rnd = mulberry32(3);
  for (let i = 0; i < n; i++) {
    comp.imbalance[i] = 0.5 + 0.3 * (rnd() - 0.5) + 0.2 * (a.signal[i] as number);
    comp.funding[i] = a.funding[i] as number;
    comp.basis_spread[i] = 40 * (rnd() - 0.5);
    comp.momentum_5m[i] = 2 * (rnd() - 0.5);
    comp.gas[i] = 0.5 + 2 * rnd();
    // a few missing component values: the composite's missing-score policy decides those rows
    if (rnd() < 0.02) comp.basis_spread[i] = Number.NaN;
    if (rnd() < 0.005) comp.gas[i] = Number.NaN;
  }
  // The composite replay as the signal (streamed) and as a position column, in every mode.
  for (const fill of ["next_close", "next_open"] as const) {
    for (const units of ["fractional", "whole"] as const) {
      for (const rebalance of ["every_bar", "on_change"] as const) {
        const rep = replayComposite(comp, { threshold: 0.05 });
        out[`composite/${fill}/${units}/${rebalance}/signal`] = ofBacktest({ ...base, signal: rep, fill, units, rebalance } as BacktestOptions);
        const label = replayComposite(comp, { threshold: 0.05 }).label;
        out[`composite/${fill}/${units}/${rebalance}/position`] = ofBacktest({ ...base, signal: undefined, position: Float64Array.from(label, (x) => 0.5 * x), fill, units, rebalance } as unknown as BacktestOptions);
      }
    }
  }
  out["composite/hold/sizing"] = ofBacktest({ ...base, signal: replayComposite(comp, { threshold: 0.1, missing: "zero" }), neutral: "hold", shorts: false, sizing: { by: "confidence", confidence: a.confidence }, flatWhen: Float64Array.from(a.confidence, (x) => (x > 0.9 ? 1 : 0)) } as BacktestOptions);
  const weights = [
    { imbalance: 0.3, funding: 0.25, basis_spread: 0.2, momentum_5m: 0.15, gas: 0.1 },
    { imbalance: 0.6, funding: 0.1, basis_spread: 0.1, momentum_5m: 0.1, gas: 0.1 },
    { imbalance: 1, funding: 0, basis_spread: 0, momentum_5m: 0, gas: 0 },
    { gas: 0.2, momentum_5m: 0.2, basis_spread: 0.2, funding: 0.2, imbalance: 0.2 },
    { basis_spread: 0.5, imbalance: 0.5 },
  ];
  const sweeps: Record<string, SweepOptions> = {
    sweep: { weights, thresholds: [0.05, 0.1], barFunding: a.funding, feeBps: 5, slippageBps: 2, workers: 0 },
    "sweep-hold": { weights, thresholds: [0, 0.02, 0.08], neutral: "hold", feeBps: 3, workers: 0 },
    "sweep-nan": { weights, thresholds: [0.1], missing: "nan", barFunding: a.funding, slippageBps: 2, workers: 0 },
  };
  for (const [name, options] of Object.entries(sweeps)) {
    const input = { ...comp, close: a.close, time: a.time };
    const sweep = await sweepComposite(input, options);
    const sf: Fingerprint = {};
    for (const [k, v] of Object.entries(sweep.columns)) sf[k === "trades" ? "int:trades" : k] = Array.from(v);
    sf["returns0"] = Array.from(sweep.returnsOf(0));
    out[name] = sf;
    checkVariants(name, sweep, input, options);
    const shards = await Promise.all([0, 1, 2].map((index) => sweepComposite(input, { ...options, shard: { index, count: 3 } })));
    checkSame(`${name} in 3 shards`, mergeSweeps(shards), sweep);
  }
  return out;
}

/** Failures of the checks (each sweep variant vs a plain backtest, shards vs whole). */
const failures: string[] = [];

/** Each variant of a sweep equals a plain backtest of its weights and threshold. */
function checkVariants(name: string, sweep: SweepResult, input: Record<string, Float64Array>, options: SweepOptions): void {
  const c = sweep.columns;
  const nt = (options.thresholds ?? [0.1]).length;
  const cash = options.initialCash ?? 10_000;
  for (let v = 0; v < sweep.length; v++) {
    const weights = options.weights[Math.floor(v / nt)] as Record<string, number>;
    const threshold = (options.thresholds ?? [0.1])[v % nt] as number;
    const replay = replayComposite(input, { weights, allowAnySum: true, threshold, missing: options.missing ?? "renormalise" });
    const r = backtest({
      close: input["close"],
      signal: replay,
      ...(options.barFunding !== undefined ? { funding: options.barFunding } : {}),
      feeBps: options.feeBps ?? 0,
      slippageBps: options.slippageBps ?? 0,
      initialCash: cash,
      neutral: options.neutral ?? "flat",
    } as BacktestOptions);
    const returns = r.returns;
    const expect: Record<string, number> = {
      totalReturn: (r.equity[n - 1] as number) / cash - 1,
      maxDrawdown: maxDrawdown(returns.subarray(1)),
      trades: r.trades.length,
      turnover: r.turnover.reduce((s, x) => s + x, 0),
      exposure: r.exposure.reduce((s, x) => s + Math.abs(x), 0) / n,
    };
    const sharpe = sharpeRatio(returns.subarray(1), { periodsPerYear: sweep.periodsPerYear });
    const got = (m: string): number => (c[m] as Float64Array)[v] as number;
    for (const [m, x] of Object.entries(expect)) {
      // maxDrawdown: the series' rule compounds the returns, the kernel divides equity by its peak (a few ulps apart)
      const tol = m === "maxDrawdown" || m === "turnover" || m === "exposure" ? 1e-12 : 0;
      if (rel(got(m), x) > tol) failures.push(`${name} variant ${v}: ${m} ${got(m)} vs backtest ${x}`);
    }
    if (rel(got("sharpeRatio"), sharpe) > 1e-9) failures.push(`${name} variant ${v}: sharpeRatio ${got("sharpeRatio")} vs backtest ${sharpe}`);
    const rv = sweep.returnsOf(v);
    for (let i = 0; i < n; i++) {
      if (rel(rv[i] as number, returns[i] as number) > 0) {
        failures.push(`${name} variant ${v}: returnsOf[${i}] ${rv[i]} vs backtest ${returns[i]}`);
        break;
      }
    }
  }
}

/** Two sweep results hold the same table, bit for bit. */
function checkSame(name: string, x: SweepResult, y: SweepResult): void {
  for (const [k, v] of Object.entries(y.columns)) {
    const w = x.columns[k];
    if (w === undefined || w.length !== v.length) {
      failures.push(`${name}: column ${k} missing or of another length`);
      continue;
    }
    for (let i = 0; i < v.length; i++) {
      if (rel(w[i] as number, v[i] as number) > 0) {
        failures.push(`${name}: ${k}[${i}] ${w[i]} vs ${v[i]}`);
        break;
      }
    }
  }
}

/** Largest relative difference of two numbers (0 when both NaN or equal). */
function rel(x: number, y: number): number {
  if (x === y || (x !== x && y !== y)) return 0;
  if (x !== x || y !== y) return Number.POSITIVE_INFINITY;
  return Math.abs(x - y) / Math.max(Math.abs(x), Math.abs(y), 1e-300);
}

const now = await fingerprints();
if (args.write !== undefined) {
  writeFileSync(args.write, JSON.stringify(now, (_k, v: unknown) => (typeof v === "number" && !Number.isFinite(v) ? String(v) : v)));
  console.log(`wrote ${Object.keys(now).length} cases over ${n} bars to ${args.write}`);
}
if (args.compare !== undefined) {
  const before = JSON.parse(readFileSync(args.compare, "utf8"), (_k, v: unknown) => (v === "NaN" ? Number.NaN : v === "Infinity" ? Infinity : v === "-Infinity" ? -Infinity : v)) as Record<string, Fingerprint>;
  const tol = Number(args.tolerance);
  let failed = 0;
  let worstAll = 0;
  for (const [name, f] of Object.entries(before)) {
    const g = now[name];
    let worst = 0;
    let where = "";
    for (const [field, xs] of Object.entries(f)) {
      const ys = g?.[field];
      if (ys === undefined || ys.length !== xs.length) {
        worst = Number.POSITIVE_INFINITY;
        where = `${field}: length ${xs.length} -> ${ys?.length}`;
        break;
      }
      for (let i = 0; i < xs.length; i++) {
        const d = field.startsWith("int:") ? (xs[i] === ys[i] ? 0 : Number.POSITIVE_INFINITY) : rel(xs[i] as number, ys[i] as number);
        if (d > worst) {
          worst = d;
          where = `${field}[${i}] ${xs[i]} -> ${ys[i]}`;
        }
      }
    }
    worstAll = Math.max(worstAll, worst);
    const bad = worst > tol;
    if (bad) failed++;
    console.log(`${bad ? "DIFF" : "ok  "} ${name.padEnd(40)} max rel diff ${worst === 0 ? "0" : worst.toExponential(2)}${worst > 0 ? `  (${where})` : ""}`);
  }
  console.log(`${Object.keys(before).length} cases, worst ${worstAll.toExponential(2)}, ${failed} above tolerance ${tol}`);
  if (failed > 0) process.exitCode = 1;
}
for (const f of failures.slice(0, 20)) console.log(`FAIL ${f}`);
console.log(failures.length === 0 ? "checks: every sweep variant equals its plain backtest; shards equal the whole sweep" : `checks: ${failures.length} failures`);
if (failures.length > 0) process.exitCode = 1;
