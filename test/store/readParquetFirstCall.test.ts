/**
 * readParquet's first call in a process: parquet-wasm is loaded (its
 * WebAssembly compiled off the main thread), then each call reads its file
 * straight into parquet-wasm's WebAssembly memory (wasmFileBlock.ts), which
 * the first call grows and later calls reuse (readParquet.ts).
 * This file's module instance has not loaded parquet-wasm before its first
 * test (the files are written by DuckDB, not by writeParquet), so the first
 * calls below take that path: one that fails, then two at once on files of
 * different sizes, then later calls that reuse the grown memory. Values are
 * checked against the formula DuckDB wrote them with, computed here.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/InvalidArgumentError.js";
import { readParquet } from "../../src/store/readParquet.js";
import { duckdbDefaultParquet } from "../support/foreignParquet.js";

const dir = mkdtempSync(join(tmpdir(), "milab-firstcall-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const T0 = Date.UTC(2026, 10, 1);

/** The file DuckDB writes: n one-minute rows, a = i * 0.25 - 3 (null where i % 13 = 4), b = 7 (a constant column). */
const write = (path: string, n: number): Promise<void> =>
  duckdbDefaultParquet(`select make_timestamp(${T0 * 1000} + i * 60000000) as time, case when i % 13 = 4 then null else i * 0.25 - 3 end as a, 7.0 as b from range(${n}) r(i)`, path, "row_group_size 1000");

function expectFile(p: { time: Float64Array; columns: Readonly<Record<string, Float64Array>> }, n: number): void {
  expect(p.time.length).toBe(n);
  expect(Object.keys(p.columns)).toEqual(["a", "b"]);
  const a = p.columns["a"] as Float64Array;
  const b = p.columns["b"] as Float64Array;
  for (let i = 0; i < n; i++) {
    if (p.time[i] !== T0 + i * 60_000) throw new Error(`time at row ${i}: ${p.time[i]}`);
    const want = i % 13 === 4 ? Number.NaN : i * 0.25 - 3;
    if (!Object.is(a[i], want)) throw new Error(`a at row ${i}: ${a[i]}, want ${want}`);
    if (b[i] !== 7) throw new Error(`b at row ${i}: ${b[i]}`);
  }
}

describe("readParquet's first call in a process", () => {
  const big = join(dir, "big.parquet");
  const small = join(dir, "small.parquet");
  const one = join(dir, "one.parquet");
  beforeAll(async () => {
    await write(big, 20_000);
    await write(small, 30);
    await write(one, 1);
  });

  it("a first call on a missing file throws InvalidArgumentError naming the path, and the next call reads", async () => {
    const missing = join(dir, "missing.parquet");
    await expect(readParquet(missing)).rejects.toThrow(InvalidArgumentError);
    await expect(readParquet(missing)).rejects.toThrow(/readParquet: cannot read .*missing\.parquet.*ENOENT/);
  });

  it("two first calls at once, on files of different sizes, each read their own file", async () => {
    const [b, s, o] = await Promise.all([readParquet(big), readParquet(small), readParquet(one)]);
    expectFile(b, 20_000);
    expectFile(s, 30);
    expectFile(o, 1);
  });

  it("later calls (the first call's memory reused) read each file whole, in any order, and leave earlier results alone", async () => {
    const b1 = await readParquet(big);
    const s1 = await readParquet(small);
    const b2 = await readParquet(big);
    const [s2, b3] = await Promise.all([readParquet(small), readParquet(big, { columns: ["a"], start: T0 + 60_000 * 19_990 })]);
    expectFile(b1, 20_000);
    expectFile(s1, 30);
    expectFile(b2, 20_000);
    expectFile(s2, 30);
    expect(b3.time.length).toBe(10);
    expect(Object.keys(b3.columns)).toEqual(["a"]);
    expect(Array.from(b3.columns["a"] as Float64Array)).toEqual([19_990, 19_991, 19_992, 19_993, 19_994, 19_995, 19_996, 19_997, 19_998, 19_999].map((i) => (i % 13 === 4 ? Number.NaN : i * 0.25 - 3)));
  });
});
