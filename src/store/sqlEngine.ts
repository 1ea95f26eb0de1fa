import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import type { Columns } from "../data/toDataFrame.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** SQL over a store's Parquet files (DuckDB in memory, reading the files in place). */
export interface SqlEngine {
  /** Run one SQL statement; the result as columns (numbers as Float64Array with null as NaN, times as epoch ms, text as strings). */
  query(sql: string): Promise<Columns>;
  /** Free DuckDB (the files stay). */
  close(): void;
}

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
 * A DuckDB engine over the store at `dir`, started on first query. Each
 * top-level `endpoint=<name>` folder is a view called `<name>` over its
 * Parquet files with Hive partitioning (`history` has time, one column
 * per metric, coin and day). A time filter on `day` (or `time`, through Parquet
 * statistics) skips the other files.
 * @internal
 */
export function createSqlEngine(dir: string): SqlEngine {
  let conn: Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> | undefined;
  const views = new Set<string>();
  const connect = async (): Promise<DuckDBConnection> => {
    conn ??= (async () => {
      const { DuckDBInstance } = await import("@duckdb/node-api");
      const instance = await DuckDBInstance.create(":memory:");
      return { instance, connection: await instance.connect() };
    })();
    const { connection } = await conn;
    if (existsSync(dir)) {
      for (const name of readdirSync(dir)) {
        const m = /^endpoint=([A-Za-z0-9_]+)$/.exec(name);
        if (m === null || views.has(m[1] as string)) continue;
        const glob = join(resolve(dir), name, "**", "*.parquet");
        await connection.run(`create or replace view "${m[1] as string}" as select * from read_parquet(${sqlString(glob)}, hive_partitioning = true, union_by_name = true)`);
        views.add(m[1] as string);
      }
    }
    return connection;
  };
  return {
    async query(sql) {
      if (typeof sql !== "string" || sql.trim() === "") throw new InvalidArgumentError("sql", `store.query: sql must be a non-empty SQL statement, got ${JSON.stringify(sql)}`);
      const connection = await connect();
      let reader;
      try {
        reader = await connection.runAndReadAll(sql);
      } catch (err) {
        throw new InvalidArgumentError("sql", `store.query: DuckDB rejected the query (${err instanceof Error ? err.message : String(err)}); views: ${[...views].join(", ") || "none yet (the store is empty)"}`);
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
      const c = conn;
      conn = undefined;
      views.clear();
      void c?.then(({ instance, connection }) => {
        connection.closeSync();
        instance.closeSync();
      });
    },
  };
}
