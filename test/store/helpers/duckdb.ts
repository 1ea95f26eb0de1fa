import { DuckDBInstance } from "@duckdb/node-api";

/**
 * DuckDB, the independent Parquet writer and reader the store's tests compare
 * against (its own C++ Parquet code, nothing shared with parquet-wasm).
 * Returns rows as plain JS objects (BIGINT as bigint, TIMESTAMP as Date).
 */
export async function duck(sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(":memory:");
  const conn = await instance.connect();
  try {
    const reader = await conn.runAndReadAll(sql);
    return reader.getRowObjectsJS() as Record<string, unknown>[];
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** A path as a SQL string literal. */
export function lit(path: string): string {
  return `'${path.replaceAll("'", "''")}'`;
}
