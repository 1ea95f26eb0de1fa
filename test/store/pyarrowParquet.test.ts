/**
 * readParquet of files pyarrow itself wrote (issue 32, item 5): pandas'
 * `df.to_parquet` defaults under Debian's python3 with pyarrow 25, committed in
 * fixtures/parquet/ (written by test/store/helpers/writePyarrowFixtures.ts from
 * the columns of helpers/pyarrowFixture.ts; CI needs no pyarrow).
 * foreignParquet.test.ts covers arrow-rs writing with pyarrow's settings; this
 * is the writer users have.
 * The reference is DuckDB reading the same file (its own C++ reader, nothing
 * shared with parquet-wasm or pyarrow): every value the same float64, bit for
 * bit (-0, subnormals, the largest double, NaN written as null), every time
 * the same epoch ms (DuckDB's epoch_ns, split by hand in BigInt); and the
 * columns that went in.
 */
import { describe, expect, it } from "vitest";
import { readParquet } from "../../src/store/readParquet.js";
import { duck, duckColumn, firstDifference, lit } from "./helpers/duckdb.js";
import { DEFAULTS_FILE, N, pyarrowFixtureColumns, SMALL_PAGES_FILE } from "./helpers/pyarrowFixture.js";


describe("readParquet of files pyarrow 25 wrote (pandas' to_parquet)", () => {
  const defaults = DEFAULTS_FILE;
  const small = SMALL_PAGES_FILE;
  const { a } = pyarrowFixtureColumns();

  it("the files are pyarrow's: its writer, SNAPPY, dictionary and PLAIN pages, TIMESTAMP ns, several row groups in the second", async () => {
    const meta = await duck(`select distinct created_by from parquet_file_metadata(${lit(defaults)})`);
    expect(String(meta[0]?.["created_by"])).toContain("parquet-cpp-arrow");
    const enc = await duck(`select distinct encodings, compression from parquet_metadata(${lit(small)}) where path_in_schema = 'a'`);
    expect(enc.map((r) => r["compression"])).toEqual(["SNAPPY"]);
    expect(String(enc[0]?.["encodings"])).toContain("RLE_DICTIONARY");
    expect(String(enc[0]?.["encodings"])).toContain("PLAIN");
    const t = await duck(`select logical_type from parquet_schema(${lit(defaults)}) where name = 'time'`);
    expect(String(t[0]?.["logical_type"])).toContain("NANOS");
    const groups = await duck(`select count(distinct row_group_id) as n from parquet_metadata(${lit(small)})`);
    expect(Number(groups[0]?.["n"])).toBe(5);
  });

  for (const [label, file] of [["defaults", defaults], ["small pages, 5 row groups", small]] as const) {
    it(`${label}: every double bit for bit as DuckDB reads it, times exact to the ns, column order kept`, async () => {
      const p = await readParquet(file);
      expect(Object.keys(p.columns)).toEqual(["a", "b", "c"]);
      for (const name of ["a", "b", "c"]) expect(firstDifference(p.columns[name] as Float64Array, await duckColumn(file, name))).toBe(-1);
      // Our own inputs too (NaN was written as null and comes back NaN): a second reference, independent of DuckDB.
      expect(firstDifference(p.columns["a"] as Float64Array, a)).toBe(-1);
      const ns = (await duck(`select epoch_ns(time) as v from read_parquet(${lit(file)}, file_row_number = true) order by file_row_number`)).map((r) => r["v"] as bigint);
      // Hand rule: ms = the integer quotient by 10^6 plus the remainder / 10^6 (BigInt, exact).
      expect(firstDifference(p.time, ns.map((v) => Number(v / 1_000_000n) + Number(v % 1_000_000n) / 1e6))).toBe(-1);
      // Row N/2 is -0.001 + 0.000123 ms = -877 ns: quotient 0 ms, remainder -877 ns; row N/2 + 1 is 59,999,999,246 ns.
      expect([p.time[N / 2], p.time[N / 2 + 1]]).toEqual([-0.000877, 59_999 + 0.999246]);
    });
  }

  it("a range across row groups and a projection read the same values as the whole file", async () => {
    const all = await readParquet(small);
    // Whole-ms bounds (start and end take whole epoch ms) between rows 3989/3990 and 4509/4510 (across the row group that starts at 4000; start and end take no time before 1970).
    const part = await readParquet(small, { columns: ["b"], start: Math.floor(all.time[3990] as number), end: Math.floor(all.time[4510] as number) });
    expect(Array.from(part.time)).toEqual(Array.from(all.time.subarray(3990, 4510)));
    expect(firstDifference(part.columns["b"] as Float64Array, (all.columns["b"] as Float64Array).subarray(3990, 4510))).toBe(-1);
  });
});
