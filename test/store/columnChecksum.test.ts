/**
 * The column checksums in the footer of the library's Parquet files: a
 * CRC-32 per time/number column (zlib's; Python's zlib.crc32 is the
 * independent reference), and the Fletcher sums of files written before it,
 * still verified on read.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { readParquet, writeParquet } from "../../src/store/index.js";
import { duck, lit } from "./helpers/duckdb.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "milab-checksum-"));
});

// 2026-11-01T00:00:00Z = 1793491200000 ms.
const T0 = Date.UTC(2026, 10, 1);

describe("column checksums", () => {
  it("new files: LZ4_RAW columns and a CRC-32 per column over its type tag, length and 8-byte values, null as NaN", async () => {
    const path = join(dir, "crc.parquet");
    await writeParquet(path, { time: new Float64Array([T0, T0 + 60_000, T0 + 120_000]), columns: { x: new Float64Array([1, NaN, 2.5]) } });
    const kv = await duck(`select decode(key) as key, decode(value) as value from parquet_kv_metadata(${lit(path)}) where decode(key) like 'market-intel-lab%'`);
    // The type tags: Arrow Timestamp (type id 10, unit 1 = ms, UTC) and Float (type id 3, precision 2 = DOUBLE); the null as the Arrow NaN 0x7ff8000000000000.
    const reference = execFileSync(
      "/usr/bin/python3",
      [
        "-c",
        `import zlib, struct
t = zlib.crc32(struct.pack("<qqq", ${T0}, ${T0 + 60_000}, ${T0 + 120_000}), zlib.crc32(b"10:1:::UTC:/3"))
x = zlib.crc32(struct.pack("<dQd", 1.0, 0x7ff8000000000000, 2.5), zlib.crc32(b"3::2:::/3"))
print('{"time":"%08x","x":"%08x"}' % (t, x))`,
      ],
      { encoding: "utf8" },
    ).trim();
    expect(kv).toEqual([{ key: "market-intel-lab.crc32", value: reference }]);
    const meta = await duck(`select path_in_schema as col, compression from parquet_metadata(${lit(path)}) order by col`);
    expect(meta).toEqual([
      { col: "time", compression: "LZ4_RAW" },
      { col: "x", compression: "LZ4_RAW" },
    ]);
    // Any one byte of a value changed is caught: every byte of x's last value in turn.
    const bytes = readFileSync(path);
    const at = bytes.indexOf(Buffer.from(new Float64Array([2.5]).buffer));
    expect(at).toBeGreaterThan(0);
    for (let k = 0; k < 8; k++) {
      const damaged = Buffer.from(bytes);
      damaged[at + k] = (damaged[at + k] as number) ^ 0x10;
      writeFileSync(join(dir, "crc-damaged.parquet"), damaged);
      await expect(readParquet(join(dir, "crc-damaged.parquet"))).rejects.toThrow(/column "x" does not match the checksum written with the file/);
    }
  });

  it("a file written before the CRC-32 (snappy, Fletcher sums under market-intel-lab.checksums) still reads, and is still verified", async () => {
    // test/store/fixtures/legacy-fletcher.parquet: written by writeParquet at dbc528c from
    // time = T0 + i min, a = 100 + i / 4 (NaN at i = 3 and 50), b = -i / 7, i = 0..99.
    const fixture = join(import.meta.dirname, "fixtures", "legacy-fletcher.parquet");
    const kv = await duck(`select decode(key) as key from parquet_kv_metadata(${lit(fixture)}) where decode(key) like 'market-intel-lab%'`);
    expect(kv).toEqual([{ key: "market-intel-lab.checksums" }]);
    const p = await readParquet(fixture);
    const i = Array.from({ length: 100 }, (_, k) => k);
    expect(Array.from(p.time)).toEqual(i.map((k) => T0 + k * 60_000));
    expect(Array.from(p.columns["a"] as Float64Array)).toEqual(i.map((k) => (k === 3 || k === 50 ? NaN : 100 + k / 4)));
    expect(Array.from(p.columns["b"] as Float64Array)).toEqual(i.map((k) => -k / 7));
    const bytes = readFileSync(fixture);
    // A value of b whose 8 bytes snappy kept whole (a literal).
    const find = (v: number): number => bytes.indexOf(Buffer.from(new Float64Array([v]).buffer));
    const at = find(-(i.find((k) => find(-k / 7) > 0) as number) / 7);
    expect(at).toBeGreaterThan(0);
    bytes[at] = (bytes[at] as number) ^ 0x01;
    writeFileSync(join(dir, "legacy-damaged.parquet"), bytes);
    const err = await readParquet(join(dir, "legacy-damaged.parquet")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect(String(err)).toMatch(/column "b" does not match the checksum written with the file/);
  });
});
