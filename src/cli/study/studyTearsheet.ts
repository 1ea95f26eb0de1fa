import type { Trade } from "../../backtest/Trade.js";
import type { RegimeTable } from "../../metrics/metricsByRegime.js";
import type { MetricsTable } from "../../metrics/MetricsTable.js";
import type { TearsheetSection, TearsheetTable } from "../../report/renderTearsheet.js";
import { cagrNote, summaryTiles } from "../../report/summaryTiles.js";
import { DEFAULT_WEIGHTS } from "../../signals/weights.js";
import type { Study } from "./runStudy.js";
import { SCORECARD_FORMAT, scorecardColumns, scorecardRows } from "./scorecard.js";

const VOL_NAMES = ["low", "normal", "high", "extreme"];
const MARKET_NAMES = ["risk_off", "neutral", "risk_on"];
const pct = (v: number): string => (Number.isFinite(v) ? `${(v * 100).toFixed(2)}%` : "–");
const f2 = (v: number): string => (Number.isFinite(v) ? v.toFixed(2) : "–");
const f3 = (v: number): string => (Number.isFinite(v) ? v.toFixed(3) : "–");

/**
 * Regime rows (the "all" row left out) as grouped bars, strategy next to buy
 * and hold, and a table. Both tables group the same bars by the same codes.
 */
function regimeParts(
  table: RegimeTable,
  buyHold: RegimeTable,
  key: string,
  names: readonly string[],
  offset: number,
): { category: string[]; value: number[]; group: string[]; table: TearsheetTable } {
  const codes = table.columns[key] as Float64Array;
  const idx: number[] = [];
  for (let i = 0; i < table.rows; i++) if (Number.isFinite(codes[i] as number)) idx.push(i);
  const name = (i: number): string => names[(codes[i] as number) + offset] ?? String(codes[i]);
  const pick = (c: string): Float64Array => Float64Array.from(idx, (i) => (table.columns[c] as Float64Array)[i] as number);
  const bhCodes = buyHold.columns[key] as Float64Array;
  const bhTotal = Float64Array.from(idx, (i) => {
    for (let j = 0; j < buyHold.rows; j++) if (bhCodes[j] === codes[i]) return (buyHold.columns["totalReturn"] as Float64Array)[j] as number;
    return Number.NaN;
  });
  const strategy = pick("totalReturn");
  return {
    category: [...idx.map(name), ...idx.map(name)],
    value: [...strategy, ...bhTotal],
    group: [...idx.map(() => "strategy"), ...idx.map(() => "buy & hold")],
    table: {
      title: "By regime (regime known when each position was taken)",
      table: {
        regime: idx.map(name),
        bars: pick("bars"),
        share: pick("share"),
        "total return": strategy,
        "buy & hold": bhTotal,
        Sharpe: pick("sharpeRatio"),
        "max DD": pick("maxDrawdown"),
        trades: pick("trades"),
        "win rate": pick("winRate"),
      },
      signed: ["total return", "buy & hold", "Sharpe"],
      format: { share: pct, "total return": pct, "buy & hold": pct, Sharpe: f2, "max DD": pct, "win rate": pct },
    },
  };
}

/** IC per horizon (rows) and coin (columns), each with its 95% interval. */
function icTable(tables: Readonly<Record<string, MetricsTable>>): TearsheetTable {
  const coins = Object.keys(tables);
  const first = tables[coins[0] as string] as MetricsTable;
  const cols: Record<string, Float64Array | string[]> = { "horizon (bars)": first.columns["bars"] as Float64Array };
  const format: Record<string, (v: number) => string> = {};
  const signed: string[] = [];
  for (const c of coins) {
    const t = tables[c] as MetricsTable;
    cols[`${c} IC`] = t.columns["ic"] as Float64Array;
    cols[`${c} 95% CI`] = Array.from(t.columns["ciLow"] as Float64Array, (lo, i) => `${f3(lo)} … ${f3((t.columns["ciHigh"] as Float64Array)[i] as number)}`);
    format[`${c} IC`] = f3;
    signed.push(`${c} IC`);
  }
  return { title: "Rank IC of the composite with forward returns (95% interval, overlap-corrected)", table: cols, signed, format };
}

/** Per component (rows): weight, then each coin's own IC and the composite's IC drop without it. */
function attributionTable(study: Study, coins: readonly string[]): TearsheetTable | undefined {
  const firstA = study.coins[coins[0] as keyof Study["coins"]]!.attribution;
  if (firstA === undefined) return undefined;
  const cols: Record<string, Float64Array | readonly string[]> = {
    component: firstA.columns["component"] as readonly string[],
    weight: firstA.columns["weight"] as Float64Array,
  };
  const format: Record<string, (v: number) => string> = { weight: f2 };
  const signed: string[] = [];
  for (const c of coins) {
    const a = study.coins[c as keyof Study["coins"]]!.attribution!;
    cols[`${c} own IC`] = a.columns["ic"] as Float64Array;
    cols[`${c} IC drop`] = a.columns["icDrop"] as Float64Array;
    format[`${c} own IC`] = f3;
    format[`${c} IC drop`] = f3;
    signed.push(`${c} own IC`, `${c} IC drop`);
  }
  return { title: "Component attribution (1-bar forward returns): own IC, and IC drop of the composite without the component", table: cols, signed, format };
}

