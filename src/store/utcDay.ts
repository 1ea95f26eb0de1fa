/**
 * The UTC calendar day of an epoch-ms time, `YYYY-MM-DD`: the store's
 * partition key (one folder per UTC day, never the machine's zone).
 * @example utcDay(1793491260000) // "2026-11-01"
 * @internal
 */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
