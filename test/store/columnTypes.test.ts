/**
 * Columns of another type in Parquet files (issue 22, defect 4): every column's
 * type is checked on read; DECIMAL, FLOAT and integers within ±2^53 convert to
 * the nearest float64 (what DuckDB's cast to DOUBLE gives, the reference here),
 * the rest is refused with a typed error and never dropped. The hostile files
 * are written by DuckDB, as another tool would leave them in a store.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { openStore, readParquet } from "../../src/store/index.js";
import { duck, lit } from "./helpers/duckdb.js";

// 2026-11-01T00:00:00Z
const T0 = Date.UTC(2026, 10, 1);
const DAY_FILE = "endpoint=history/coin=btc/day=2026-11-01/part-0.parquet";

/** A store with btc_price saved on 1 Nov, whose day file DuckDB then replaces by `select` (three rows a minute apart, i = 0..2). */
async function hostileStore(name: string, select: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `milab-types-${name}-`));
  const store = openStore(dir);
  await store.saveHistory({ metricId: "btc_price", time: [T0, T0 + 60_000, T0 + 120_000], value: [1, 2, 3] });
  store.close();
  const path = join(dir, DAY_FILE);
  await duck(`copy (select make_timestamptz(2026, 11, 1, 0, i, 0) as time, ${select} from range(3) t(i)) to ${lit(path)} (format parquet)`);
  return dir;
}

describe("the store refuses what does not convert, and never drops a column", () => {
  it('a VARCHAR price "100" is a typed error on read (not 49, 48, 48) and on a save to that day, which leaves the file as it was', async () => {
    const dir = await hostileStore("varchar", "'100' as price");
    const store = openStore(dir);
    const read = store.readHistory({ metricId: "btc_price" });
    await expect(read).rejects.toThrow(InvalidArgumentError);
    await expect(read).rejects.toThrow(/store\.readHistory: ".*part-0\.parquet": column "price" is Utf8, not a number/);
    const before = readFileSync(join(dir, DAY_FILE));
    await expect(store.saveHistory({ metricId: "btc_volume", time: [T0], value: [5] })).rejects.toThrow(/store\.saveHistory: ".*part-0\.parquet": column "price" is Utf8, not a number/);
    expect(readFileSync(join(dir, DAY_FILE)).equals(before)).toBe(true);
    expect(await duck(`select price from ${lit(join(dir, DAY_FILE))}`)).toEqual([{ price: "100" }, { price: "100" }, { price: "100" }]);
    store.close();
  });

  it("DECIMAL 100.25 reads as 100.25 (not 10025); saving another metric keeps the price column, as DOUBLE", async () => {
    const dir = await hostileStore("decimal", "(100.25 + i)::decimal(10, 2) as price, (-0.001 * i)::decimal(38, 20) as basis_bps, 123456789012.123456789::decimal(38, 9) as oi_usd, case when i = 1 then null else -98765432109876.54321 - i end::decimal(38, 8) as spread_bps");
    const store = openStore(dir);
    const p = await store.readHistory({ metricId: ["btc_price", "btc_basis_bps", "btc_oi_usd", "btc_spread_bps"] });
    expect(Array.from(p.columns.btc_price!)).toEqual([100.25, 101.25, 102.25]);
    // DuckDB's cast of the same decimals to DOUBLE is the reference (nearest float64).
    const ref = await duck(`select basis_bps::double as b, oi_usd::double as o, spread_bps::double as s from ${lit(join(dir, DAY_FILE))}`);
    expect(Array.from(p.columns.btc_basis_bps!)).toEqual(ref.map((r) => r.b));
    expect(Array.from(p.columns.btc_oi_usd!)).toEqual(ref.map((r) => r.o));
    expect(Array.from(p.columns.btc_spread_bps!)).toEqual(ref.map((r) => r.s ?? NaN)); // a negative 38-digit decimal, and a null
    expect(p.columns.btc_spread_bps![0]).toBe(-98765432109876.54);
    expect(p.columns.btc_oi_usd![0]).toBe(123456789012.12346);
    await store.saveHistory({ metricId: "btc_volume", time: [T0 + 60_000], value: [5] });
    const rows = await duck(`select price, typeof(price) as t, volume from ${lit(join(dir, DAY_FILE))} order by time`);
    expect(rows).toEqual([
      { price: 100.25, t: "DOUBLE", volume: null },
      { price: 101.25, t: "DOUBLE", volume: 5 },
      { price: 102.25, t: "DOUBLE", volume: null },
    ]);
    store.close();
  });

  it("FLOAT, INTEGER, SMALLINT and BIGINT within ±2^53 convert exactly; a BIGINT beyond 2^53 is refused", async () => {
    const dir = await hostileStore("ints", "(i * 0.5)::float as price, (i - 1)::integer as volume, (i * 7)::smallint as imbalance, (i::bigint - 1) * 9007199254740992 as oi_usd, 18446744073709551615::ubigint as funding_rate");
    const store = openStore(dir);
    const p = await store.readHistory({ metricId: ["btc_price", "btc_volume", "btc_imbalance", "btc_oi_usd"] });
    expect(Array.from(p.columns.btc_price!)).toEqual([0, 0.5, 1]);
    expect(Array.from(p.columns.btc_volume!)).toEqual([-1, 0, 1]);
    expect(Array.from(p.columns.btc_imbalance!)).toEqual([0, 7, 14]);
    expect(Array.from(p.columns.btc_oi_usd!)).toEqual([-9007199254740992, 0, 9007199254740992]); // ±2^53, exact
    await expect(store.readHistory({ metricId: ["btc_funding_rate"] })).rejects.toThrow(/column "funding_rate" holds 18446744073709551615 at row 0, beyond ±2\^53/);
    store.close();
  });

  it("a LIST, a BLOB and a TIME column are refused too", async () => {
    for (const [select, type] of [["[i, i] as price", "List"], ["'\\x01'::blob as price", "Binary"], ["make_time(1, 2, 3) as price", "Time"]] as const) {
      const dir = await hostileStore(type, select);
      await expect(openStore(dir).readHistory({ metricId: "btc_price" })).rejects.toThrow(new RegExp(`column "price" is ${type}`));
    }
  });
});

describe("readParquet checks every column it reads", () => {
  it("DECIMAL columns are read (nearest float64); strings are left out by default and refused when named; int64 beyond 2^53 refused", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "milab-types-")), "mixed.parquet");
    await duck(`copy (select make_timestamptz(2026, 11, 1, 0, i, 0) as time, (100.25 + i)::decimal(10, 2) as price, 'btc' as coin, 9007199254740993::bigint as big from range(2) t(i)) to ${lit(path)} (format parquet)`);
    const p = await readParquet(path, { columns: ["price"] });
    expect(Array.from(p.columns.price!)).toEqual([100.25, 101.25]);
    await expect(readParquet(path)).rejects.toThrow(/readParquet: column "big" holds 9007199254740993 at row 0, beyond ±2\^53/);
    await expect(readParquet(path, { columns: ["coin"] })).rejects.toThrow('column "coin" is Utf8, not numeric');
  });
});
