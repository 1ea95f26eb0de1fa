/**
 * stats() against backtesting.py's definitions. The backtesting.py package is
 * not installable here, so its `compute_stats` rows are written in this test's
 * Python (pandas / numpy / scipy under Debian's /usr/bin/python3) from their
 * documented meaning (backtesting/_stats.py, read for the formulas, not copied):
 * - Equity Final / Peak [$]: last and largest equity; Return [%]: last / first − 1;
 * - Buy & Hold Return [%]: last close / first close − 1 (no indicator warm-up here);
 * - Max. Drawdown [%]: −max(1 − equity / running max);
 * - Max. / Avg. Drawdown Duration: each spell of equity below its running max
 *   runs from the last bar at the max to the first bar back at it (or to the
 *   last bar), timed by the bar index; the largest and the mean;
 * - # Trades, Win Rate (PnL > 0), Best / Worst Trade (max / min ReturnPct),
 *   Avg. Trade (geometric mean of ReturnPct), Profit Factor (sum of positive
 *   ReturnPct / |sum of negative ReturnPct|, NaN without a loser), Expectancy
 *   (mean ReturnPct), SQN (sqrt(n) · mean(PnL) / std(PnL, ddof 1)), over the
 *   closed trades; ReturnPct is the trade's net return on its entry notional
 *   (Trade.netReturn; checked equal to PnL / (|units| · entry price) when no
 *   trade changed size, as none does in backtesting.py);
 * - Exposure Time [%]: bars EntryBar..ExitBar (both included) of some trade, over all bars.
 * The Sharpe ratio's standard error is checked against Mertens (2002) with
 * scipy's population skewness and excess kurtosis:
 * sqrt(P · (1 − γ₃·SRp + (γ₄ − 1)/4 · SRp²) / (n − 1)).
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { backtest } from "../../src/backtest/backtest.js";
import type { BacktestResult } from "../../src/backtest/BacktestResult.js";
import type { Trade } from "../../src/backtest/Trade.js";
import { InvalidArgumentError } from "../../src/errors/InvalidArgumentError.js";
import { loadRealCandles } from "../../src/load/loadRealCandles.js";
import { exposureTime } from "../../src/metrics/exposureTime.js";
import { tradeStatistics } from "../../src/metrics/tradeStatistics.js";
import { stats, type Stats } from "../../src/report/stats.js";
import { mulberry32 } from "../support/mulberry32.js";

const DAY = 86_400_000;

const PY = `
import json, sys, math
import numpy as np, pandas as pd
from scipy import stats as st
d = json.load(sys.stdin)
num = lambda a: np.array([np.nan if v is None else v for v in a], dtype=float)
t = pd.to_datetime(np.array(d["time"], dtype="int64"), unit="ms")
eq = pd.Series(num(d["equity"]), index=t)
close = num(d["close"])
n = len(eq)
out = {}
out["Start"] = float(d["time"][0]); out["End"] = float(d["time"][-1])
out["Duration"] = (t[-1] - t[0]) / pd.Timedelta(days=1)
out["Equity final"] = float(eq.iloc[-1]); out["Equity peak"] = float(eq.max())
out["Return [%]"] = float(eq.iloc[-1] / eq.iloc[0] - 1)
out["Buy & hold return [%]"] = float(close[-1] / close[0] - 1)
under = 1 - eq / eq.cummax()
out["Max drawdown [%]"] = -float(under.max())
at_max = np.flatnonzero(under.values == 0)
ends = sorted(set(at_max.tolist()) | {n - 1})
durs = []
for a, b in zip(ends[:-1], ends[1:]):
    if b > a + 1:
        durs.append((t[b] - t[a]) / pd.Timedelta(days=1))
out["Max drawdown duration"] = max(durs) if durs else None
out["Avg drawdown duration"] = float(np.mean(durs)) if durs else None
tr = pd.DataFrame(d["trades"], columns=["entry", "exit", "pnl", "ret", "units", "entryPrice", "open"])
tr = tr[~tr["open"].astype(bool)]
pnl = tr["pnl"].astype(float)
ret = tr["ret"].astype(float)
# a trade whose size never changed: its ReturnPct is its PnL over its entry notional
const = d["constantUnits"]
if const:
    assert np.allclose(ret, pnl / (tr["units"].abs() * tr["entryPrice"]), rtol=0, atol=1e-12)
k = len(tr)
nan = lambda v: None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)
out["Trades"] = k
out["Win rate [%]"] = nan((pnl > 0).mean()) if k else None
out["Best trade [%]"] = nan(ret.max()); out["Worst trade [%]"] = nan(ret.min())
growth = 1 + ret.fillna(0)
out["Avg trade [%]"] = (None if k == 0 else -1.0 if (growth <= 0).any() else float(np.exp(np.log(growth).mean()) - 1))
loss = -ret[ret < 0].sum()
out["Profit factor"] = float(ret[ret > 0].sum() / loss) if loss > 0 else None
out["Expectancy [%]"] = nan(ret.mean())
sd = pnl.std(ddof=1) if k > 1 else float("nan")
out["SQN"] = nan(math.sqrt(k) * pnl.mean() / sd) if k > 1 and sd > 0 else None
held = np.zeros(n)
for a, b in zip(tr["entry"], tr["exit"]):
    held[int(a):int(b) + 1] = 1
out["exposureTimeBacktestingPy"] = float(held.mean())
w = num(d["held"])
out["Bars held [%]"] = float((w[~np.isnan(w)] != 0).mean())
r = num(d["returns"]); r = r[~np.isnan(r)]
P = float(d["periodsPerYear"])
sr = r.mean() / r.std(ddof=1) * math.sqrt(P)
g3 = st.skew(r); g4 = st.kurtosis(r) + 3
srp = sr / math.sqrt(P)
out["sharpe"] = float(sr)
out["sharpeSE"] = math.sqrt(P * (1 - g3 * srp + (g4 - 1) / 4 * srp ** 2) / (len(r) - 1))
out["sharpeSEiid"] = math.sqrt((P + sr ** 2 / 2) / (len(r) - 1))
print(json.dumps(out))
`;

type Reference = Record<string, number | null>;

function reference(bt: BacktestResult, close: ArrayLike<number>, periodsPerYear: number): Reference {
  const json = (a: ArrayLike<number>) => Array.from(a, (v) => (Number.isNaN(v) ? null : v));
  const input = {
    time: Array.from(bt.time),
    equity: json(bt.equity),
    close: json(close),
    returns: json(bt.returns),
    held: json(bt.exposure),
    periodsPerYear,
    trades: bt.trades.map((t) => [t.entryIndex, t.exitIndex, t.pnl, t.netReturn ?? null, t.units, t.entryPrice, t.open]),
    // longs at a constant target keep their units (every-bar rebalance to a weight of 1); shorts do not
    constantUnits: bt.trades.every((t) => t.side === "long"),
  };
  const res = spawnSync("/usr/bin/python3", ["-c", PY], { input: JSON.stringify(input), encoding: "utf8", maxBuffer: 1 << 26 });
  expect(res.status, res.stderr).toBe(0);
  return JSON.parse(res.stdout) as Reference;
}

/** The rows whose label is backtesting.py's, and the row of the bars held, each as the reference's key. */
const CHECKED = [
  "Start", "End", "Duration", "Equity final", "Equity peak", "Return [%]", "Buy & hold return [%]", "Max drawdown [%]",
  "Max drawdown duration", "Avg drawdown duration", "Trades", "Win rate [%]", "Best trade [%]", "Worst trade [%]",
  "Avg trade [%]", "Profit factor", "Expectancy [%]", "SQN", "Bars held [%]",
] as const;

