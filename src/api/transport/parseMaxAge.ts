/**
 * Freshness lifetime in ms from a `Cache-Control` header: `max-age=N` ->
 * N * 1000; `no-store` or `no-cache` -> 0 (do not cache); anything else
 * (including no header) -> `fallbackMs`. A max-age above 2^31 s is read as
 * 2^31 s (RFC 9111 section 1.2.2), so a huge value never becomes Infinity.
 * @example parseMaxAge("public, max-age=45", 1000) // 45000
 * @example parseMaxAge(null, 1000) // 1000
 */
export function parseMaxAge(header: string | null | undefined, fallbackMs: number): number {
  if (header === null || header === undefined) return fallbackMs;
  if (/(^|,)\s*(no-store|no-cache)\s*(,|$)/i.test(header)) return 0;
  const m = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(header);
  return m?.[1] === undefined ? fallbackMs : Math.min(Number(m[1]), 2 ** 31) * 1000;
}
