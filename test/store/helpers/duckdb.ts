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
