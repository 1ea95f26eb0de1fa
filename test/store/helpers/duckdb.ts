import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";

/**
 * One in-memory DuckDB for the worker process (a new instance cost ~30 ms of CPU a query, ~80 ms wall at load 14;
 * a query on an open one ~0.5 ms). It keeps no file's contents or Parquet metadata between queries (the caches
 * that could are off), so a query sees a file as it is now, as a new instance did.
 */
let connection: Promise<DuckDBConnection> | undefined;
function shared(): Promise<DuckDBConnection> {
  connection ??= (async () => {
    const conn = await (await DuckDBInstance.create(":memory:")).connect();
    for (const [name, value] of [["enable_external_file_cache", "false"], ["parquet_metadata_cache", "false"], ["enable_object_cache", "false"]]) {
      await conn.run(`set ${name} = ${value}`);
    }
    return conn;
  })();
  return connection;
}

/**
 * DuckDB, the independent Parquet writer and reader the store's tests compare
 * against (its own C++ Parquet code, nothing shared with parquet-wasm).
 * Returns rows as plain JS objects (BIGINT as bigint, TIMESTAMP as Date).
 */
export async function duck(sql: string): Promise<Record<string, unknown>[]> {
  const reader = await (await shared()).runAndReadAll(sql);
  return reader.getRowObjectsJS() as Record<string, unknown>[];
}

/** A path as a SQL string literal. */
export function lit(path: string): string {
  return `'${path.replaceAll("'", "''")}'`;
}

/** The first index where `a` and `b` differ as float64 bit patterns (NaN equals NaN), or -1. */
export function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

/** DuckDB's values of the SQL expression `expr` over `path`'s rows, in file order, null as NaN. */
export async function duckColumn(path: string, expr: string): Promise<number[]> {
  const rows = await duck(`select ${expr} as v from read_parquet(${lit(path)}, file_row_number = true) order by file_row_number`);
  return rows.map((r) => (r["v"] === null ? Number.NaN : Number(r["v"])));
}
