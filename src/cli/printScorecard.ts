import { textTable } from "../report/textTable.js";
import type { StudyRun } from "./runStudyJob.js";
import { SCORECARD_FORMAT, scorecardColumns, scorecardRows } from "./study/scorecard.js";

const pct = (v: number): string => (Number.isFinite(v) ? `${(v * 100).toFixed(1)}%` : "–");

/** The scorecard (and the real-data line) as terminal text. */
export function formatScorecard(run: StudyRun): string {
  const s = run.study;
  const o = s.options;
  const bar = o.barMinutes % 60 === 0 ? `${o.barMinutes / 60}h` : `${o.barMinutes}m`;
  const from = new Date(s.time[0] as number).toISOString().slice(0, 16).replace("T", " ");
  const to = new Date(s.time[s.time.length - 1] as number).toISOString().slice(0, 16).replace("T", " ");
  const lines = [
    `Data: ${run.source}; ${run.requests} history series loaded in ${(run.loadMs / 1000).toFixed(1)} s`,
    `Period: ${from} to ${to} UTC, ${s.time.length} bars of ${bar}; costs ${o.feeBps} + ${o.slippageBps} bps per side; ${o.funding ? "funding charged" : "no funding"}; threshold ±${o.threshold}`,
    "",
    "Scorecard (composite signal, per coin and as one portfolio)",
    textTable(scorecardColumns(scorecardRows(s)), { format: SCORECARD_FORMAT }),
  ];
  const r = run.real;
  if (r !== undefined) {
    lines.push(
      "",
      `Real data (Coinbase BTC 4h + Hyperliquid funding, ${r.time.length} bars): total return ${pct(r.summary.totalReturn)} vs buy & hold ${pct(
        (r.buyHold[r.buyHold.length - 1] as number) / (r.buyHold[0] as number) - 1,
      )}, Sharpe ${Number.isFinite(r.summary.sharpeRatio) ? r.summary.sharpeRatio.toFixed(2) : "–"}, ${r.summary.trades} trades`,
    );
  }
  return lines.join("\n");
}
