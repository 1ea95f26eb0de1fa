import { formatNumber } from "../domain/formatNumber.js";
import type { WalkForwardResult } from "./runWalkForward.js";

/** Folds a walk-forward's printed form lists one by one; more are summarised. */
const FOLDS = 8;

/**
 * A walk-forward's printed form (what `console.log(wf)` shows instead of its
 * stitched returns): the number of folds, the stitched out-of-sample score, then
 * one line per fold (test bars, what was chosen, in-sample vs out-of-sample score;
 * the first and last folds when there are many). Reads the fold table only. @internal
 * @example walkForwardText(wf) // "WalkForwardResult: 6 folds, stitched out-of-sample score 0.8123 ..."
 */
export function walkForwardText(wf: WalkForwardResult): string {
  const { rows, columns: c } = wf.folds;
  const covered = wf.returns.length;
  const lines = [`WalkForwardResult: ${formatNumber(rows)} fold${rows === 1 ? "" : "s"} over ${formatNumber(covered)} bars, stitched out-of-sample score ${formatNumber(wf.outOfSample)}`];
  const line = (f: number): string =>
    `    fold ${formatNumber(c.fold[f] as number)}: test bars ${formatNumber(c.testStart[f] as number)}–${formatNumber(c.testEnd[f] as number)}, ` +
    `choice ${formatNumber(c.choice[f] as number)}, in-sample ${formatNumber(c.inSample[f] as number)} → out-of-sample ${formatNumber(c.outOfSample[f] as number)}`;
  if (rows > 0) lines.push("  folds (score in sample → out of sample):");
  const head = rows <= FOLDS ? rows : FOLDS / 2;
  for (let f = 0; f < head; f++) lines.push(line(f));
  if (rows > FOLDS) {
    lines.push(`    … ${formatNumber(rows - FOLDS)} more folds`);
    for (let f = rows - FOLDS / 2; f < rows; f++) lines.push(line(f));
  }
  lines.push("  show(wf) or wf.toDataFrame() for the fold table, wf.returns for the stitched returns");
  return lines.join("\n");
}
