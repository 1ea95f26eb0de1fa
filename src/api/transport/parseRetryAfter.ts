import { toEpochMs } from "../../data/toEpochMs.js";

/**
 * Milliseconds to wait according to an HTTP `Retry-After` header (RFC 9110
 * section 10.2.3): either delay-seconds (`"12"` -> 12 000) or an HTTP date
 * (the time left until then, never negative). The date is read by the
 * library's one time rule (`toEpochMs`), which reads HTTP-dates in their
 * preferred IMF-fixdate form (`Sun, 06 Nov 1994 08:49:37 GMT`, what servers
 * send); the obsolete RFC 850 and asctime forms count as unreadable. NaN when
 * the header is absent or unreadable (the client then backs off on its own).
 * @param nowMs the current time, epoch ms (for the date form)
 * @example parseRetryAfter("12", 0) // 12000
 * @example parseRetryAfter("Thu, 01 Jan 1970 00:00:05 GMT", 1000) // 4000
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number {
  if (header === null || header === undefined) return Number.NaN;
  const text = header.trim();
  if (text === "") return Number.NaN;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const at = toEpochMs(text, { invalid: "nan" });
  if (Number.isNaN(at)) return Number.NaN;
  return Math.max(0, at - nowMs);
}