function expectRowsMatch(s: Stats, ref: Reference): void {
  for (const label of CHECKED) {
    const row = s.rows.find((r) => r.label === label);
    expect(row, label).toBeDefined();
    const want = ref[label];
    if (want === null || want === undefined) expect(row!.value, label).toBeNaN();
    else expect(row!.value, label).toBeCloseTo(want, 9);
  }
}

function prices(name: "coinbase-eth-1d" | "coinbase-eth-4h", bars?: number) {
  const p = loadRealCandles(name);
  const from = bars === undefined ? 0 : p.time.length - bars;
  const col = (k: string) => (p.columns[k] as Float64Array).subarray(from);
  return { time: p.time.subarray(from), close: col("close"), open: col("open"), high: col("high"), low: col("low") };
}

describe("stats() rows with backtesting.py's names mean what theirs mean", () => {
  it("an always-long target with a 5 % stop on real ETH daily bars: 25.4 % of bars held (backtesting.py's inclusive count: 25.7 %)", () => {
    const px = prices("coinbase-eth-1d");
    const n = px.close.length;
    const bt = backtest({ ...px, position: new Float64Array(n).fill(1), stopLoss: 0.05 });
    const s = stats(bt, { close: px.close, periodsPerYear: 365 });
    const ref = reference(bt, px.close, 365);
    expect(n).toBe(350);
    // stopped out on bar 89, then flat while the target stays long: held at the closes of bars 0..88
    expect(bt.trades.length).toBe(1);
    expect(bt.trades[0]!.exitIndex).toBe(89);
    const held = s.rows.find((r) => r.label === "Bars held [%]")!;
    expect(held.value).toBe(89 / 350);
    expect(held.text).toBe("25.4%");
    expect(bt.metrics.exposure).toBeCloseTo(89 / 350, 12); // the engine's number: the same one
    expect(ref["exposureTimeBacktestingPy"]).toBe(90 / 350); // 25.7 %: the stop's bar counted too
    expect(s.rows.map((r) => r.label)).not.toContain("Exposure time [%]");
    expectRowsMatch(s, ref);
    expect(s.sharpeStandardError).toBeCloseTo(ref["sharpeSE"]!, 9);
  });

  it("a seeded long / short / flat strategy with fees on real ETH daily bars: every row, and the Mertens standard error to 1e-9", () => {
    const px = prices("coinbase-eth-1d");
    const rnd = mulberry32(7);
    let side = 0;
    const position = Float64Array.from(px.close, () => {
      if (rnd() < 0.15) side = [-1, 0, 1][Math.floor(rnd() * 3)]!;
      return side;
    });
    const bt = backtest({ ...px, position, feeBps: 10 });
    const s = stats(bt, { close: px.close, periodsPerYear: 365 });
    const ref = reference(bt, px.close, 365);
    expect(bt.trades.filter((t) => !t.open).length).toBeGreaterThan(10);
    expectRowsMatch(s, ref);
    expect(s.summary.sharpeRatio).toBeCloseTo(ref["sharpe"]!, 9);
    expect(Math.abs(s.sharpeStandardError - ref["sharpeSE"]!)).toBeLessThan(1e-9);
    // the i.i.d. normal error is another number on these returns
    expect(Math.abs(s.sharpeStandardError - ref["sharpeSEiid"]!)).toBeGreaterThan(1e-3);
    expect(s.rows.find((r) => r.label === "Sharpe ratio (empyrical) ± SE")!.text).toBe(`${s.summary.sharpeRatio.toFixed(2)} ± ${ref["sharpeSE"]!.toFixed(2)}`);
  });

  it("many trades with stops and fees on real ETH 4h bars (intraday durations in days)", () => {
    const px = prices("coinbase-eth-4h", 3000);
    const rnd = mulberry32(11);
    let side = 0;
    const position = Float64Array.from(px.close, () => {
      if (rnd() < 0.1) side = rnd() < 0.6 ? 1 : 0;
      return side;
    });
    const bt = backtest({ ...px, position, feeBps: 5, slippageBps: 2, stopLoss: 0.03 });
    const s = stats(bt, { close: px.close, periodsPerYear: 6 * 365 });
    const ref = reference(bt, px.close, 6 * 365);
    expect(bt.trades.filter((t) => !t.open).length).toBeGreaterThan(50);
    expect(bt.trades.some((t) => t.reason === "stop")).toBe(true);
    expectRowsMatch(s, ref);
    expect(Math.abs(s.sharpeStandardError - ref["sharpeSE"]!)).toBeLessThan(1e-9);
  });
});

