/**
 * Milliseconds to wait according to an HTTP `Retry-After` header (RFC 9110
 * section 10.2.3): either delay-seconds (`"12"` -> 12 000) or an HTTP date
 * (the time left until then, never negative). NaN when the header is absent
 * or unreadable.
 * @param nowMs the current time, epoch ms (for the date form)
 * @example parseRetryAfter("12", 0) // 12000
 * @example parseRetryAfter("Thu, 01 Jan 1970 00:00:05 GMT", 1000) // 4000
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number {
  if (header === null || header === undefined) return Number.NaN;
  const text = header.trim();
  if (text === "") return Number.NaN;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return Number.NaN;
  return Math.max(0, at - nowMs);
}
