import { formatNumber } from "../domain/formatNumber.js";
import { formatPercent } from "../domain/formatPercent.js";
import type { SweepResult } from "./SweepResult.js";
import { topRows } from "./topRows.js";

/** Rows a sweep's printed form lists. */
const ROWS = 5;

/**
 * A sweep's printed form (what `console.log(sweep)` shows instead of its columns):
 * how many variants of how many, the parameter columns (a composite sweep's weights
 * and threshold, a strategy sweep's grid) and the metric columns, then the best five
 * rows by Sharpe ratio, one line each (its parameters as `paramsOf` decodes them,
 * Sharpe, total return, max drawdown, trades). One sort of
 * the Sharpe column, nothing recomputed. @internal
 * @example sweepText(sweep) // "SweepResult: 1,260 of 1,260 variants, ..."
 */
export function sweepText(sweep: SweepResult): string {
  const c = sweep.columns;
  const params = sweep.parameters;
  const metrics = Object.keys(c).filter((k) => k !== "variant" && !params.includes(k));
  const state = sweep.complete ? "" : sweep.aborted ? " (stopped early)" : " (a shard)";
  const lines = [
    `SweepResult: ${formatNumber(sweep.length)} of ${formatNumber(sweep.total)} variants${state}, Sharpe annualised at ${formatNumber(sweep.periodsPerYear)} bars a year`,
    `  parameters: ${params.join(", ")}; metrics: ${metrics.join(", ")}`,
  ];
  const sharpe = c["sharpeRatio"];
  if (sharpe !== undefined && sweep.length > 0) {
    const top = topRows(sharpe, ROWS);
    lines.push(`  best ${top.length} by Sharpe ratio:`);
    const read = (name: string, i: number): number => (c[name] as Float64Array | undefined)?.[i] ?? Number.NaN;
    for (const i of top) {
      const values = Object.entries(sweep.paramsOf(i))
        .map(([name, v]) => `${name} ${typeof v === "number" ? formatNumber(v) : v === null ? "unset" : String(v)}`)
        .join(", ");
      lines.push(
        `    #${formatNumber(read("variant", i))} ${values}: Sharpe ${formatNumber(read("sharpeRatio", i))}, ` +
          `return ${formatPercent(read("totalReturn", i))}, max drawdown ${formatPercent(read("maxDrawdown", i))}, ${formatNumber(read("trades", i))} trades`,
      );
    }
  }
  lines.push("  show(sweep) for the table, sweep.best() for the winner, sweep.toDataFrame() for every row");
  return lines.join("\n");
}
