/**
 * Buy-and-hold metrics on real data: Coinbase BTC-USD 4-hour candles,
 * 2016-05-18 .. 2025-10-28 (fixtures/real/coinbase-btc-4h.json.gz, see its
 * README for source and license), against numpy 1.24 / pandas 1.5.3 run once
 * on the same file (Debian /usr/bin/python3):
 *   r = pd.Series(close).pct_change().dropna().to_numpy(); ppy = 365 * 86400000 / median(diff(time))
 *   W = concat([1], cumprod(1 + r)); dd = W / maximum.accumulate(W) - 1
 *   sharpe = r.mean() / r.std(ddof=1) * sqrt(ppy); sortino = r.mean() / sqrt(mean(minimum(r, 0)**2)) * sqrt(ppy)
 *   cagr = W[-1] ** (ppy / len(r)) - 1; var = percentile(r, 5); cvar = sort(r)[:int((n-1)*0.05)+1].mean()
 *   tail = |percentile(r, 95)| / |percentile(r, 5)|; stability = corrcoef(arange(n), cumsum(log1p(r)))[0, 1]**2
 *   ddbars = longest run of dd < 0; omega = r[r>0].sum() / -r[r<0].sum()
 *   ic6: mom = c / c.shift(6) - 1; fwd = c.shift(-6) / c - 1; d = dropna; d.mom.rank().corr(d.fwd.rank())
 */
import { describe, expect, it } from "vitest";
import { loadRealCandles } from "../../src/load/index.js";
import { forwardReturns, informationCoefficient, performanceSummary } from "../../src/metrics/index.js";

const panel = loadRealCandles("coinbase-btc-4h");
const close = panel.columns.close as Float64Array;
const returns = Float64Array.from(close, (c, i) => (i === 0 ? Number.NaN : c / (close[i - 1] as number) - 1));

function rel(actual: number, expected: number, tol = 1e-10): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(expected)));
}

describe("real data: Coinbase BTC 4h buy and hold, 20 695 bars", () => {
  it("performanceSummary equals numpy", () => {
    const s = performanceSummary(returns, { time: panel.time });
    expect(s.periodsPerYear).toBe(2190);
    expect(s.periods).toBe(20694);
    rel(s.totalReturn, 248.79617122056052, 1e-9);
    rel(s.annualReturn, 0.7936230274891258);
    rel(s.annualVolatility, 0.7112396658791795);
    rel(s.sharpeRatio, 1.1764541493829148);
    rel(s.sortinoRatio, 1.7034585368130486);
    rel(s.maxDrawdown, -0.8417991334758558);
    expect(s.maxDrawdownDurationBars).toBe(6567);
    rel(s.calmarRatio, 0.9427700694014652);
    rel(s.omegaRatio, 1.0881647521581015);
    rel(s.valueAtRisk, -0.021487266645181077);
    rel(s.conditionalValueAtRisk, -0.03646710591161615);
    rel(s.tailRatio, 1.040557917915749);
    rel(s.stability, 0.825507580265881, 1e-9);
  });
  it("6-bar momentum vs 6-bar forward return: Spearman IC equals pandas", () => {
    const mom = Float64Array.from(close, (c, i) => (i < 6 ? Number.NaN : c / (close[i - 6] as number) - 1));
    const fwd = forwardReturns(close, { horizons: ["24h"], time: panel.time })["24h"] as Float64Array;
    const ic = informationCoefficient(mom, fwd, { horizon: 6 });
    expect(ic.n).toBe(20683);
    rel(ic.ic, -0.03705981070303407);
    expect(ic.effectiveN).toBeCloseTo(20683 / 6, 9);
  });
});
