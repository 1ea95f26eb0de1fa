import { join, resolve } from "node:path";
import type { DuckDBConnection, DuckDBInstance, DuckDBResultReader } from "@duckdb/node-api";
import type { Columns } from "../data/toDataFrame.js";
import { checkOptionsObject } from "../errors/checkOptionsObject.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { QueryCancelledError } from "../errors/QueryCancelledError.js";
import { loadReadCodecs } from "./codecs.js";
import { createPinnedFiles, removePinnedFiles, sweepQuerySnapshots, takeQuerySnapshot, type PinnedFiles, type QuerySnapshot } from "./querySnapshot.js";

/** Options of `store.query` / `store.queryColumns`. */
export interface StoreQueryOptions {
  /**
   * Run the SQL without restriction (default false): any statements, any file DuckDB can
   * reach (`read_csv('/etc/passwd')`, `COPY ... TO`, `ATTACH`, `INSTALL`), on a DuckDB of its
   * own, so it cannot weaken the default one. Only for SQL you wrote yourself: never for
   * SQL that comes from a user, a file or the network. See SECURITY.md.
   */
  readonly trusted?: boolean;
  /** End the query (DuckDB interrupted, QueryCancelledError) when it has not finished this many ms after the call, waiting for earlier queries included [no limit]. */
  readonly timeoutMs?: number;
  /** End the query (DuckDB interrupted, QueryCancelledError) when this signal aborts [none]. */
  readonly signal?: AbortSignal;
}

/** SQL over a store's Parquet files (DuckDB in memory, reading the files in place). */
export interface SqlEngine {
  /** Run SQL; the result as columns (numbers as Float64Array with null as NaN, times as epoch ms, text as strings). */
  query(sql: string, options?: StoreQueryOptions): Promise<Columns>;
  /** Free DuckDB (the files stay). */
  close(): void;
}

/** DuckDB's StatementType.SELECT (`@duckdb/node-api` enums): SELECT, WITH, FROM-first, VALUES, DESCRIBE, SHOW, SUMMARIZE, table pragmas. */
const SELECT_STATEMENT = 1;

/** A DuckDB result column in the library's column types. */
function toColumn(values: readonly unknown[]): Float64Array | string[] {
  const n = values.length;
  let kind: "number" | "string" | undefined;
  for (const v of values) {
    if (v === null || v === undefined) continue;
    kind = typeof v === "number" || typeof v === "bigint" || typeof v === "boolean" || v instanceof Date ? "number" : "string";
    break;
  }
  if (kind === "string") return values.map((v) => (v === null || v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? Number(x) : x))));
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    out[i] = typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : v instanceof Date ? v.getTime() : typeof v === "boolean" ? (v ? 1 : 0) : Number.NaN;
  }
  return out;
}

function sqlString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/**
 * A path as a DuckDB glob that matches only itself: each glob character
 * (`[`, `]`, `*`, `?`) as a one-character class, so a store at `data/s?`
 * never reads its sibling `data/sa`.
 */
function literalGlob(path: string): string {
  return path.replace(/[[\]*?]/g, (c) => `[${c}]`);
}

/** One DuckDB in memory, the views made in it, and its queue of queries (one runs at a time: the views are remade for each). */
interface Engine {
  readonly instance: DuckDBInstance;
  readonly connection: DuckDBConnection;
  readonly views: Set<string>;
  tail: Promise<void>;
  /** The engine's pinned copies of the store's files (see takeQuerySnapshot). */
  readonly pins: PinnedFiles;
}

/** A query's cancellation: why it ended early, how to interrupt DuckDB while it runs, and how to answer its caller. */
interface Ticket {
  reason: QueryCancelledError["reason"] | undefined;
  interrupt: (() => void) | undefined;
  wake: (() => void) | undefined;
}

function cancelTicket(ticket: Ticket, reason: QueryCancelledError["reason"]): void {
  if (ticket.reason !== undefined) return;
  ticket.reason = reason;
  ticket.interrupt?.();
  ticket.wake?.();
}

const MAX_TIMEOUT_MS = 2_147_483_647;

/** How often a cancelled query's connection is interrupted again until DuckDB stops (see runOnEngine). */
const INTERRUPT_AGAIN_MS = 20;

