import { civilDayMs, clockMs, toEpochMs } from "../data/toEpochMs.js";
import { API_TIME_RANGE } from "./apiTimeRange.js";
import { finishHistory, pushPoint, type HistorySeries } from "./historyPoints.js";
import { envelopeMetricId } from "./parseHistory.js";

/** Envelope keys the service sends around `data` (any other key: not this shape). */
const ENVELOPE_KEYS = new Set(["coin", "metric_id", "metric", "hours", "interval_sec", "data"]);
const POINT_HEAD = Uint8Array.from(Buffer.from('{"time_chain":"', "latin1"));
const POINT_MID = Uint8Array.from(Buffer.from('","value":', "latin1"));
/** Shortest possible point: head + 24-char time + mid + one digit + `}`. */
const MIN_POINT_BYTES = POINT_HEAD.length + 24 + POINT_MID.length + 2;
// The constant parts of a point, as big-endian words for DataView compares (4 bytes at a time).
const word = (bytes: Uint8Array, at: number, size: 2 | 4): number =>
  size === 4 ? new DataView(bytes.buffer, bytes.byteOffset).getUint32(at) : new DataView(bytes.buffer, bytes.byteOffset).getUint16(at);
const HEAD_0 = word(POINT_HEAD, 0, 4);
const HEAD_1 = word(POINT_HEAD, 4, 4);
const HEAD_2 = word(POINT_HEAD, 8, 4);
const HEAD_3 = word(POINT_HEAD, 12, 2);
const HEAD_4 = POINT_HEAD[14] as number;
const MID_0 = word(POINT_MID, 0, 4);
const MID_1 = word(POINT_MID, 4, 4);
const MID_2 = word(POINT_MID, 8, 2);
/** Exact powers of ten (10^0..10^22 are exact doubles). */
const POW10 = Float64Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));
/** Bytes that may appear in a JSON number (envelope scalars; their grammar is left to JSON.parse). */
const NUMBER_BYTE = new Uint8Array(256);
for (const ch of "0123456789+-.eE") NUMBER_BYTE[ch.charCodeAt(0)] = 1;

/**
 * Working arrays, kept between calls for bodies up to 8 MB (the scan is
 * synchronous, so one set serves every call): fresh multi-megabyte buffers
 * per body cost more in garbage collection than the scan itself. Results
 * never alias them (finishHistory returns copies).
 */
interface Scratch {
  times: Float64Array;
  values: Float64Array;
  slow: Uint32Array;
  tokens: Buffer;
}
const KEEP_BYTES = 8 * 2 ** 20;
let reusable: Scratch | undefined;

function scratch(points: number, bytes: number): Scratch {
  if (reusable !== undefined && reusable.times.length >= points && reusable.tokens.length >= bytes) return reusable;
  const fresh = { times: new Float64Array(points), values: new Float64Array(points), slow: new Uint32Array(points), tokens: Buffer.allocUnsafe(bytes) };
  if (bytes <= KEEP_BYTES) reusable = fresh;
  return fresh;
}

/** Two ASCII digits at `at` as a number, or -1 when either byte is not a digit. */
function two(b: Uint8Array, at: number): number {
  const x = (b[at] as number) - 48;
  const y = (b[at + 1] as number) - 48;
  return x >= 0 && x <= 9 && y >= 0 && y <= 9 ? x * 10 + y : -1;
}

/**
 * How the scanner checks a time it read with the one ISO rule: the API's
 * range, NaN instead of an error (the scanner then declines and the general
 * parser, fed the same body, raises the error naming the row).
 */
const SCAN_TIME = { min: API_TIME_RANGE.min, max: API_TIME_RANGE.max, unit: "ms", invalid: "nan" } as const;

/** Where the scan of a body stands: points read, values left to the slow path, bytes of their tokens. */
interface ScanState {
  n: number;
  nSlow: number;
  tl: number;
}

/**
 * The points of the body's `data` array from byte `p` (just after its `[`) into the scratch
 * arrays, `state` counting them; returns the byte after the array's `]`, or -1 when anything
 * deviates from the service's form. Kept apart from the envelope's parse so V8 compiles this
 * loop on its own, from feedback of the loop alone (in one function with the envelope and the
 * tail, each first call deoptimised on code after the loop and recompiled the whole scanner).
 */
