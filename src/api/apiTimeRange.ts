import { MAX_TIME_MS } from "../data/toEpochMs.js";

/**
 * The times an API response may carry, epoch ms, inclusive: from
 * 2009-01-01T00:00:00Z (before Bitcoin's first block, 3 January 2009; no
 * crypto market data is older) to 2099-12-31T23:59:59.999Z (the library's
 * general upper bound). Tighter than the general 1970 lower bound so that a
 * zero, a small or negative number or a seconds value misread as ms is
 * refused instead of becoming a 1970 time stamp. Responses are checked
 * against it where they are parsed (`parseHistory`, `checkResponseTimes`).
 */
export const API_TIME_RANGE = { min: 1_230_768_000_000, max: MAX_TIME_MS } as const;