/** Study sections of the tearsheet: the scorecard, the portfolio, signal evaluation, then each coin. */
export function studySections(study: Study): { summary: TearsheetTable; sections: TearsheetSection[] } {
  const o = study.options;
  const bar = o.barMinutes % 60 === 0 ? `${o.barMinutes / 60}h` : `${o.barMinutes}m`;
  const sections: TearsheetSection[] = [];
  const p = study.portfolio;
  if (p !== undefined) {
    const regimes = regimeParts(p.byMarketRegime, p.buyHoldByMarketRegime, "marketRegime", MARKET_NAMES, 1);
    const trades: Trade[] = [...p.result.trades].sort((a, b) => a.entryTime - b.entryTime);
    sections.push({
      title: `Portfolio (${o.coins.join(", ")}, equal weights)`,
      id: "portfolio",
      intro: `All coins share one capital, each with 1/${o.coins.length} of equity at full size; positions follow each coin's composite label. Buy & hold: the same equal split bought once at the first bar and never rebalanced (each coin's share drifts with its price), without costs or funding.`,
      metrics: summaryTiles(p.summary, { time: study.time, fees: p.feesPaid, funding: p.fundingPaid, openTrades: p.result.trades.filter((t) => t.open).length }),
      equity: { time: study.time, series: { strategy: p.result.equity, "buy & hold": p.buyHold } },
      positions: { time: study.time, series: Object.fromEntries(o.coins.map((c) => [c, (p.result.coins[c] as { positions: Float64Array }).positions])) },
      regimeReturns: {
        category: regimes.category,
        value: regimes.value,
        group: regimes.group,
        title: "Total return by market regime: strategy vs buy & hold",
        options: { format: ".1%", valueTitle: "total return" },
      },
      tables: [regimes.table],
      trades,
      maxTrades: 40,
    });
  }

  const coins = o.coins.filter((c) => study.coins[c] !== undefined);
  if (coins.length > 0) {
    const horizons = (study.coins[coins[0]!]!.ic.columns["bars"] as Float64Array);
    const attrCat: string[] = [];
    const attrVal: number[] = [];
    const attrGroup: string[] = [];
    for (const c of coins) {
      const a = study.coins[c]!.attribution;
      if (a === undefined) continue;
      const names = a.columns["component"] as readonly string[];
      const drop = a.columns["icDrop"] as Float64Array;
      names.forEach((name, i) => {
        attrCat.push(name);
        attrVal.push(drop[i] as number);
        attrGroup.push(c);
      });
    }
    sections.push({
      title: "Signal evaluation",
      id: "signal-evaluation",
      intro: `Does the composite rank future returns? Spearman rank IC of the composite at each bar's close with the return over the next 1..${horizons[horizons.length - 1]} bars of ${bar} (overlap-corrected 95% intervals), and what each component adds: the IC drop when the component is left out and the other weights renormalised (1-bar forward returns).`,
      icDecay: {
        horizon: horizons,
        ic: Object.fromEntries(coins.map((c) => [c, study.coins[c]!.ic.columns["ic"] as Float64Array])),
        ciLow: Object.fromEntries(coins.map((c) => [c, study.coins[c]!.ic.columns["ciLow"] as Float64Array])),
        ciHigh: Object.fromEntries(coins.map((c) => [c, study.coins[c]!.ic.columns["ciHigh"] as Float64Array])),
        title: "IC decay (shaded: 95% interval)",
        horizonTitle: `horizon (bars of ${bar})`,
      },
      ...(attrCat.length > 0
        ? {
            attribution: {
              category: attrCat,
              value: attrVal,
              group: attrGroup,
              title: "Component attribution: IC drop without the component",
              options: { format: ".3f", valueTitle: "IC drop", labels: false },
            },
          }
        : {}),
      tables: [icTable(Object.fromEntries(coins.map((c) => [c, study.coins[c]!.ic]))), attributionTable(study, coins)].filter((t): t is TearsheetTable => t !== undefined),
    });
  }

  for (const coin of coins) {
    const c = study.coins[coin]!;
    const regimes = regimeParts(c.byVolRegime, c.buyHoldByVolRegime, "volRegime", VOL_NAMES, 0);
    sections.push({
      title: coin,
      intro: `Long when the composite is above ${o.threshold}, ${o.shorts ? "short" : "flat"} below -${o.threshold}, flat in between${o.regimeFilter ? " and while 24h realized volatility is extreme (>= 90% annualised)" : ""}; ${o.sizing === "confidence" ? "sized by the composite's confidence" : "full size"}; ${bar} bars.`,
      metrics: summaryTiles(c.summary, { time: c.time, fees: c.feesPaid, funding: c.fundingPaid, openTrades: c.result.trades.filter((t) => t.open).length }),
      equity: { time: c.time, series: { strategy: c.result.equity, "buy & hold": c.buyHold } },
      signal: { time: c.time, price: c.close, score: c.replay.composite, trades: c.result.trades, thresholds: { buy: o.threshold, sell: -o.threshold }, priceTitle: `${coin} price`, scoreTitle: "composite" },
      regimeReturns: {
        category: regimes.category,
        value: regimes.value,
        group: regimes.group,
        title: "Total return by volatility regime: strategy vs buy & hold",
        options: { format: ".1%", valueTitle: "total return" },
      },
      tables: [regimes.table],
      trades: c.result.trades,
      maxTrades: 30,
    });
  }

  const rows = scorecardRows(study);
  return {
    summary: {
      title: "Scorecard",
      table: scorecardColumns(rows),
      signed: ["total return", "buy & hold", "CAGR", "Sharpe", "Sortino"],
      format: SCORECARD_FORMAT,
      ...(cagrNote(study.time) !== undefined ? { note: cagrNote(study.time) as string } : {}),
    },
    sections,
  };
}

/** The weights line of the report's notes. */
export function weightsNote(study: Study): string {
  const w = study.options.weights ?? DEFAULT_WEIGHTS;
  return `weights ${Object.entries(w)
    .map(([k, v]) => `${k} ${(v * 100).toFixed(0)}%`)
    .join(", ")}`;
}
