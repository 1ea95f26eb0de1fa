/** 2026-11-01T00:00Z: the first minute the SQL-beside-writers writers save. */
export const SQL_WRITER_T0 = Date.UTC(2026, 10, 1);
/** Three days of minutes. */
export const SQL_WRITER_POINTS = 3 * 1440;
/** The value writer k saves at time t: unique per writer and minute, exact in a double. */
export function sqlWriterValue(t: number, k: number): number {
  return (t - SQL_WRITER_T0) / 60_000 + 0.25 + k * 1e6;
}
