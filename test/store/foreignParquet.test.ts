/**
 * readParquet of files other tools wrote with their defaults (issue 32): DuckDB's
 * (SNAPPY, PLAIN, several row groups, TIMESTAMP µs, OPTIONAL columns) and
 * pyarrow's (SNAPPY, dictionary pages falling back to PLAIN, TIMESTAMP ns;
 * written by arrow-rs with pyarrow's settings, see test/support/foreignParquet.ts).
 * The reference is DuckDB reading the same file (its own C++ reader): every
 * value must be the same float64, bit for bit (-0, subnormals, the largest
 * double, nulls as NaN), and every time the same epoch ms.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCodecs } from "../../src/store/codecs.js";
import { readParquet } from "../../src/store/readParquet.js";
import { duckdbDefaultParquet, pyarrowDefaultParquet } from "../support/foreignParquet.js";
import { mulberry32 } from "../support/mulberry32.js";
import { duck, duckColumn, firstDifference, lit } from "./helpers/duckdb.js";

const dir = mkdtempSync(join(tmpdir(), "milab-foreign-"));
const N = 5000;
const T0 = Date.UTC(2026, 10, 1);


describe("readParquet of files written by other tools", () => {
  const duckPath = join(dir, "duckdb.parquet");
  const pyPath = join(dir, "pyarrow.parquet");
  beforeAll(async () => {
    // Several row groups (DuckDB's default is 122,880 rows; 1,000 here), nulls, special doubles and full-precision values.
    await duckdbDefaultParquet(
      `select make_timestamp(${T0 * 1000} + i * 60000000 + (i % 7) * 123) as time,
         case when i % 11 = 3 then null when i = 5 then -0.0 when i = 6 then 5e-324 when i = 7 then 1.7976931348623157e308
              else (hash(i)::double / 3.0) * 1e-16 - 1000 end as a,
         round(100 + (hash(i * 7) % 100000)::double / 1e4, 4) as b
       from range(${N}) r(i)`,
      duckPath,
      "row_group_size 1000",
    );
    // Repeated values fill the dictionary page (2 KiB here) and the writer falls back to PLAIN pages, as pyarrow does past 1 MiB.
    const rand = mulberry32(32);
    // Times from before 1970 to after it, with parts of a ms: a negative ns count's quotient and remainder.
    const time = Float64Array.from({ length: N }, (_, i) => (i - N / 2) * 60_000 - 0.001 + (i % 7) * 0.000123);
    const a = Float64Array.from({ length: N }, (_, i) => (i % 13 === 4 ? Number.NaN : i < 2000 ? Math.round(rand() * 50) / 4 : (rand() - 0.5) * 1e6));
    const b = Float64Array.from({ length: N }, (_, i) => (i === 9 ? -0 : Math.round(rand() * 1e8) / 1e4));
    pyarrowDefaultParquet(await loadCodecs(), time, { a, b }, pyPath, { dictionaryPageSizeLimit: 2048, dataPageSizeLimit: 4096 });
  });

  it("the pyarrow-like file really has dictionary and PLAIN pages, SNAPPY, nanosecond times; DuckDB's has several row groups", async () => {
    const py = await duck(`select distinct encodings, compression from parquet_metadata(${lit(pyPath)}) where path_in_schema = 'a'`);
    expect(py).toEqual([{ encodings: "PLAIN, RLE, RLE_DICTIONARY", compression: "SNAPPY" }]);
    const pyTime = await duck(`select logical_type from parquet_schema(${lit(pyPath)}) where name = 'time'`);
    expect(String(pyTime[0]?.["logical_type"])).toContain("NANOS=NanoSeconds()");
    const groups = await duck(`select count(distinct row_group_id) as n, any_value(compression) as c from parquet_metadata(${lit(duckPath)})`);
    expect(groups[0]?.["c"]).toBe("SNAPPY");
    expect(Number(groups[0]?.["n"])).toBeGreaterThan(1);
  });

  it("DuckDB's default file: every double bit for bit as DuckDB reads it, times in epoch ms", async () => {
    const p = await readParquet(duckPath);
    expect(Object.keys(p.columns)).toEqual(["a", "b"]);
    for (const c of ["a", "b"]) expect(firstDifference(p.columns[c] as Float64Array, await duckColumn(duckPath, c))).toBe(-1);
    const us = await duckColumn(duckPath, "epoch_us(time)");
    expect(firstDifference(p.time, us.map((x) => x / 1000))).toBe(-1);
    expect(p.time[1]).toBe(T0 + 60_000 + 0.123);
  });

  it("pyarrow's default file: dictionary and PLAIN pages bit for bit as DuckDB reads them, nanosecond times exact to the ns", async () => {
    const p = await readParquet(pyPath);
    for (const c of ["a", "b"]) expect(firstDifference(p.columns[c] as Float64Array, await duckColumn(pyPath, c))).toBe(-1);
    const ns = (await duck(`select epoch_ns(time) as v from read_parquet(${lit(pyPath)}, file_row_number = true) order by file_row_number`)).map((r) => r["v"] as bigint);
    // Hand rule: ms = the integer quotient by 10^6 plus the remainder / 10^6 (BigInt, exact).
    expect(firstDifference(p.time, ns.map((v) => Number(v / 1_000_000n) + Number(v % 1_000_000n) / 1e6))).toBe(-1);
    // Row N/2 is -877 ns: quotient 0 ms, remainder -877 ns; row N/2 + 1 is 59,999,999,246 ns: 59,999 ms and 999,246 ns.
    expect([p.time[N / 2], p.time[N / 2 + 1]]).toEqual([-0.000877, 59_999 + 0.999246]);
  });

  it("a range across row groups and a projection read the same values as the whole file", async () => {
    const all = await readParquet(duckPath);
    const part = await readParquet(duckPath, { columns: ["b"], start: all.time[990] as number, end: all.time[2010] as number });
    expect(Array.from(part.time)).toEqual(Array.from(all.time.subarray(990, 2010)));
    expect(firstDifference(part.columns["b"] as Float64Array, (all.columns["b"] as Float64Array).subarray(990, 2010))).toBe(-1);
  });

  it("calls in flight together each read their own file (each file read into parquet-wasm's one WebAssembly memory)", async () => {
    const [d, py, d2] = await Promise.all([readParquet(duckPath), readParquet(pyPath), readParquet(duckPath, { columns: ["a"] })]);
    expect(firstDifference(d.columns["a"] as Float64Array, await duckColumn(duckPath, "a"))).toBe(-1);
    expect(firstDifference(py.columns["a"] as Float64Array, await duckColumn(pyPath, "a"))).toBe(-1);
    expect(firstDifference(d2.columns["a"] as Float64Array, d.columns["a"] as Float64Array)).toBe(-1);
  });

  it("a result stays the caller's: the next read does not change it", async () => {
    const first = await readParquet(duckPath);
    const copy = Float64Array.from(first.columns["a"] as Float64Array);
    await readParquet(pyPath);
    expect(firstDifference(first.columns["a"] as Float64Array, copy)).toBe(-1);
  });
});
