import { join } from "node:path";
import { COINS } from "../domain/coins.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { safeKey } from "../errors/safeKey.js";

/** Where one history series lives in the store: its partition values. */
export interface SeriesKey {
  /** Metric without its coin prefix, lower case, e.g. `"price"`. */
  readonly metric: string;
  /** Coin, lower case (`"btc"`), or `"all"` for a metric that names no coin. */
  readonly coin: string;
  /** The full metric id, e.g. `"btc_price"`: the column name when read back. */
  readonly metricId: string;
}

const PREFIXES = COINS.map((c) => `${c.toLowerCase()}_`);
const SAFE = /^[a-z0-9_.-]+$/;

/**
 * The partition of a history series: the same key whether it is asked as
 * `{ metricId: "btc_price" }` or `{ coin: "BTC", metricId: "price" }`.
 * @throws InvalidArgumentError for an empty metric id, one with characters unsafe in a folder name, or a metric named `__proto__`, `constructor` or `prototype`
 * @example seriesKey("price", "BTC") // { metric: "price", coin: "btc", metricId: "btc_price" }
 * @internal
 */
export function seriesKey(metricId: string, coin?: string): SeriesKey {
  const id = typeof metricId === "string" ? metricId.trim().toLowerCase() : "";
  const c = coin?.trim().toLowerCase();
  const full = c === undefined || c === "" || id.startsWith(`${c}_`) ? id : `${c}_${id}`;
  if (full === "" || !SAFE.test(full)) {
    throw new InvalidArgumentError("metricId", `store: metric id must be letters, digits, _ . or -, got ${JSON.stringify(metricId)}`);
  }
  const prefix = PREFIXES.find((p) => full.startsWith(p) && full.length > p.length);
  // The metric names a column and a key of the coverage file: the one rule for keys read back from a file.
  const metric = safeKey(prefix === undefined ? full : full.slice(prefix.length), `store: metric id ${JSON.stringify(metricId)}`, "metricId");
  return prefix === undefined ? { metric, coin: "all", metricId: full } : { metric, coin: prefix.slice(0, -1), metricId: full };
}

/** The folder of a coin's histories: `<dir>/endpoint=history/coin=<c>` (one file per UTC day below it, one column per metric). @internal */
export function coinDir(dir: string, coin: string): string {
  return join(dir, "endpoint=history", `coin=${coin}`);
}
