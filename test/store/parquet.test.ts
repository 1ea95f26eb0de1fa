import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createPanel, toDataFrame } from "../../src/data/index.js";
import { InvalidArgumentError, InvalidTimeError } from "../../src/errors/index.js";
import { readParquet, writeParquet } from "../../src/store/index.js";
import { duck, lit } from "./helpers/duckdb.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "milab-parquet-"));
});

// 2026-11-01T00:00:00Z = 1793491200000 ms (Date.UTC(2026, 10, 1)).
const T0 = Date.UTC(2026, 10, 1);

describe("readParquet reads files DuckDB wrote", () => {
  it("every time unit becomes epoch ms; null becomes NaN; numeric types become float64; strings are left out", async () => {
    const path = join(dir, "duck-units.parquet");
    // Three rows a minute apart starting 2026-11-01T00:00:00Z; i = 0, 1, 2.
    await duck(`copy (
      select
        make_timestamptz(2026, 11, 1, 0, i, 0)                    as time,
        make_timestamp(2026, 11, 1, 0, i, 0)::timestamp_ns       as t_ns,
        make_timestamp(2026, 11, 1, 0, i, 0)::timestamp_ms       as t_ms,
        make_timestamp(2026, 11, 1, 0, i, 0)::timestamp_s        as t_s,
        make_timestamp(2026, 11, 1, 0, i, 1.5)                   as t_us_frac,
        (date '2026-11-01' + i::int)                             as d,
        (1793491200000 + i * 60000)::bigint                      as epoch_ms,
        case when i = 1 then null else i * 1.5 end::double       as x,
        (i * 0.25)::float                                         as f,
        (i - 1)::integer                                          as k,
        (i::bigint - 1) * 9007199254740991                        as big,
        (i = 2)                                                   as flag,
        'btc'                                                     as coin
      from range(3) t(i)) to ${lit(path)} (format parquet)`);
    const p = await readParquet(path);
    const minutes = [T0, T0 + 60_000, T0 + 120_000];
    expect(Array.from(p.time)).toEqual(minutes);
    expect(Object.keys(p.columns)).toEqual(["t_ns", "t_ms", "t_s", "t_us_frac", "d", "epoch_ms", "x", "f", "k", "big", "flag"]);
    for (const c of ["t_ns", "t_ms", "t_s", "epoch_ms"]) expect(Array.from(p.columns[c]!)).toEqual(minutes);
    expect(Array.from(p.columns.t_us_frac!)).toEqual(minutes.map((m) => m + 1500)); // 1.5 s after each minute
    expect(Array.from(p.columns.d!)).toEqual([T0, T0 + 86_400_000, T0 + 2 * 86_400_000]); // DATE = days
    expect(Array.from(p.columns.x!)).toEqual([0, NaN, 3]);
    expect(Array.from(p.columns.f!)).toEqual([0, 0.25, 0.5]);
    expect(Array.from(p.columns.k!)).toEqual([-1, 0, 1]);
    expect(Array.from(p.columns.big!)).toEqual([-9007199254740991, 0, 9007199254740991]); // ±(2^53 - 1), exact
    expect(Array.from(p.columns.flag!)).toEqual([0, 0, 1]);
  });

  it("nanosecond times keep sub-millisecond parts beyond 2^53 ns", async () => {
    const path = join(dir, "duck-ns.parquet");
    // 2026-11-01T00:00:00.000000123Z: 1793491200000000123 ns = 1793491200000 ms + 0.000123 ms
    await duck(`copy (select make_timestamp_ns(1793491200000000123) as time, 1.0 as v) to ${lit(path)} (format parquet)`);
    const p = await readParquet(path);
    expect(p.time[0]).toBeCloseTo(T0 + 0.000123, 6);
    expect(Math.floor(p.time[0]!)).toBe(T0);
  });

  it("picks the first TIMESTAMP column when none is called time, or the one named by timeColumn", async () => {
    const path = join(dir, "duck-ts.parquet");
    await duck(`copy (select i::double as v, make_timestamp(2026, 11, 1, 0, i, 0) as ts, (1793491200000 + i * 1000)::bigint as ms from range(2) t(i)) to ${lit(path)} (format parquet)`);
    const byType = await readParquet(path);
    expect(Array.from(byType.time)).toEqual([T0, T0 + 60_000]);
    expect(Object.keys(byType.columns)).toEqual(["v", "ms"]);
    const byName = await readParquet(path, { timeColumn: "ms", columns: ["v"] });
    expect(Array.from(byName.time)).toEqual([T0, T0 + 1000]);
    expect(Object.keys(byName.columns)).toEqual(["v"]);
  });

  it("start <= time < end, as epoch ms or ISO strings (no offset = UTC); only named columns", async () => {
    const path = join(dir, "duck-range.parquet");
    // 10 rows, one a minute from T0; v = i.
    await duck(`copy (select make_timestamptz(2026, 11, 1, 0, i, 0) as time, i::double as v, -i::double as w from range(10) t(i)) to ${lit(path)} (format parquet)`);
    const a = await readParquet(path, { start: T0 + 2 * 60_000, end: T0 + 5 * 60_000, columns: ["w"] });
    expect(Array.from(a.time)).toEqual([T0 + 120_000, T0 + 180_000, T0 + 240_000]); // 00:05 excluded
    expect(Object.keys(a.columns)).toEqual(["w"]);
    expect(Array.from(a.columns.w!)).toEqual([-2, -3, -4]);
    const b = await readParquet(path, { start: "2026-11-01T00:05:00", end: "2026-11-01T00:05:00.001Z" });
    expect(Array.from(b.columns.v!)).toEqual([5]);
    const c = await readParquet(path, { start: "2026-11-01T00:05:00+01:00" }); // = 2026-10-31T23:05Z, before everything
    expect(c.time.length).toBe(10);
    const empty = await readParquet(path, { start: T0 + 600_000 });
    expect(empty.time.length).toBe(0);
    expect(Array.from(empty.columns.v!)).toEqual([]);
    // consecutive half-open ranges partition the rows
    const parts = await Promise.all([0, 3, 7].map((s, i) => readParquet(path, { start: T0 + s * 60_000, end: T0 + [3, 7, 10][i]! * 60_000 })));
    expect(parts.flatMap((q) => Array.from(q.columns.v!))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("unsorted times are rejected unless sort: true (then the last row of a repeated time wins)", async () => {
    const path = join(dir, "duck-unsorted.parquet");
    await duck(`copy (select * from (values (make_timestamptz(2026,11,1,0,2,0), 1.0::double), (make_timestamptz(2026,11,1,0,0,0), 2.0::double), (make_timestamptz(2026,11,1,0,2,0), 3.0::double)) v(time, x)) to ${lit(path)} (format parquet)`);
    await expect(readParquet(path)).rejects.toThrow("not strictly ascending; pass { sort: true }");
    const p = await readParquet(path, { sort: true, end: T0 + 120_001 });
    expect(Array.from(p.time)).toEqual([T0, T0 + 120_000]);
    expect(Array.from(p.columns.x!)).toEqual([2, 3]);
  });
});

describe("writeParquet writes files DuckDB reads", () => {
  it("time as TIMESTAMP (ms, UTC) named time, numbers as DOUBLE, NaN as null; input untouched", async () => {
    const path = join(dir, "ours.parquet");
    const x = [1.5, NaN, -0, 1e300, Number.MIN_VALUE];
    const panel = createPanel([T0, T0 + 60_000, T0 + 120_000, T0 + 180_000, T0 + 240_000], { x, y: [NaN, NaN, NaN, NaN, NaN] });
    await writeParquet(path, panel);
    expect(Array.from(panel.columns.x!)).toEqual(x);
    const schema = await duck(`select name, type, logical_type from parquet_schema(${lit(path)}) where name <> 'arrow_schema'`);
    expect(schema.map((r) => [r.name, r.type])).toEqual([["time", "INT64"], ["x", "DOUBLE"], ["y", "DOUBLE"]]);
    expect(String(schema[0]!.logical_type)).toContain("isAdjustedToUTC=1");
    expect(String(schema[0]!.logical_type)).toContain("MILLIS=MilliSeconds()");
    const rows = await duck(`select epoch_ms(time) as ms, typeof(time) as tt, x, y from ${lit(path)}`);
    expect(rows.map((r) => Number(r.ms))).toEqual([T0, T0 + 60_000, T0 + 120_000, T0 + 180_000, T0 + 240_000]);
    expect(rows[0]!.tt).toBe("TIMESTAMP WITH TIME ZONE");
    expect(rows.map((r) => r.x)).toEqual([1.5, null, -0, 1e300, Number.MIN_VALUE]);
    expect(rows.map((r) => r.y)).toEqual([null, null, null, null, null]);
    expect(readdirSync(dir).filter((f) => f.startsWith(".tmp-"))).toEqual([]); // atomic write left no temporary file
  });

  it("a DataFrame (time as ISO strings, no offset = UTC) with string columns, and a result with toDataFrame()", async () => {
    const path = join(dir, "frame.parquet");
    const df = toDataFrame({ time: ["2026-11-01T00:00:00", "2026-11-01T00:00:01Z"], coin: ["BTC", "ETH"], pnl: [0.5, NaN] });
    await writeParquet(path, df);
    const rows = await duck(`select epoch_ms(time) as ms, coin, pnl from ${lit(path)}`);
    expect(rows).toEqual([{ ms: BigInt(T0), coin: "BTC", pnl: 0.5 }, { ms: BigInt(T0 + 1000), coin: "ETH", pnl: null }]);
    const result = { toDataFrame: () => toDataFrame({ metric: ["sharpe", "sortino"], value: [1.25, 2] }) };
    const path2 = join(dir, "result.parquet");
    await writeParquet(path2, result);
    expect(await duck(`select * from ${lit(path2)}`)).toEqual([{ metric: "sharpe", value: 1.25 }, { metric: "sortino", value: 2 }]);
  });

  it("empty and one-row panels", async () => {
    const p0 = join(dir, "empty.parquet");
    await writeParquet(p0, createPanel([], { x: [] }));
    expect(await duck(`select count(*)::int as n from ${lit(p0)}`)).toEqual([{ n: 0 }]);
    expect((await readParquet(p0)).time.length).toBe(0);
    const p1 = join(dir, "one.parquet");
    await writeParquet(p1, createPanel([T0], { x: [NaN] }));
    expect(await duck(`select epoch_ms(time)::double as t, x from ${lit(p1)}`)).toEqual([{ t: T0, x: null }]);
  });

  it("what we write, DuckDB rewrites, and we read back the same (times, NaN, a constant column)", async () => {
    const ours = join(dir, "rt-ours.parquet");
    const theirs = join(dir, "rt-duck.parquet");
    const n = 3000;
    const time = Float64Array.from({ length: n }, (_, i) => T0 + i * 60_000);
    const v = Float64Array.from({ length: n }, (_, i) => (i % 7 === 0 ? NaN : Math.sin(i) * 1e4));
    const c = new Float64Array(n).fill(42);
    await writeParquet(ours, { time, columns: { v, c } });
    await duck(`copy (select * from ${lit(ours)}) to ${lit(theirs)} (format parquet)`);
    const back = await readParquet(theirs);
    expect(back.time).toEqual(time);
    expect(back.columns.v).toEqual(v);
    expect(back.columns.c).toEqual(c);
  });
});

describe("bad arguments", () => {
  it("name the function, the input and the fix", async () => {
    const path = join(dir, "args.parquet");
    await writeParquet(path, createPanel([T0], { x: [1] }));
    await expect(readParquet(join(dir, "missing.parquet"))).rejects.toThrow(/readParquet: cannot read ".*missing.parquet" \(ENOENT\)/);
    await expect(readParquet(path, { columns: ["nope"] })).rejects.toThrow('readParquet: no column "nope" among ["time","x"]');
    await expect(readParquet(path, { start: "yesterday" })).rejects.toThrow(InvalidArgumentError);
    await expect(readParquet(path, { timeColumn: "x2" })).rejects.toThrow('pass { timeColumn: "<name>" }');
    const junk = join(dir, "junk.parquet");
    writeFileSync(junk, "not parquet");
    await expect(readParquet(junk)).rejects.toThrow("is not a readable Parquet file");
    await expect(writeParquet(path, 42 as never)).rejects.toThrow("writeParquet: table must be a Panel");
    await expect(writeParquet(path, createPanel([T0], { x: [1] }), { compression: "lz" as never })).rejects.toThrow('compression must be "lz4", "snappy", "zstd" or "none", got "lz"');
    // A time outside Date's range (±8.64e15 ms) is refused: 1e300 wrapped around int64 and was written as 1970-01-01.
    for (const t of [1e300, -1e300, 9.3e18, 8.64e15 + 1]) {
      const err = await writeParquet(join(dir, "far.parquet"), { time: new Float64Array([T0, t]), columns: { x: new Float64Array([1, 2]) } }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidTimeError);
      expect((err as Error).message).toMatch(/^writeParquet: time at row 1 must be a time from -?[\d-]+T.* to .*got /);
    }
    await writeParquet(join(dir, "far.parquet"), createPanel([-8.64e15, 8.64e15], { x: [1, 2] })); // the ends of the range are kept
    expect(Array.from((await readParquet(join(dir, "far.parquet"))).time)).toEqual([-8.64e15, 8.64e15]);
    const strings = join(dir, "strings.parquet");
    await writeParquet(strings, toDataFrame({ time: [T0], coin: ["BTC"] }));
    await expect(readParquet(strings, { columns: ["coin"] })).rejects.toThrow('column "coin" is Utf8, not numeric');
  });
});
