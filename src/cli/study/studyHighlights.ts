import { summarySharpeStandardError } from "../../metrics/summarySharpeStandardError.js";
import type { WhatIfRow } from "./runSweepWhatIf.js";
import type { Study } from "./runStudy.js";

const pct = (v: number): string => `${v >= 0 ? "+" : ""}${(v * 100).toFixed(1)}%`;
const f2 = (v: number): string => v.toFixed(2);
const dd = (v: number): string => `${(v * 100).toFixed(1)}%`;

/**
 * A few plain facts read off the study, for the top of the report and the
 * terminal: net result against buy and hold, what the costs took, how
 * reliably the composite ranked the next bar's return, and which component
 * helped or hurt most. Facts only (each a number computed above), no advice.
 */
export function studyHighlights(study: Study, variants?: readonly WhatIfRow[]): string[] {
  const out: string[] = [];
  const o = study.options;
  const p = study.portfolio;
  const coins = o.coins.filter((c) => study.coins[c] !== undefined);
  const headline = p !== undefined ? { name: "The portfolio", s: p.summary, bh: p.buyHold, fees: p.feesPaid, trades: p.result.trades } : undefined;
  const one = coins[0] !== undefined ? study.coins[coins[0]] : undefined;
  const h = headline ?? (one !== undefined ? { name: one.coin, s: one.summary, bh: one.buyHold, fees: one.feesPaid, trades: one.result.trades } : undefined);
  if (h !== undefined) {
    const bh = (h.bh[h.bh.length - 1] as number) / (h.bh[0] as number) - 1;
    const se = summarySharpeStandardError(h.s);
    out.push(
      `${h.name} returned ${pct(h.s.totalReturn)} net of costs and funding (Sharpe ${f2(h.s.sharpeRatio)} ± ${f2(se)} standard error, max drawdown ${dd(h.s.maxDrawdown)}) against ${pct(bh)} for buy and hold (bought once, never rebalanced).`,
    );
    const open = h.trades.filter((t) => t.open).length;
    out.push(
      `Fees and slippage cost ${h.fees.toLocaleString("en-US", { maximumFractionDigits: 0 })} (${((100 * h.fees) / o.initialCash).toFixed(1)}% of the starting cash) over ${h.trades.length} trade${h.trades.length === 1 ? "" : "s"}${open > 0 ? ` (${open} still open at the end)` : ""}.`,
    );
  }
  const winners = variants?.filter((v) => v.rule.startsWith("best")) ?? [];
  if (winners.length > 0) {
    const isMean = winners.reduce((a, v) => a + v.inSampleSharpe, 0) / winners.length;
    const oosMean = winners.reduce((a, v) => a + (Number.isFinite(v.outOfSampleSharpe) ? v.outOfSampleSharpe : 0), 0) / winners.length;
    const real = winners.filter((v) => v.dsr >= 0.95).map((v) => v.coin);
    out.push(
      `The best of ${winners[0]!.trials} swept variants per coin has an in-sample Sharpe of ${f2(isMean)} on average but ${f2(oosMean)} out of sample (walk-forward); its deflated Sharpe ratio (for every variant tried, as the verdicts) reaches 95% for ${real.length === 0 ? "no coin" : real.join(", ")}.`,
    );
  }
  const ic1 = coins.map((c) => ({ c, ic: (study.coins[c]!.ic.columns["ic"] as Float64Array)[0] as number, lo: (study.coins[c]!.ic.columns["ciLow"] as Float64Array)[0] as number, hi: (study.coins[c]!.ic.columns["ciHigh"] as Float64Array)[0] as number }));
  if (ic1.length > 0) {
    const significant = ic1.filter((x) => x.lo > 0 || x.hi < 0).map((x) => x.c);
    const mean = ic1.reduce((a, x) => a + x.ic, 0) / ic1.length;
    const only = ic1.length === 1 ? ic1[0]! : undefined;
    out.push(
      only !== undefined
        ? `The composite's rank IC with the next bar's return is ${only.ic.toFixed(3)} for ${only.c} (95% interval ${only.lo.toFixed(3)} to ${only.hi.toFixed(3)}${significant.length > 0 ? ", excluding zero" : ", including zero"}).`
        : `The composite's rank IC with the next bar's return averages ${mean.toFixed(3)} across coins; its 95% interval excludes zero for ${significant.length === 0 ? "none of them" : significant.join(", ")}.`,
    );
  }
  const drops = new Map<string, number[]>();
  for (const c of coins) {
    const a = study.coins[c]!.attribution;
    if (a === undefined) continue;
    (a.columns["component"] as readonly string[]).forEach((name, i) => {
      const list = drops.get(name) ?? [];
      list.push((a.columns["icDrop"] as Float64Array)[i] as number);
      drops.set(name, list);
    });
  }
  if (drops.size > 1) {
    const avg = [...drops].map(([name, v]) => ({ name, v: v.reduce((x, y) => x + y, 0) / v.length })).sort((x, y) => y.v - x.v);
    const best = avg[0]!;
    const worst = avg[avg.length - 1]!;
    out.push(
      `Component attribution: leaving out ${best.name} lowers the IC most (by ${best.v.toFixed(3)} on average); leaving out ${worst.name} ${worst.v < 0 ? `raises it by ${(-worst.v).toFixed(3)}` : `lowers it least (${worst.v.toFixed(3)})`}.`,
    );
  }
  return out;
}