describe("stats() edge cases", () => {
  const time = Float64Array.from({ length: 6 }, (_, i) => Date.UTC(2024, 0, 1) + i * DAY);
  const trade = (p: Partial<Trade>): Trade => ({
    side: "long", entryIndex: 1, exitIndex: 3, entryTime: time[1]!, exitTime: time[3]!, entryPrice: 100, exitPrice: 110,
    units: 1, return: 0.1, pnl: 10, barsHeld: 2, fees: 0, funding: 0, open: false, ...p,
  });

  it("empty input: dashes and NaN, no exception", () => {
    const s = stats({ time: [], returns: [], trades: [], exposure: [] }, { periodsPerYear: 365, close: [] });
    for (const label of ["Return [%]", "Buy & hold return [%]", "Max drawdown duration", "Avg drawdown duration", "Avg trade [%]", "SQN", "Bars held [%]"]) {
      expect(s.rows.find((r) => r.label === label)?.value, label).toBeNaN();
    }
    expect(s.rows.find((r) => r.label === "Trades")?.value).toBe(0);
    expect(s.sharpeStandardError).toBeNaN();
  });

  it("one trade: its return is the average and the expectancy; SQN and a loser-less profit factor are NaN (as backtesting.py)", () => {
    const returns = [Number.NaN, 0.01, 0.02, -0.01, 0, 0];
    const s = stats({ time, returns, trades: [trade({})] }, { periodsPerYear: 365 });
    const v = (label: string) => s.rows.find((r) => r.label === label)!.value;
    expect(v("Trades")).toBe(1);
    expect(v("Avg trade [%]")).toBeCloseTo(0.1, 14);
    expect(v("Expectancy [%]")).toBeCloseTo(0.1, 14);
    expect(v("SQN")).toBeNaN();
    expect(v("Profit factor")).toBeNaN();
    expect(v("Win rate [%]")).toBe(1);
  });

  it("a trade that lost everything makes the geometric average −100 % (backtesting.py shows 0 there)", () => {
    const ts = tradeStatistics([trade({ pnl: -100, exitPrice: 0, return: -1 }), trade({ pnl: 10 })]);
    expect(ts.geometricMeanTrade).toBe(-1);
    // hand: profit factor on returns 0.1 / 1; SQN on pnl: sqrt(2) * (-45) / std([-100, 10]) = sqrt(2) * -45 / 77.7817 = -0.8182
    expect(ts.profitFactorOfReturns).toBeCloseTo(0.1, 14);
    expect(ts.sqnOfPnl).toBeCloseTo((Math.sqrt(2) * -45) / Math.sqrt((55 ** 2 * 2) / 1), 12);
  });

  it("NaN returns inside the series are skipped by the Sharpe ratio, its moments and its n", () => {
    const r = [Number.NaN, 0.01, Number.NaN, -0.02, 0.03, 0.005];
    const s = stats({ time, returns: r }, { periodsPerYear: 365 });
    const clean = stats({ time: time.subarray(1).filter((_, i) => i !== 1), returns: [0.01, -0.02, 0.03, 0.005] }, { periodsPerYear: 365 });
    expect(s.summary.observations).toBe(4);
    expect(s.sharpeStandardError).toBeCloseTo(clean.sharpeStandardError, 14);
    expect(Number.isFinite(s.sharpeStandardError)).toBe(true);
  });

  it("a constant series: no Sharpe, no standard error, no drawdown spell", () => {
    const s = stats({ time, returns: [Number.NaN, 0, 0, 0, 0, 0] }, { periodsPerYear: 365 });
    expect(s.summary.sharpeRatio).toBeNaN();
    expect(s.sharpeStandardError).toBeNaN();
    expect(s.rows.find((r) => r.label === "Max drawdown duration")!.value).toBeNaN();
    expect(s.rows.find((r) => r.label === "Max drawdown [%]")!.value).toBe(0);
  });

  it("leaves its inputs alone and refuses a close of the wrong length", () => {
    const returns = Float64Array.from([Number.NaN, 0.01, 0.02, -0.01, 0, 0]);
    const exposure = Float64Array.from([1, 1, 0, 0, 1, 1]);
    const trades = [trade({})];
    const close = [100, 101, 103, 102, 102, 102];
    const copies = [Float64Array.from(returns), Float64Array.from(exposure), JSON.stringify(trades), [...close]];
    stats({ time, returns, exposure, trades }, { periodsPerYear: 365, close });
    expect([returns, exposure, JSON.stringify(trades), close]).toEqual(copies);
    expect(() => stats({ time, returns }, { periodsPerYear: 365, close: [1, 2] })).toThrow(InvalidArgumentError);
    expect(() => stats({ time, returns }, { periodsPerYear: 365, close: [1, 2] })).toThrow("stats: close must have one price per bar (6), got 2");
  });
});

describe("exposureTime", () => {
  it("counts the closes that hold a position over the non-NaN ones (hand-counted)", () => {
    expect(exposureTime([1, 1, 0, 0.5, Number.NaN])).toBe(0.75);
    expect(exposureTime([-0.3, 0])).toBe(0.5);
    expect(exposureTime([0])).toBe(0);
    expect(exposureTime([2])).toBe(1);
    expect(exposureTime([])).toBeNaN();
    expect(exposureTime([Number.NaN])).toBeNaN();
    expect(() => exposureTime(null as never)).toThrow(InvalidArgumentError);
  });
});
