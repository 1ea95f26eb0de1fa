import type { History, MarketIntelClient } from "../api/createClient.js";
import type { DataFrame } from "../data/danfo.js";
import type { Panel } from "../data/Panel.js";
import type { Recording, LoadRecordingOptions } from "../load/loadRecording.js";
import type { Coverage } from "./coverage.js";
import type { StoreQueryOptions } from "./sqlEngine.js";
import type { TimeInput } from "./timeBound.js";

/** A history series to save: one metric (of one coin), epoch-ms times ascending. */
export interface StoredSeries {
  /** Metric id, e.g. `"btc_price"` (or `"price"` with `coin`). */
  readonly metricId: string;
  readonly coin?: string;
  readonly time: ArrayLike<number>;
  readonly value: ArrayLike<number>;
}

/** What to read from the store's history. */
export interface ReadHistoryParams {
  /** Metric id(s): one id or a list (`"btc_price"`, or bare `"price"` with `coin`), as in `loadHistory`. (`metricIds` is refused.) */
  readonly metricId: string | readonly string[];
  /** Coin(s) the bare metric ids belong to [none: ids name their coin]. */
  readonly coin?: string | readonly string[];
  /** `time >= start` [no bound]. */
  readonly start?: TimeInput;
  /** `time < end` [no bound]. */
  readonly end?: TimeInput;
}

/** A local, partitioned Parquet store of histories and recordings (see `openStore`). */
export interface Store {
  /** The store's root folder. */
  readonly dir: string;
  /**
   * Save points of a series: merged into its day partitions (a point at a
   * time already stored replaces it), each partition rewritten atomically.
   */
  saveHistory(series: StoredSeries): Promise<void>;
  /**
   * Read series from the store into one Panel (`time` = the sorted union of
   * their times, one column per full metric id, NaN where a series has no
   * point). Only the day folders that meet [start, end) are opened.
   */
  readHistory(params: ReadHistoryParams): Promise<Panel>;
  /** The time intervals fetched so far for a series (closed, epoch ms). */
  coverage(metricId: string, coin?: string): Coverage;
  /**
   * The client's `history` served from the store: a window the store already
   * covers (up to `maxAgeMs` before the clock) makes no request; otherwise
   * only the missing recent hours are fetched (the API always answers the
   * last `hours` up to now), saved, and the window is read from the store.
   * `loadHistory(client, { ..., store })` uses it.
   */
  historyClient(client: Pick<MarketIntelClient, "history">): Pick<MarketIntelClient, "history">;
  /**
   * Run SQL with DuckDB over the store; the result as a DataFrame. Views: `history` (time, one
   * column per metric, coin, day) and one per compacted endpoint (time, key, fetched_at, body, day).
   * By default the SQL is read-only over the store: one SELECT (or WITH, FROM, DESCRIBE,
   * SUMMARIZE), no file outside the store, no COPY, ATTACH, INSTALL, SET or DROP (see SECURITY.md);
   * `{ trusted: true }` lifts every limit, for SQL you wrote yourself.
   * @throws InvalidArgumentError for SQL DuckDB rejects, or that the default refuses
   * @example (await store.query("select coin, count(price) as n from history group by coin")).print()
   */
  query(sql: string, options?: StoreQueryOptions): Promise<DataFrame>;
  /** {@link Store.query}'s result as columns (numbers as Float64Array, times as epoch ms, text as strings). */
  queryColumns(sql: string, options?: StoreQueryOptions): Promise<Readonly<Record<string, Float64Array | string[]>>>;
  /** The recordings compacted into the store (plus a JSON-lines recording folder, if given), read like `loadRecording`. */
  loadRecording(options?: LoadRecordingOptions & { readonly jsonl?: string }): Promise<Recording>;
  /** Free the SQL engine. */
  close(): void;
}

export type { History };
