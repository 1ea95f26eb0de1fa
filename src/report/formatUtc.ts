/**
 * An epoch-ms time as `YYYY-MM-DD HH:MM` in UTC (seconds shown when not zero,
 * never the machine's zone); NaN and infinities as `–`. The one rule by which
 * tables (text and HTML) and the stats show a time. @internal
 * @example formatUtc(Date.UTC(2026, 10, 1, 9, 30)) // "2026-11-01 09:30"
 */
export function formatUtc(ms: number): string {
  if (!Number.isFinite(ms)) return "–";
  const iso = new Date(ms).toISOString();
  const seconds = iso.slice(17, 19);
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}${seconds === "00" ? "" : `:${seconds}`}`;
}
