import { lastBarComplete } from "../data/lastBarComplete.js";
import { toEpochMs } from "../data/toEpochMs.js";
import type { QueryValue } from "./transport/createTransport.js";

/** What an analytics query asked for against what it got (see {@link analyticsCoverage}). */
export interface AnalyticsCoverage {
  /** The window asked, epoch ms UTC (NaN: not given, the service's default). */
  readonly asked: { readonly start: number; readonly end: number };
  /** The window the service answered for, as it echoed it (NaN: not echoed). */
  readonly served: { readonly start: number; readonly end: number };
  /** First and last row time, epoch ms UTC (NaN: no rows). */
  readonly first: number;
  readonly last: number;
  /** Bar length of the query's interval, ms (NaN: no interval asked). */
  readonly barMs: number;
  /** Bars missing between the first and the last row (a gap in the service's data). */
  readonly gaps: number;
  /**
   * Whether the last candle was still open when the service answered: its open time plus one bar
   * is after the end served (the rule: a bar labelled by its open time is complete only at its
   * close). Such a bar's volume and close are provisional (e.g. volume 560 for a full bar's thousands).
   */
  readonly partialLastBar: boolean;
  /** One sentence per shortfall (clamped start or end, gaps, partial last bar); empty when the query got all it asked. */
  readonly missing: readonly string[];
}

const UNIT_MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Epoch ms of an echoed or asked time (ISO string, epoch ms number or its text), NaN when absent or unreadable. */
function timeOf(v: unknown): number {
  if (typeof v === "number") return v;
  if (typeof v !== "string" || v === "") return Number.NaN;
  if (/^\d+$/.test(v)) return Number(v);
  return toEpochMs(v, { invalid: "nan" });
}

const iso = (ms: number): string => new Date(ms).toISOString().replace(".000Z", "Z");

/**
 * Compare an analytics query (its parameters as sent) with the service's answer: the window it
 * echoed (`query.start`, `query.end`, after any clamping to its retention or to now), the rows'
 * times, and the bar length of `interval`. Reports a start or end the service moved, bars missing
 * between the first and last row, and a last candle not yet closed at the end served. A start or
 * end moved by less than one bar (one minute without an interval) is not reported.
 * @example
 * analyticsCoverage({ start: "2026-05-01T00:00:00.000Z", interval: "1h" }, { start: "2026-10-01T00:00:00.000Z" }, ["time"], [["2026-10-01T00:00:00.000Z"]]).missing
 * // ["start clamped: asked 2026-05-01T00:00Z, served from 2026-10-01T00:00Z"]
 * @internal
 */
export function analyticsCoverage(
  params: Readonly<Record<string, QueryValue>>,
  echo: Readonly<Record<string, unknown>>,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
): AnalyticsCoverage {
  const asked = { start: timeOf(params["start"]), end: timeOf(params["end"]) };
  const served = { start: timeOf(echo["start"]), end: timeOf(echo["end"]) };
  const interval = String(params["interval"] ?? echo["interval"] ?? "");
  const m = /^(\d+)([mhd])$/.exec(interval);
  const barMs = m === null ? Number.NaN : Number(m[1]) * (UNIT_MS[m[2] as string] as number);
  const at = columns.indexOf("time");
  const times = at < 0 ? [] : [...new Set(rows.map((r) => timeOf(r[at])).filter((t) => Number.isFinite(t)))].sort((a, b) => a - b);
  const first = times.length > 0 ? (times[0] as number) : Number.NaN;
  const last = times.length > 0 ? (times[times.length - 1] as number) : Number.NaN;
  let gaps = 0;
  if (barMs > 0) for (let i = 1; i < times.length; i++) gaps += Math.max(0, Math.round(((times[i] as number) - (times[i - 1] as number)) / barMs) - 1);
  const end = Number.isFinite(served.end) ? served.end : asked.end;
  // only candles are bars (a metric or composite row is a point-in-time value)
  const candles = String(params["dataset"] ?? echo["dataset"] ?? "") === "candles";
  // The partial-bar rule (lastBarComplete): the service's answer reaches `end` (a time it knew, closed right).
  const partialLastBar = candles && barMs > 0 && Number.isFinite(last) && Number.isFinite(end) && !lastBarComplete(end, 0, last + barMs, "right");
  const missing: string[] = [];
  // a window moved by less than a bar (the service's clock is read to the minute) is not a shortfall
  const slack = barMs > 0 ? barMs : 60_000;
  if (served.start - asked.start >= slack) missing.push(`start clamped: asked ${iso(asked.start)}, served from ${iso(served.start)}`);
  if (asked.end - served.end >= slack) missing.push(`end clamped: asked ${iso(asked.end)}, served to ${iso(served.end)}`);
  if (gaps > 0) missing.push(`${gaps} bar${gaps === 1 ? "" : "s"} of ${interval} missing between ${iso(first)} and ${iso(last)}`);
  if (partialLastBar) missing.push(`the last bar (${iso(last)}, ${interval}) was still open at ${iso(end)}: its values are partial`);
  return { asked, served, first, last, barMs, gaps, partialLastBar, missing };
}
