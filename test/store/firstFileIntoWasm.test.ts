/**
 * The file of the call that loads parquet-wasm, read into its WebAssembly
 * memory as part of the load while the thread pool faults in the memory the
 * decode will write (firstFileIntoWasm.ts, readCodecs.ts). This file's module
 * instance has not loaded parquet-wasm before its first test (the files are
 * written by DuckDB), so its first readParquet calls take that path. Values
 * are checked against the formula DuckDB wrote them with, computed here; the
 * block's bytes against node:fs's read of the file; a scratch block left
 * allocated shows as WebAssembly memory that grows at every round.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readArrowTable, type ArrowChunk } from "../../src/store/arrowCData.js";
import { decodeParquetBlock } from "../../src/store/decodeParquetBlock.js";
import { firstFileIntoWasm } from "../../src/store/firstFileIntoWasm.js";
import { loadReadCodecs, takeFirstRead } from "../../src/store/readCodecs.js";
import { readParquet } from "../../src/store/readParquet.js";
import { fileIntoWasm, freeWasmFileBlock, wasmFileBytes } from "../../src/store/wasmFileBlock.js";
import { duckdbDefaultParquet } from "../support/foreignParquet.js";

const dir = mkdtempSync(join(tmpdir(), "milab-firstfile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const T0 = Date.UTC(2026, 10, 1);

/** n one-minute rows: a = i * 0.25 - 3 (null where i % 13 = 4), h = a hash of i as a DOUBLE (so SNAPPY cannot shrink the file much). */
const write = (path: string, n: number): Promise<void> =>
  duckdbDefaultParquet(`select make_timestamp(${T0 * 1000} + i * 60000000) as time, case when i % 13 = 4 then null else i * 0.25 - 3 end as a, ((i * 2654435761) % 4294967291)::double / 7 as h from range(${n}) r(i)`, path);

const hashOf = (i: number): number => Number((BigInt(i) * 2654435761n) % 4294967291n) / 7;

function expectFile(p: { time: Float64Array; columns: Readonly<Record<string, Float64Array>> }, n: number): void {
  expect(p.time.length).toBe(n);
  expect(Object.keys(p.columns)).toEqual(["a", "h"]);
  const a = p.columns["a"] as Float64Array;
  const h = p.columns["h"] as Float64Array;
  for (let i = 0; i < n; i++) {
    if (p.time[i] !== T0 + i * 60_000) throw new Error(`time at row ${i}: ${p.time[i]}`);
    const want = i % 13 === 4 ? Number.NaN : i * 0.25 - 3;
    if (!Object.is(a[i], want)) throw new Error(`a at row ${i}: ${a[i]}, want ${want}`);
    if (h[i] !== hashOf(i)) throw new Error(`h at row ${i}: ${h[i]}, want ${hashOf(i)}`);
  }
}

describe("firstFileIntoWasm (the file of the call that loads parquet-wasm)", () => {
  const big = join(dir, "big.parquet"); // ~4 MB: a first decode must grow parquet-wasm's memory for it
  const bigger = join(dir, "bigger.parquet"); // ~12 MB: more than the memory big left
  const small = join(dir, "small.parquet");
  beforeAll(async () => {
    await write(big, 200_000);
    await write(bigger, 600_000);
    await write(small, 30);
  });

  it("two first calls at once: the loading call decodes the block read during the load, the other reads its own file", async () => {
    const [b, s] = await Promise.all([readParquet(big), readParquet(small)]);
    expectFile(b, 200_000);
    expectFile(s, 30);
    expect(takeFirstRead(big)).toBeUndefined(); // taken by its reader, once
  });

  it("reads a file into a block (its exact bytes) when the memory must grow, and frees its scratch", async () => {
    const codecs = await loadReadCodecs();
    const before = codecs.wasm.memory.buffer.byteLength;
    const block = await firstFileIntoWasm(codecs, bigger);
    expect(block).toBeDefined();
    if (block === undefined) return;
    const grown = codecs.wasm.memory.buffer.byteLength;
    expect(grown).toBeGreaterThan(before);
    expect(Buffer.compare(Buffer.from(wasmFileBytes(codecs, block)), readFileSync(bigger))).toBe(0);
    // Decoded as readParquet decodes it: the values DuckDB wrote.
    const ffi = decodeParquetBlock(codecs, block, { batchSize: 1 << 30 }).intoFFI();
    try {
      const table = readArrowTable(codecs.wasm.memory.buffer, ffi.arrayAddrs(), ffi.schemaAddr());
      expect(table.numRows).toBe(600_000);
      const h = (table.getChild("h") as { data: readonly ArrowChunk[] }).data;
      let row = 0;
      for (const d of h) for (let k = 0; k < d.length; k++, row++) if ((d.values as Float64Array)[d.offset + k] !== hashOf(row)) throw new Error(`h at row ${row}`);
      expect(row).toBe(600_000);
    } finally {
      ffi.free();
    }
    // The scratch (twice the file, after the file's block) was freed: a block of three times the file fits in the
    // memory grown for the decode (four times the file), and the file's blocks, read and freed 20 times, too.
    const size = readFileSync(bigger).length;
    freeWasmFileBlock(codecs, { at: codecs.wasm.__wbindgen_malloc(3 * size, 1) >>> 0, length: 3 * size });
    for (let r = 0; r < 20; r++) freeWasmFileBlock(codecs, fileIntoWasm(codecs, bigger));
    expect(codecs.wasm.memory.buffer.byteLength).toBe(grown);
  });

  it("returns undefined, touching nothing, for a file the memory already fits, a missing file and a directory", async () => {
    const codecs = await loadReadCodecs();
    const before = codecs.wasm.memory.buffer.byteLength;
    expect(await firstFileIntoWasm(codecs, big)).toBeUndefined();
    expect(await firstFileIntoWasm(codecs, join(dir, "missing.parquet"))).toBeUndefined();
    expect(await firstFileIntoWasm(codecs, dir)).toBeUndefined();
    expect(codecs.wasm.memory.buffer.byteLength).toBe(before);
    // and readParquet reads on as before, its first-read block long taken
    expectFile(await readParquet(big), 200_000);
  });
});
