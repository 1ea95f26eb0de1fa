import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { DuckDBConnection, DuckDBInstance, DuckDBResultReader } from "@duckdb/node-api";
import type { Columns } from "../data/toDataFrame.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** Options of `store.query` / `store.queryColumns`. */
export interface StoreQueryOptions {
  /**
   * Run the SQL without restriction (default false): any statements, any file DuckDB can
   * reach (`read_csv('/etc/passwd')`, `COPY ... TO`, `ATTACH`, `INSTALL`), on a DuckDB of its
   * own, so it cannot weaken the default one. Only for SQL you wrote yourself: never for
   * SQL that comes from a user, a file or the network. See SECURITY.md.
   */
  readonly trusted?: boolean;
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

/** True when the folder holds a `.parquet` file at any depth (an empty `endpoint=x/` gets no view). */
function holdsParquet(folder: string): boolean {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith(".parquet")) return true;
    if (entry.isDirectory() && holdsParquet(join(folder, entry.name))) return true;
  }
  return false;
}

/** One DuckDB in memory and the views made in it so far. */
interface Engine {
  readonly instance: DuckDBInstance;
  readonly connection: DuckDBConnection;
  readonly views: Set<string>;
}

/**
 * A DuckDB engine over the store at `dir`, started on first query. Each
 * top-level `endpoint=<name>` folder holding a Parquet file is a view called
 * `<name>` over its files with Hive partitioning (`history` has time, one
 * column per metric, coin and day). A time filter on `day` (or `time`, through
 * Parquet statistics) skips the other files.
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

  const start = async (restricted: boolean): Promise<Engine> => {
    const { DuckDBInstance } = await import("@duckdb/node-api");
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    if (restricted) {
      // The views' patterns name the store escaped, the files they expand to name it as it is: both are allowed.
      const allowed = [...new Set([`${root}/`, `${literalGlob(root)}/`])].map(sqlString).join(", ");
      await connection.run(`set allowed_directories = [${allowed}]`);
      await connection.run("set autoinstall_known_extensions = false");
      await connection.run("set autoload_known_extensions = false");
      await connection.run("set allow_community_extensions = false");
      await connection.run("set enable_external_access = false");
      await connection.run("set lock_configuration = true");
    }
    return { instance, connection, views: new Set() };
  };

  /** Make a view for each endpoint folder with files (every query: folders appear as the store grows; `replace` restores views trusted SQL dropped). */
  const addViews = async (engine: Engine, replace: boolean): Promise<void> => {
    if (!existsSync(root)) return;
    for (const name of readdirSync(root)) {
      const m = /^endpoint=([A-Za-z0-9_]+)$/.exec(name);
      const view = m?.[1];
      if (view === undefined || (!replace && engine.views.has(view)) || !holdsParquet(join(root, name))) continue;
      const glob = `${literalGlob(join(root, name))}/**/*.parquet`;
      await engine.connection.run(`create or replace view "${view}" as select * from read_parquet(${sqlString(glob)}, hive_partitioning = true, union_by_name = true)`);
      engine.views.add(view);
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

  return {
    async query(sql, options = {}) {
      if (typeof sql !== "string" || sql.trim() === "") throw new InvalidArgumentError("sql", `store.query: sql must be a non-empty SQL statement, got ${JSON.stringify(sql)}`);
      if (typeof options !== "object" || options === null) throw new InvalidArgumentError("options", "store.query: options must be an object, e.g. { trusted: true }");
      const trusted = options.trusted ?? false;
      if (typeof trusted !== "boolean") throw new InvalidArgumentError("trusted", `store.query: trusted must be true or false, got ${JSON.stringify(trusted)}`);
      const engine = trusted ? await (open ??= start(false)) : await (locked ??= start(true));
      let reader: DuckDBResultReader;
      try {
        await addViews(engine, trusted);
        reader = trusted ? await engine.connection.runAndReadAll(sql) : await runRestricted(engine, sql);
      } catch (err) {
        if (err instanceof InvalidArgumentError) throw err;
        const message = err instanceof Error ? err.message : String(err);
        if (!trusted && /disabled by configuration|configuration has been locked/i.test(message)) {
          throw rejected(engine, `reads only the store's own views, never other files, databases or extensions (DuckDB: ${message}); pass { trusted: true } only for SQL you wrote yourself`);
        }
        throw rejected(engine, `DuckDB rejected the query (${message})`);
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
      for (const engine of [locked, open]) {
        void engine?.then(({ instance, connection }) => {
          connection.closeSync();
          instance.closeSync();
        });
      }
      locked = undefined;
      open = undefined;
    },
  };
}