/**
 * A DuckDB engine over the store at `dir`, started on first query. Each
 * top-level `endpoint=<name>` folder holding a Parquet file is a view called
 * `<name>` over its files with Hive partitioning (`history` has time, one
 * column per metric, coin and day). A time filter on `day` (or `time`, through
 * Parquet statistics) skips the other files.
 *
 * Every query reads a snapshot of committed, verified files (see
 * takeQuerySnapshot): the store's Parquet files are pinned (hard links in a
 * private folder) so no writer can replace one under DuckDB, and each is
 * checked against its checksums before DuckDB sees it; a damaged file fails
 * the query with DamagedFileError, a symbolic link or device in the store
 * with UnsafeStorePathError, both naming the file. Queries of one engine run
 * one at a time; `timeoutMs` and `signal` interrupt DuckDB, and `close()`
 * ends the running and waiting ones (QueryCancelledError).
 *
 * By default a query is one read-only statement over the store: DuckDB's
 * external access is off (only the store's folder is readable), extensions
 * are neither installed nor loaded, the configuration is locked, and the SQL
 * must be a single SELECT (checked by DuckDB's own statement extraction and
 * prepare), so the views cannot be dropped. `{ trusted: true }` runs SQL on a
 * second, unrestricted DuckDB.
 * @internal
 */
