/**
 * store/arrowCData.ts reads parquet-wasm's output in WebAssembly memory
 * through the Arrow C data interface. A DuckDB file (the independent writer)
 * of 5 row groups, read in batches of 700 rows so every column comes in 8
 * chunks: each type's values, nulls and a row range across chunks equal the
 * formulas DuckDB wrote them from.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readArrowSchema, readArrowTable, utf8Strings } from "../../src/store/arrowCData.js";
import { readArrowColumn } from "../../src/store/arrowColumn.js";
import { loadReadCodecs } from "../../src/store/codecs.js";
import { duck, lit } from "./helpers/duckdb.js";

const N = 5000;

describe("arrowCData", () => {
  it("columns of several chunks: ints, doubles with nulls, booleans, decimals, timestamps, strings; the schema and its metadata", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "milab-cdata-")), "rg.parquet");
    await duck(`copy (select i,
        case when i % 7 = 0 then null else i * 0.5 end::double as x,
        (i % 3 = 0) as b,
        (i * 0.25)::decimal(18, 3) as d,
        make_timestamp(2026, 1, 1, 0, 0, 0) + to_seconds(i) as t,
        'k' || i as s
      from range(${N}) r(i)) to ${lit(path)} (format parquet, row_group_size 1024, kv_metadata { who: 'duckdb' })`);
    const { pq } = await loadReadCodecs();
    const bytes = readFileSync(path);
    const schemaFfi = pq.readSchema(bytes).intoFFI();
    const schema = readArrowSchema(pq.wasmMemory().buffer, schemaFfi.addr());
    schemaFfi.free();
    expect(schema.fields.map((f) => `${f.name}: ${String(f.type)}`)).toEqual(["i: Int64", "x: Float64", "b: Bool", "d: Decimal[18e+3]", "t: Timestamp<MICROSECOND>", "s: Utf8"]);
    expect(schema.metadata.get("who")).toBe("duckdb");
    const ffi = pq.readParquet(bytes, { batchSize: 700 }).intoFFI();
    try {
      const table = readArrowTable(pq.wasmMemory().buffer, ffi.arrayAddrs(), ffi.schemaAddr());
      expect(table.numRows).toBe(N);
      expect(table.getChild("x")?.data.length).toBe(8);
      expect(table.getChild("nope")).toBeNull();
      const col = (name: string, lo = 0, hi = N): number[] => {
        const c = table.getChild(name);
        if (c === null) throw new Error(name);
        return Array.from(readArrowColumn(c.data, c.type, lo, hi));
      };
      const rows = Array.from({ length: N }, (_, k) => k);
      expect(col("i")).toEqual(rows);
      expect(col("x")).toEqual(rows.map((k) => (k % 7 === 0 ? NaN : k * 0.5)));
      expect(col("b")).toEqual(rows.map((k) => (k % 3 === 0 ? 1 : 0)));
      expect(col("d")).toEqual(rows.map((k) => k * 0.25));
      expect(col("t")).toEqual(rows.map((k) => Date.UTC(2026, 0, 1) + k * 1000));
      expect(col("x", 690, 1410)).toEqual(rows.slice(690, 1410).map((k) => (k % 7 === 0 ? NaN : k * 0.5)));
      expect(utf8Strings(table.getChild("s")?.data ?? [])).toEqual(rows.map((k) => `k${k}`));
    } finally {
      ffi.free();
    }
  });
});
