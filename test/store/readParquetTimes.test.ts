/**
 * readParquet's checks of the time column (readParquet.ts, scanTimes): a
 * missing time is an error naming its row, and is reported before unsorted
 * times are; unsorted times need `sort`. Files written by DuckDB; expected
 * rows and values worked out by hand from the SQL below.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/InvalidArgumentError.js";
import { readParquet } from "../../src/store/readParquet.js";
import { duckdbDefaultParquet } from "../support/foreignParquet.js";

const dir = mkdtempSync(join(tmpdir(), "milab-times-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const T0 = Date.UTC(2026, 10, 1);
const minute = (k: number): string => `make_timestamp(${(T0 + k * 60_000) * 1000})`;
/** Rows (time minute k or null, a = the row's index): one file per list of minutes. */
const write = (path: string, minutes: readonly (number | null)[]): Promise<void> =>
  duckdbDefaultParquet(`select * from (values ${minutes.map((k, i) => `(${k === null ? "null::timestamp" : minute(k)}, ${i}.0)`).join(", ")}) v(time, a)`, path);

describe("readParquet's time column checks", () => {
  const missing = join(dir, "missing.parquet");
  const unsortedThenMissing = join(dir, "unsorted-then-missing.parquet");
  const unsorted = join(dir, "unsorted.parquet");
  const sorted = join(dir, "sorted.parquet");
  beforeAll(async () => {
    await write(missing, [0, 1, null, 3]);
    await write(unsortedThenMissing, [5, 1, 2, null]);
    await write(unsorted, [2, 0, 1, 1]);
    await write(sorted, [0, 1, 2, 3]);
  });

  it("a missing time is an InvalidArgumentError naming the column and its row", async () => {
    await expect(readParquet(missing)).rejects.toThrow(InvalidArgumentError);
    await expect(readParquet(missing)).rejects.toThrow('readParquet: time column "time" has a missing or non-finite time at row 2');
  });

  it("a missing time is reported, not the unsorted times before it, even with sort", async () => {
    await expect(readParquet(unsortedThenMissing)).rejects.toThrow("missing or non-finite time at row 3");
    await expect(readParquet(unsortedThenMissing, { sort: true })).rejects.toThrow("missing or non-finite time at row 3");
  });

  it("unsorted times need sort, which keeps the last row of a repeated time", async () => {
    await expect(readParquet(unsorted)).rejects.toThrow("not strictly ascending; pass { sort: true }");
    const p = await readParquet(unsorted, { sort: true });
    expect(Array.from(p.time)).toEqual([T0, T0 + 60_000, T0 + 120_000]);
    expect(Array.from(p.columns["a"] as Float64Array)).toEqual([1, 3, 0]);
  });

  it("sorted times are read as they are", async () => {
    const p = await readParquet(sorted);
    expect(Array.from(p.time)).toEqual([0, 1, 2, 3].map((k) => T0 + k * 60_000));
    expect(Array.from(p.columns["a"] as Float64Array)).toEqual([0, 1, 2, 3]);
  });
});
