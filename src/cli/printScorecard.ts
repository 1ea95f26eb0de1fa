import { isItRealInput, isItRealVerdict } from "../report/isItRealSection.js";
import { textTable } from "../report/textTable.js";
import type { StudyRun } from "./runStudyJob.js";
import { cagrNote, MIN_CAGR_DAYS } from "../report/summaryTiles.js";
import { SCORECARD_FORMAT, scorecardColumns, scorecardRows } from "./study/scorecard.js";
import { studyHighlights } from "./study/studyHighlights.js";
import { WHAT_IF, WHAT_IF_FORMAT, whatIfColumns, whatIfVsScorecard } from "./study/runSweepWhatIf.js";

const pct = (v: number): string => (Number.isFinite(v) ? `${(v * 100).toFixed(1)}%` : "–");

/** The scorecard (and the real-data line) as terminal text. */
export function formatScorecard(run: StudyRun): string {
  const s = run.study;
  const o = s.options;
  const bar = o.barMinutes % 60 === 0 ? `${o.barMinutes / 60}h` : `${o.barMinutes}m`;
  const from = new Date(s.time[0] as number).toISOString().slice(0, 16).replace("T", " ");
  const to = new Date(s.time[s.time.length - 1] as number).toISOString().slice(0, 16).replace("T", " ");
  const rows = scorecardRows(s);
  const lines = [
    `Data: ${run.source}; ${run.requests} history series loaded in ${(run.loadMs / 1000).toFixed(1)} s`,
    `Period: ${from} to ${to} UTC, ${s.time.length} bars of ${bar}; costs ${o.feeBps} + ${o.slippageBps} bps per side; ${o.funding ? "funding charged" : "no funding"}; threshold ±${o.threshold}`,
    "",
    "Scorecard (composite signal, per coin and as one portfolio)",
    textTable(scorecardColumns(rows), { format: SCORECARD_FORMAT }),
  ];
  lines.push(
    `(Sharpe SE: its standard error on n = ${s.time.length - 1} returns, adjusted for the returns' skewness γ₃ and kurtosis γ₄: sqrt(periodsPerYear · (1 − γ₃·SRp + (γ₄ − 1)/4 · SRp²) / (n - 1)), SRp = Sharpe / sqrt(periodsPerYear) (Mertens 2002; Bailey & López de Prado 2012, as the PSR). A Sharpe within 2 SE of 0 does not tell the sign of the edge. Buy & hold: bought once at the first bar, never rebalanced.)`,
  );
  if (rows.some((r) => Number.isNaN(r.cagr))) lines.push(`(CAGR is shown for periods of ${MIN_CAGR_DAYS} days or more: annualising a few days' return says nothing.)`);
  const cagr = cagrNote(s.time);
  if (cagr !== undefined) lines.push(`(${cagr})`);
  const facts = studyHighlights(s, run.variants);
  if (facts.length > 0) lines.push("", "Key facts", ...facts.map((f) => `- ${f}`));
  if (run.variants !== undefined) {
    const v = run.variants;
    lines.push(
      "",
      `What if: your rule vs the best of ${v[1]?.trials ?? "the"} variants (weight grid ${WHAT_IF.grid} x thresholds), in sample and out of sample (${WHAT_IF.trainDays}-day / ${WHAT_IF.testDays}-day walk-forward of "choose the best"); DSR deflates for every variant tried (the raw count, as the verdicts below; the effective count by correlation is information only), PBO is the sweep's overfitting probability; each verdict is decided by Hansen's SPA of all the variants against flat.`,
      whatIfVsScorecard(s, v),
      textTable(whatIfColumns(v), { format: WHAT_IF_FORMAT }),
    );
    // the verdict on each coin's winner, by the rule of the report's "Is it real?" section
    for (const c of run.whatIf ?? []) lines.push(`Is it real? ${c.coin}: ${isItRealVerdict(isItRealInput(c.assessment))[0] ?? ""}`);
  }
  const r = run.real;
  if (r !== undefined) {
    lines.push(
      "",
      `Real data (Coinbase BTC 4h + Hyperliquid funding, ${r.time.length} bars): total return ${pct(r.summary.totalReturn)} vs buy & hold ${pct(
        (r.buyHold[r.buyHold.length - 1] as number) / (r.buyHold[0] as number) - 1,
      )}, Sharpe ${Number.isFinite(r.summary.sharpeRatio) ? r.summary.sharpeRatio.toFixed(2) : "–"}, ${r.summary.trades} closed trades${openNote(r.result.trades)}`,
    );
  }
  return lines.join("\n");
}

/** ", 2 still open at the end" when trades are open (the count before it is of closed trades), else "". */
function openNote(trades: readonly { readonly open: boolean }[]): string {
  const open = trades.filter((t) => t.open).length;
  return open > 0 ? `, ${open} still open at the end` : "";
}