function scanPoints(b: Uint8Array, dv: DataView, p: number, work: Scratch, state: ScanState): number {
  const len = b.length;
  const { times, values, slow, tokens } = work;
  let { n, nSlow, tl } = state;
  let cachedDay = -1; // byte offset of the last date read, to compare against
  let cachedDayMs = Number.NaN;
  if (b[p] === 93 /* ] */) return p + 1;
  for (;;) {
    if (p + MIN_POINT_BYTES > len) return -1;
    if (
      dv.getUint32(p) !== HEAD_0 ||
      dv.getUint32(p + 4) !== HEAD_1 ||
      dv.getUint32(p + 8) !== HEAD_2 ||
      dv.getUint16(p + 12) !== HEAD_3 ||
      b[p + 14] !== HEAD_4
    ) {
      return -1;
    }
    p += POINT_HEAD.length;
    // Time: YYYY-MM-DDTHH:MM:SS.sssZ, its digits read from the bytes and turned into
    // epoch ms by the one ISO rule's calendar and clock (civilDayMs, clockMs), the date
    // read again only when its 10 bytes change (one-minute points share a date); then
    // the API's range. Anything else (another length, an offset, an impossible date or
    // clock, a time out of range) makes the scanner decline.
    if (
      cachedDay < 0 ||
      dv.getUint32(p) !== dv.getUint32(cachedDay) ||
      dv.getUint32(p + 4) !== dv.getUint32(cachedDay + 4) ||
      dv.getUint16(p + 8) !== dv.getUint16(cachedDay + 8)
    ) {
      const y1 = two(b, p);
      const y2 = two(b, p + 2);
      cachedDayMs = y1 < 0 || y2 < 0 || b[p + 4] !== 45 || b[p + 7] !== 45 ? Number.NaN : civilDayMs(y1 * 100 + y2, two(b, p + 5), two(b, p + 8));
      if (Number.isNaN(cachedDayMs)) return -1;
      cachedDay = p;
    }
    if (b[p + 10] !== 84 /* T */ || b[p + 13] !== 58 || b[p + 16] !== 58 || b[p + 19] !== 46 /* . */ || b[p + 23] !== 90 /* Z */) return -1;
    const ms3 = (b[p + 22] as number) - 48;
    const t = toEpochMs(
      cachedDayMs + clockMs(two(b, p + 11), two(b, p + 14), two(b, p + 17), ms3 >= 0 && ms3 <= 9 ? two(b, p + 20) * 10 + ms3 : -1),
      SCAN_TIME,
    );
    if (Number.isNaN(t)) return -1;
    times[n] = t;
    p += 24;
    if (dv.getUint32(p) !== MID_0 || dv.getUint32(p + 4) !== MID_1 || dv.getUint16(p + 8) !== MID_2) return -1;
    p += POINT_MID.length;
    // Value: `null`, or a number in JSON's grammar (anything else: not this shape).
    if (b[p] === 110 /* n */) {
      if (b[p + 1] !== 117 || b[p + 2] !== 108 || b[p + 3] !== 108) return -1;
      values[n] = Number.NaN;
      p += 4;
    } else {
      const v0 = p;
      const neg = b[p] === 45; /* - */
      if (neg) p++;
      let c = b[p] as number;
      let w = 0; // all mantissa digits as an integer (exact while <= 2^53)
      if (c === 48 /* 0 */) c = b[++p] as number;
      else if (c >= 49 && c <= 57) {
        while (c >= 48 && c <= 57) {
          w = w * 10 + (c - 48);
          c = b[++p] as number;
        }
      } else return -1;
      let frac = 0;
      if (c === 46 /* . */) {
        c = b[++p] as number;
        if (!(c >= 48 && c <= 57)) return -1;
        while (c >= 48 && c <= 57) {
          w = w * 10 + (c - 48);
          frac++;
          c = b[++p] as number;
        }
      }
      let exp = 0;
      if (c === 101 || c === 69 /* e E */) {
        c = b[++p] as number;
        const expNeg = c === 45;
        if (c === 45 || c === 43) c = b[++p] as number;
        if (!(c >= 48 && c <= 57)) return -1;
        while (c >= 48 && c <= 57) {
          if (exp < 100_000) exp = exp * 10 + (c - 48);
          c = b[++p] as number;
        }
        if (expNeg) exp = -exp;
      }
      const k = frac - exp; // value = w / 10^k
      if (w < 2 ** 53 && k >= -22 && k <= 22) {
        // Clinger's fast path: w and 10^|k| are exact doubles, so one IEEE
        // division or product gives the correctly rounded value, as JSON.parse does.
        const v = k >= 0 ? w / (POW10[k] as number) : w * (POW10[-k] as number);
        values[n] = neg ? -v : v;
      } else {
        // Longer mantissas: converted by one JSON.parse of all of them below.
        if (nSlow > 0) tokens[tl++] = 44; /* , */
        for (let i = v0; i < p; i++) tokens[tl++] = b[i] as number;
        slow[nSlow++] = n;
      }
    }
    n++;
    if (b[p] !== 125 /* } */) return -1;
    p++;
    if (b[p] === 44 /* , */) {
      p++;
      continue;
    }
    if (b[p] === 93 /* ] */) break;
    return -1;
  }
  state.n = n;
  state.nSlow = nSlow;
  state.tl = tl;
  return p + 1;
}

