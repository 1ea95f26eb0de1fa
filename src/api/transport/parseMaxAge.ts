/**
 * Freshness lifetime in ms from a `Cache-Control` header: `max-age=N` ->
 * N * 1000; `no-store` or `no-cache` -> 0 (do not cache); anything else
 * (including no header) -> `fallbackMs`.
 * @example parseMaxAge("public, max-age=45", 1000) // 45000
 * @example parseMaxAge(null, 1000) // 1000
 */
export function parseMaxAge(header: string | null | undefined, fallbackMs: number): number {
  if (header === null || header === undefined) return fallbackMs;
  if (/(^|,)\s*(no-store|no-cache)\s*(,|$)/i.test(header)) return 0;
  const m = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(header);
  return m?.[1] === undefined ? fallbackMs : Number(m[1]) * 1000;
}
