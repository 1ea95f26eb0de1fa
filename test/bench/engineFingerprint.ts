/**
 * The engine's fingerprint: every series and every trade of the backtest kernel over
 * seeded bars, in every fill x units x rebalance mode crossed with stops, take-profit,
 * liquidation, latency, spread + impact, settlement funding, confidence sizing and
 * missing prices, plus a two-coin portfolio, a levered run that is liquidated and ruined,
 * and a small weight sweep. Run it before and after a change to the kernel:
 *
 *   npx tsx test/bench/engineFingerprint.ts --write /tmp/before.json
 *   npx tsx test/bench/engineFingerprint.ts --compare /tmp/before.json [--tolerance 1e-9]
 *
 * `--compare` prints, per case, the largest relative difference over every number
 * (integers such as trade counts, indexes and sides must match exactly) and exits 1
 * when one exceeds the tolerance (default 0: bit-identical). A change that only
 * reorders floating-point operations shows as differences near 1e-15..1e-12.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { backtest, backtestPortfolio, type BacktestOptions } from "../../src/backtest/index.js";
import { sweepComposite } from "../../src/research/index.js";
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
  }
  const weights = [
    { imbalance: 0.3, funding: 0.25, basis_spread: 0.2, momentum_5m: 0.15, gas: 0.1 },
    { imbalance: 0.6, funding: 0.1, basis_spread: 0.1, momentum_5m: 0.1, gas: 0.1 },
    { imbalance: 1, funding: 0, basis_spread: 0, momentum_5m: 0, gas: 0 },
  ];
  const sweep = await sweepComposite({ ...comp, close: a.close, time: a.time }, { weights, thresholds: [0.05, 0.1], barFunding: a.funding, feeBps: 5, slippageBps: 2, workers: 0 } as never);
  const sf: Fingerprint = {};
  for (const [k, v] of Object.entries(sweep.columns)) sf[k === "trades" ? "int:trades" : k] = Array.from(v);
  sf["returns0"] = Array.from(sweep.returnsOf(0));
  out["sweep"] = sf;
  return out;
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
  if (failed > 0) process.exit(1);
}