/**
 * Parse a `/v1/history` body in the service's own "wrapped" form straight
 * from its bytes, with no intermediate point objects:
 * `{"coin":..,"metric_id":..,"hours":..,"interval_sec":..,"data":[{"time_chain":"YYYY-MM-DDTHH:MM:SS.sssZ","value":<number|null>},...]}`
 * exactly as `JSON.stringify` writes it (no whitespace, keys in that order
 * inside points, only those envelope keys, each at most once). Times are
 * read with the one time rule's calendar and clock (`civilDayMs`, `clockMs`
 * of `toEpochMs.ts`) and its range check (the API's), the date's epoch cached
 * while its bytes repeat. Values are checked against JSON's number grammar and
 * converted exactly as `JSON.parse` converts them: by Clinger's fast path
 * (mantissa below 2^53 and a power of ten up to 10^22: one correctly rounded
 * IEEE division or product; W. D. Clinger, "How to read floating point
 * numbers accurately", PLDI 1990) when it applies, else by one `JSON.parse`
 * of all the remaining tokens gathered into a single array.
 * Returns `undefined` (and the caller falls back to `JSON.parse` +
 * {@link parseHistory}, which raises any error) on ANY deviation from that
 * form. This is the fast path of the one history parser, not a second one:
 * the point rule, sort/dedupe, metric id and result come from the same code
 * (`historyPoints.ts`, `envelopeMetricId`), so its answer, when there is one,
 * is `parseHistory(JSON.parse(text))`.
 * @example scanHistoryBytes(Buffer.from('{"data":[{"time_chain":"2026-11-22T12:00:00.000Z","value":1.5}]}'))?.value // Float64Array [1.5]
 */
export function scanHistoryBytes(b: Uint8Array): HistorySeries | undefined {
  const len = b.length;
  if (len < 2 || b[0] !== 123 /* { */) return undefined;
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const envelope = new Map<string, unknown>();
  const cap = Math.floor(len / MIN_POINT_BYTES) + 1;
  const work = scratch(cap, len + 2);
  // Values with NaN for null; those the fast path cannot convert exactly are
  // copied, comma-separated, into one JSON array (`slow` says whose they are).
  work.tokens[0] = 91; /* [ */
  const state: ScanState = { n: 0, nSlow: 0, tl: 1 };
  let p = 1;
  if (b[p] === 125 /* } */) p++;
  else {
    for (;;) {
      // Key: a plain ASCII string with no escapes.
      if (b[p] !== 34) return undefined;
      const k0 = ++p;
      while (p < len && b[p] !== 34) {
        const c = b[p] as number;
        if (c === 92 || c < 32 || c > 126) return undefined;
        p++;
      }
      if (p >= len) return undefined;
      const key = Buffer.from(b.buffer, b.byteOffset + k0, p - k0).toString("latin1");
      p++;
      if (!ENVELOPE_KEYS.has(key) || envelope.has(key) || b[p] !== 58 /* : */) return undefined;
      p++;
      if (key === "data") {
        if (b[p] !== 91 /* [ */) return undefined;
        p++;
        p = scanPoints(b, dv, p, work, state);
        if (p < 0) return undefined;
        envelope.set(key, true);
      } else {
        // Scalar envelope value: string without escapes, number, true, false or null.
        const v0 = p;
        if (b[p] === 34) {
          p++;
          while (p < len && b[p] !== 34) {
            const c = b[p] as number;
            if (c === 92 || c < 32 || c > 126) return undefined;
            p++;
          }
          p++;
        } else {
          while (p < len && ((b[p] as number) >= 97 ? (b[p] as number) <= 122 : NUMBER_BYTE[b[p] as number] === 1)) p++;
        }
        if (p > len || p === v0) return undefined;
        try {
          envelope.set(key, JSON.parse(Buffer.from(b.buffer, b.byteOffset + v0, p - v0).toString("latin1")));
        } catch {
          return undefined;
        }
      }
      if (b[p] === 44 /* , */) {
        p++;
        continue;
      }
      if (b[p] === 125 /* } */) {
        p++;
        break;
      }
      return undefined;
    }
  }
  if (p !== len || !envelope.has("data")) return undefined;
  return finishScan(work, state, envelope);
}

/**
 * The scanned points as the history series: values left to the slow path converted by one
 * `JSON.parse` of their tokens, then the points by parseHistory's rule (null / non-finite
 * values dropped), written in place over the scratch, and the shared sort/dedupe and result.
 */
function finishScan(work: Scratch, state: ScanState, envelope: Map<string, unknown>): HistorySeries | undefined {
  const { times, values, slow, tokens } = work;
  const { n, nSlow } = state;
  let tl = state.tl;
  if (nSlow > 0) {
    tokens[tl++] = 93; /* ] */
    let parsed: unknown;
    try {
      parsed = JSON.parse(tokens.toString("latin1", 0, tl));
    } catch {
      return undefined;
    }
    if (!Array.isArray(parsed) || parsed.length !== nSlow) return undefined;
    for (let i = 0; i < nSlow; i++) values[slow[i] as number] = parsed[i] as number;
  }
  const points = { t: times, v: values, n: 0, nulls: 0 };
  for (let i = 0; i < n; i++) pushPoint(points, times[i] as number, values[i] as number);
  return finishHistory(points, "wrapped", envelopeMetricId(Object.fromEntries(envelope)));
}