export function createSqlEngine(dir: string): SqlEngine {
  const root = resolve(dir);
  let locked: Promise<Engine> | undefined;
  let open: Promise<Engine> | undefined;
  const tickets = new Set<Ticket>();

  const start = async (restricted: boolean): Promise<Engine> => {
    const { DuckDBInstance } = await import("@duckdb/node-api");
    sweepQuerySnapshots(root);
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    const pins = createPinnedFiles(root);
    if (restricted) {
      // No path of this machine beyond the store's own folder in duckdb_settings(): spills go below the engine's pin
      // folder (DuckDB's default, `.tmp` of the working directory, would also be added to the readable folders), and
      // no secret folder is named (the default names the home folder). The store's folder itself stays visible in
      // allowed_directories: DuckDB checks the path as written, so it must be absolute, and a macro that shadows
      // duckdb_settings() is bypassed by system.main.duckdb_settings().
      await connection.run(`set temp_directory = ${sqlString(join(pins.folder, "spill"))}`);
      await connection.run("set secret_directory = ''");
      // The views' patterns name the store escaped, the files they expand to name it as it is: both are allowed.
      const allowed = [...new Set([`${root}/`, `${literalGlob(root)}/`])].map(sqlString).join(", ");
      await connection.run(`set allowed_directories = [${allowed}]`);
      await connection.run("set autoinstall_known_extensions = false");
      await connection.run("set autoload_known_extensions = false");
      await connection.run("set allow_community_extensions = false");
      await connection.run("set enable_external_access = false");
      await connection.run("set lock_configuration = true");
    }
    return { instance, connection, views: new Set(), tail: Promise.resolve(), pins };
  };

  /** Point each view at the snapshot's files of its endpoint (every query: folders appear as the store grows, and trusted SQL may have dropped a view); drop the views whose files are gone. */
  const setViews = async (engine: Engine, snapshot: QuerySnapshot): Promise<void> => {
    for (const [view, files] of snapshot.views) {
      const list = files.map((f) => sqlString(literalGlob(f))).join(", ");
      await engine.connection.run(`create or replace view "${view}" as select * from read_parquet([${list}], hive_partitioning = true, union_by_name = true)`);
      engine.views.add(view);
    }
    for (const view of [...engine.views]) {
      if (snapshot.views.has(view)) continue;
      await engine.connection.run(`drop view if exists "${view}"`);
      engine.views.delete(view);
    }
  };

  const rejected = (engine: Engine, why: string): InvalidArgumentError =>
    new InvalidArgumentError("sql", `store.query: ${why}; views: ${[...engine.views].join(", ") || "none yet (the store is empty)"}`);

  /** One SELECT, prepared by DuckDB itself (no SQL parsing here), run over the locked engine. */
  const runRestricted = async (engine: Engine, sql: string): Promise<DuckDBResultReader> => {
    const statements = await engine.connection.extractStatements(sql);
    if (statements.count !== 1) {
      throw rejected(engine, `runs one statement, got ${statements.count}; run them one by one (or pass { trusted: true } for SQL you wrote yourself)`);
    }
    const prepared = await statements.prepare(0);
    if ((prepared.statementType as number) !== SELECT_STATEMENT) {
      throw rejected(engine, `runs a read-only SELECT (or WITH, FROM, DESCRIBE, SUMMARIZE) over the store's views, got another kind of statement; pass { trusted: true } only for SQL you wrote yourself`);
    }
    return prepared.runAndReadAll();
  };

  const cancelled = (ticket: Ticket, timeoutMs: number | undefined): QueryCancelledError => {
    const reason = ticket.reason ?? "closed";
    const why = reason === "timeout" ? `ran longer than its timeoutMs (${String(timeoutMs)} ms); narrow it (a filter on day or time) or raise timeoutMs` : reason === "aborted" ? "was aborted by its signal" : "was ended by store.close()";
    return new QueryCancelledError(reason, `store.query: the query ${why}; DuckDB was interrupted`);
  };

  /** Snapshot, views, query: on the engine's queue, under the ticket. */
  const runOnEngine = async (engine: Engine, sql: string, trusted: boolean, ticket: Ticket, timeoutMs: number | undefined): Promise<DuckDBResultReader> => {
    if (ticket.reason !== undefined) throw cancelled(ticket, timeoutMs);
    const codecs = await loadReadCodecs();
    const snapshot = takeQuerySnapshot(root, codecs, engine.pins, "store.query", () => ticket.reason !== undefined);
    if (ticket.reason !== undefined) throw cancelled(ticket, timeoutMs);
    // DuckDB clears a connection's interrupt when a statement begins, so one interrupt that lands between the steps
    // below (the views, statement extraction, prepare, the run) is lost and the query runs on; once cancelled, the
    // connection is interrupted again every INTERRUPT_AGAIN_MS until the run returns.
    let again: ReturnType<typeof setInterval> | undefined;
    ticket.interrupt = () => {
      engine.connection.interrupt();
      // unref'd: the repeat never keeps a process alive by itself (DuckDB's running query does until it stops)
      again ??= setInterval(() => engine.connection.interrupt(), INTERRUPT_AGAIN_MS).unref();
    };
    try {
      await setViews(engine, snapshot);
      if (ticket.reason !== undefined) throw cancelled(ticket, timeoutMs);
      return trusted ? await engine.connection.runAndReadAll(sql) : await runRestricted(engine, sql);
    } catch (err) {
      if (ticket.reason !== undefined) throw cancelled(ticket, timeoutMs);
      if (err instanceof InvalidArgumentError) throw err;
      const message = err instanceof Error ? err.message : String(err);
      if (!trusted && /disabled by configuration|configuration has been locked/i.test(message)) {
        throw rejected(engine, `reads only the store's own views, never other files, databases or extensions (DuckDB: ${message}); pass { trusted: true } only for SQL you wrote yourself`);
      }
      throw rejected(engine, `DuckDB rejected the query (${message})`);
    } finally {
      ticket.interrupt = undefined;
      if (again !== undefined) clearInterval(again);
    }
  };

  return {
    async query(sql, options = {}) {
      if (typeof sql !== "string" || sql.trim() === "") throw new InvalidArgumentError("sql", `store.query: sql must be a non-empty SQL statement, got ${JSON.stringify(sql)}`);
      checkOptionsObject(options, "store.query", "store.query(sql, { timeoutMs: 10000 })");
      const trusted = options.trusted ?? false;
      if (typeof trusted !== "boolean") throw new InvalidArgumentError("trusted", `store.query: trusted must be true or false, got ${JSON.stringify(trusted)}`);
      const { timeoutMs, signal } = options;
      if (timeoutMs !== undefined && (typeof timeoutMs !== "number" || !(timeoutMs > 0) || timeoutMs > MAX_TIMEOUT_MS)) {
        throw new InvalidArgumentError("timeoutMs", `store.query: timeoutMs must be a number of ms > 0 and at most ${MAX_TIMEOUT_MS}, got ${String(timeoutMs)}`);
      }
      if (signal !== undefined && !(signal instanceof AbortSignal)) throw new InvalidArgumentError("signal", "store.query: signal must be an AbortSignal, e.g. AbortSignal.timeout(10000)");
      const ticket: Ticket = { reason: signal?.aborted === true ? "aborted" : undefined, interrupt: undefined, wake: undefined };
      if (ticket.reason !== undefined) throw cancelled(ticket, timeoutMs);
      const onAbort = (): void => cancelTicket(ticket, "aborted");
      signal?.addEventListener("abort", onAbort, { once: true });
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => cancelTicket(ticket, "timeout"), timeoutMs);
      tickets.add(ticket);
      let reader: DuckDBResultReader;
      try {
        // The caller is answered at once on cancellation; the engine's queue moves on when DuckDB has stopped.
        const woken = new Promise<never>((_, reject) => (ticket.wake = () => reject(cancelled(ticket, timeoutMs))));
        woken.catch(() => undefined);
        const engine = await Promise.race([trusted ? (open ??= start(false)) : (locked ??= start(true)), woken]);
        const job = engine.tail.then(() => runOnEngine(engine, sql, trusted, ticket, timeoutMs));
        engine.tail = job.then(
          () => undefined,
          () => undefined,
        );
        reader = await Promise.race([job, woken]);
      } finally {
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        tickets.delete(ticket);
      }
      const names = reader.deduplicatedColumnNames();
      const cols = reader.getColumnsJS();
      const out: Record<string, Float64Array | string[]> = {};
      names.forEach((name, i) => {
        out[name] = toColumn((cols[i] ?? []) as unknown[]);
      });
      return out;
    },
    close() {
      for (const ticket of tickets) cancelTicket(ticket, "closed");
      for (const engine of [locked, open]) {
        void engine?.then((e) =>
          e.tail.then(() => {
            e.connection.closeSync();
            e.instance.closeSync();
            removePinnedFiles(e.pins);
          }),
        );
      }
      locked = undefined;
      open = undefined;
    },
  };
}
