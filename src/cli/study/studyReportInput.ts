import { isItRealInput, isItRealSection } from "../../report/isItRealSection.js";
import type { TearsheetInput } from "../../report/renderTearsheet.js";
import { signalTearsheet } from "../../metrics/signalTearsheet.js";
import { performanceSection } from "../../report/performanceSection.js";
import { signalTearsheetSection } from "../../report/signalTearsheetSection.js";
import type { StudyRun } from "../runStudyJob.js";
import { studyHighlights } from "./studyHighlights.js";
import { summaryTiles } from "../../report/summaryTiles.js";
import { studySections, weightsNote } from "./studyTearsheet.js";
import { WHAT_IF, WHAT_IF_FORMAT, whatIfColumns, whatIfVsScorecard } from "./runSweepWhatIf.js";
import { DEFAULT_WEIGHTS } from "../../signals/weights.js";
import { DEFAULT_STUDY } from "./runStudy.js";
import { createManifest } from "../../store/createManifest.js";

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}

/** The tearsheet of a study run: scorecard, portfolio, signal evaluation, each coin, the what-if sweep and "Is it real?", real data. */
export async function studyReportInput(run: StudyRun): Promise<TearsheetInput> {
  const s = run.study;
  const o = s.options;
  const bar = o.barMinutes % 60 === 0 ? `${o.barMinutes / 60}h` : `${o.barMinutes}m`;
  const { summary, sections } = studySections(s);
  const all = [...sections];
  const v = run.variants;
  if (v !== undefined) {
    all.push({
      title: "What if: your rule vs the best of a sweep, in and out of sample",
      id: "what-if",
      intro: `For each coin, your rule and every weight vector of the simplex at ${WHAT_IF.grid} x thresholds ${WHAT_IF.thresholds.join(", ")} (${v[1]?.trials ?? ""} variants, default mode: same costs and funding, no regime filter), backtested on the same bars. The "best in sample" row is what a grid search reports; its out-of-sample Sharpe comes from a ${WHAT_IF.trainDays}-day / ${WHAT_IF.testDays}-day walk-forward of "choose the best variant, trade it next", your rule's from the same test windows. DSR is the probability that the winner's true Sharpe is above 0 after deflating for every variant tried (the raw count, as the verdicts below, which Hansen's SPA of all the variants against flat decides; for your rule, fixed before the data, its PSR); PBO is how often the in-sample winner lands in the bottom half out of sample (CSCV, ${WHAT_IF.splits} blocks).`,
      regimeReturns: {
        category: v.map((x) => `${x.coin} ${x.rule.startsWith("best") ? "best" : "yours"}`),
        value: v.map((x) => x.outOfSampleSharpe),
        title: "Out-of-sample Sharpe ratio: your rule vs the in-sample winner",
        options: { format: ".2f", valueTitle: "Sharpe (out of sample)", horizontal: true },
      },
      tables: [
        {
          title: "Your rule vs the best of the sweep",
          note: whatIfVsScorecard(s, v),
          table: whatIfColumns(v),
          signed: ["in-sample Sharpe", "out-of-sample Sharpe", "in-sample return"],
          format: WHAT_IF_FORMAT,
        },
      ],
    });
  }
  const first = run.whatIf?.[0];
  if (first !== undefined) {
    const a = first.assessment;
    const wf = a.walkForward;
    const folds = wf?.folds.columns;
    all.push(
      await isItRealSection(
        {
          ...isItRealInput(a),
          ...(folds !== undefined && (folds["fold"] as Float64Array).length > 0
            ? { folds: { fold: folds["fold"] as Float64Array, inSample: folds["inSample"] as Float64Array, outOfSample: folds["outOfSample"] as Float64Array } }
            : {}),
          logits: a.logits,
          sweep: first.sweep,
          // cells on the sweep's grid: your rule's off-grid weights join the nearest cell instead of a row of their own
          heatmap: { x: "imbalance", y: "momentum_5m", bucket: WHAT_IF.grid },
        },
        { title: `Is it real? ${first.coin}'s best variant of ${a.trials}` },
      ),
    );
  }
  const r = run.real;
  if (r !== undefined) {
    let long = 0;
    let short = 0;
    for (const w of r.result.positions) (w > 0 ? long++ : w < 0 ? short++ : 0);
    const share = (k: number): string => `${((100 * k) / r.time.length).toFixed(0)}%`;
    all.push({
      title: "Real data: BTC 4h (Coinbase) with Hyperliquid funding",
      id: "real-data",
      intro: `Coinbase BTC-USD 4-hour candles, ${day(r.time[0] as number)} to ${day(r.time[r.time.length - 1] as number)} UTC (${r.time.length} bars), with Hyperliquid's real hourly BTC funding (mean ${(r.meanFunding * 1e4).toFixed(3)} bps/h) charged on positions. Only funding, basis (Hyperliquid mark vs Coinbase spot) and momentum (last 4h return) can be derived from these public feeds; imbalance and gas are missing and their weight is renormalised away. Same threshold and costs as above. The signal was long ${share(long)} and short ${share(short)} of the bars; funding was positive (longs paying, which the composite reads as bearish) on ${(100 * r.positiveFundingShare).toFixed(0)}% of them. Data: MIT / BSD-3-Clause, see fixtures/real/README.md.`,
      metrics: summaryTiles(r.summary, { time: r.time, fees: r.feesPaid, funding: r.fundingPaid, openTrades: r.result.trades.filter((t) => t.open).length }),
      equity: { time: r.time, series: { strategy: r.result.equity, "buy & hold": r.buyHold } },
      signal: { time: r.time, price: r.close, score: r.replay.composite, trades: r.result.trades, thresholds: { buy: o.threshold, sell: -o.threshold }, priceTitle: "BTC-USD (Coinbase)", scoreTitle: "composite (3 of 5)" },
      icDecay: {
        horizon: r.ic.columns["bars"] as Float64Array,
        ic: { BTC: r.ic.columns["ic"] as Float64Array },
        ciLow: { BTC: r.ic.columns["ciLow"] as Float64Array },
        ciHigh: { BTC: r.ic.columns["ciHigh"] as Float64Array },
        title: "IC decay (shaded: 95% interval)",
        horizonTitle: "horizon (4h bars)",
      },
      trades: r.result.trades,
      maxTrades: 30,
    });
    all.push(
      performanceSection(r.result, {
        title: "Real data: performance of the BTC 4h strategy",
        id: "real-data-performance",
        benchmark: r.buyHold,
        benchmarkName: "BTC buy & hold",
        windowsMs: [7 * 86_400_000, 30 * 86_400_000],
      }),
      signalTearsheetSection(signalTearsheet(r.replay.composite, r.close, { time: r.time, horizon: 1, windowMs: 7 * 86_400_000 }), {
        title: "Real data: signal tearsheet of the composite (BTC 4h)",
        id: "real-data-signal",
        barLabel: "4h bar",
      }),
    );
  }
  return {
    title: `Composite signal backtest: ${o.coins.join(", ")}`,
    subtitle: `The Market Intelligence composite replayed on ${bar} bars and traded with fees, slippage and funding`,
    notes: [
      `data: ${run.source}`,
      `period ${day(s.time[0] as number)} to ${day(s.time[s.time.length - 1] as number)} UTC, ${s.time.length} bars of ${bar}`,
      weightsNote(s),
      `threshold ±${o.threshold}`,
      `costs ${o.feeBps} bps fee + ${o.slippageBps} bps slippage per side`,
      o.funding ? "funding charged" : "no funding",
      `fill ${o.fill}, ${o.units} units, ${o.sizing} sizing${o.shorts ? "" : ", long only"}`,
      o.regimeFilter ? "flat in extreme volatility" : "no regime filter",
      `starting cash ${o.initialCash.toLocaleString("en-US")}${o.initialCash === DEFAULT_STUDY.initialCash ? " (milab's default, --cash; the library's backtest() starts at 10,000)" : ""}`,
    ],
    highlights: studyHighlights(s, run.variants),
    summary,
    sections: all,
    // every parameter of the run, as used (default weights spelled out, the what-if sweep's grid), the bars' time range and the clock
    manifest: createManifest({
      kind: "report",
      options: {
        ...o,
        weights: o.weights ?? DEFAULT_WEIGHTS,
        hours: run.hours,
        source: run.source,
        ...(v !== undefined ? { whatIf: WHAT_IF } : {}),
        realData: r !== undefined,
        time: s.time,
        data: Object.fromEntries(Object.entries(s.coins).map(([coin, c]) => [coin, { close: c.close, funding: c.funding }])),
      },
      ...(run.seed !== undefined ? { seed: run.seed } : {}),
      clock: run.clock,
    }),
  };
}
