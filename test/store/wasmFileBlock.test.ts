/**
 * A Parquet file read straight into parquet-wasm's WebAssembly memory
 * (wasmFileBlock.ts) and decoded there without parquet-wasm's glue copying
 * it in (decodeParquetBlock.ts). The bytes are compared with the file's own
 * (node:fs), the decoded values with the formula they were written from; a
 * block that is not freed shows as WebAssembly memory that keeps growing
 * (parquet-wasm's memory is read directly). Each test file has its own
 * parquet-wasm instance.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/InvalidArgumentError.js";
import { readArrowTable, type ArrowChunk } from "../../src/store/arrowCData.js";
import { loadReadCodecs } from "../../src/store/codecs.js";
import { decodeParquetBlock } from "../../src/store/decodeParquetBlock.js";
import { readParquet } from "../../src/store/readParquet.js";
import { bytesIntoWasm, fileIntoWasm, freeWasmFileBlock, wasmFileBytes } from "../../src/store/wasmFileBlock.js";
import { writeParquet } from "../../src/store/writeParquet.js";
import { mulberry32 } from "../support/mulberry32.js";

const MiB = 2 ** 20;
const root = mkdtempSync(join(tmpdir(), "milab-wasmblock-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const T0 = Date.UTC(2026, 0, 1);
/** The big file's rows: time T0 + i minutes, a = i / 8 - 1000 (NaN where i % 97 = 5), b = 3 (constant). */
const ROWS = 300_000;
const big = join(root, "big.parquet");
const garbage = join(root, "garbage.parquet");
beforeAll(async () => {
  const time = Float64Array.from({ length: ROWS }, (_, i) => T0 + i * 60_000);
  const a = Float64Array.from({ length: ROWS }, (_, i) => (i % 97 === 5 ? Number.NaN : i / 8 - 1000));
  await writeParquet(big, { time, columns: { a, b: new Float64Array(ROWS).fill(3) } }, { compression: "none" });
  const rand = mulberry32(7);
  writeFileSync(garbage, Uint8Array.from({ length: 6 * MiB }, () => Math.floor(rand() * 256)));
});

describe("fileIntoWasm", () => {
  it("holds the file's exact bytes, for sizes 0, 1, 65,537 and 6 MiB", async () => {
    const codecs = await loadReadCodecs();
    const rand = mulberry32(11);
    for (const size of [0, 1, 65_537]) {
      const path = join(root, `bytes-${size}.bin`);
      writeFileSync(path, Uint8Array.from({ length: size }, () => Math.floor(rand() * 256)));
      const block = fileIntoWasm(codecs, path);
      expect(block.length).toBe(size);
      expect(Buffer.compare(Buffer.from(wasmFileBytes(codecs, block)), readFileSync(path))).toBe(0);
      freeWasmFileBlock(codecs, block);
    }
    const block = fileIntoWasm(codecs, garbage);
    expect(block.length).toBe(6 * MiB);
    expect(Buffer.compare(Buffer.from(wasmFileBytes(codecs, block)), readFileSync(garbage))).toBe(0);
    freeWasmFileBlock(codecs, block);
  });

  it("throws the file system's error for a missing file and a directory", async () => {
    const codecs = await loadReadCodecs();
    expect(() => fileIntoWasm(codecs, join(root, "missing.parquet"))).toThrow(/ENOENT/);
    const dir = join(root, "a-directory");
    mkdirSync(dir);
    expect(() => fileIntoWasm(codecs, dir)).toThrow(/EISDIR/);
  });

  it("a file shorter than fstat says (a sysfs file: 4,096 bytes by fstat, a few read) gives the bytes read in a block cut to them", async () => {
    const codecs = await loadReadCodecs();
    const path = "/sys/devices/system/cpu/online"; // every Linux has it ("0-1\n" on two cores)
    const mem = (): number => codecs.wasm.memory.buffer.byteLength;
    const once = (): void => {
      const block = fileIntoWasm(codecs, path);
      expect(block.length).toBe(readFileSync(path).length);
      expect(block.length).toBeLessThan(4096);
      expect(Buffer.compare(Buffer.from(wasmFileBytes(codecs, block)), readFileSync(path))).toBe(0);
      // a block allocated right after it does not overlap it (the cut block is a real allocation of its length)
      const next = bytesIntoWasm(codecs, new Uint8Array(64).fill(0xab));
      expect(next.at >= block.at + block.length || next.at + next.length <= block.at).toBe(true);
      expect(Buffer.compare(Buffer.from(wasmFileBytes(codecs, block)), readFileSync(path))).toBe(0);
      freeWasmFileBlock(codecs, next);
      freeWasmFileBlock(codecs, block);
    };
    once();
    const after = mem();
    for (let r = 0; r < 50; r++) once();
    expect(mem()).toBe(after);
  });

  it("a block freed is reused: 20 rounds of a 6 MiB file grow WebAssembly memory no further than the first", async () => {
    const codecs = await loadReadCodecs();
    const mem = (): number => codecs.wasm.memory.buffer.byteLength;
    freeWasmFileBlock(codecs, fileIntoWasm(codecs, garbage));
    const after = mem();
    for (let r = 0; r < 20; r++) freeWasmFileBlock(codecs, fileIntoWasm(codecs, garbage));
    expect(mem()).toBe(after);
  });
});

describe("decodeParquetBlock", () => {
  it("decodes a file read into WebAssembly memory to the values written (NaN as null, a constant column)", async () => {
    const codecs = await loadReadCodecs();
    const ffi = decodeParquetBlock(codecs, fileIntoWasm(codecs, big), { batchSize: 2 ** 30 }).intoFFI();
    try {
      const table = readArrowTable(codecs.wasm.memory.buffer, ffi.arrayAddrs(), ffi.schemaAddr());
      expect(table.numRows).toBe(ROWS);
      const [a] = (table.getChild("a") as { data: readonly ArrowChunk[] }).data;
      const [b] = (table.getChild("b") as { data: readonly ArrowChunk[] }).data;
      const present = (chunk: ArrowChunk, i: number): boolean => chunk.nullBitmap === undefined || ((chunk.nullBitmap[(chunk.offset + i) >> 3] as number) & (1 << ((chunk.offset + i) & 7))) !== 0;
      let bad = 0;
      for (let i = 0; i < ROWS; i++) {
        const want = i % 97 === 5 ? Number.NaN : i / 8 - 1000;
        const got = present(a as ArrowChunk, i) ? ((a as ArrowChunk).values as Float64Array)[(a as ArrowChunk).offset + i] : Number.NaN;
        if (!Object.is(got, want)) bad++;
        if (((b as ArrowChunk).values as Float64Array)[(b as ArrowChunk).offset + i] !== 3) bad++;
      }
      expect(bad).toBe(0);
    } finally {
      ffi.free();
    }
  });

  it("throws parquet-wasm's error for bytes that are no Parquet file, and frees the block (20 rounds grow nothing)", async () => {
    const codecs = await loadReadCodecs();
    const mem = (): number => codecs.wasm.memory.buffer.byteLength;
    const once = (): void => expect(() => decodeParquetBlock(codecs, fileIntoWasm(codecs, garbage), { batchSize: 2 ** 30 })).toThrow(/parquet|magic|footer|file/i);
    once();
    const after = mem();
    for (let r = 0; r < 20; r++) once();
    expect(mem()).toBe(after);
  });

  it("bytesIntoWasm copies bytes in JavaScript memory into a block, decoded like the file's", async () => {
    const codecs = await loadReadCodecs();
    const bytes = readFileSync(big);
    const block = bytesIntoWasm(codecs, bytes);
    expect(Buffer.compare(Buffer.from(wasmFileBytes(codecs, block)), bytes)).toBe(0);
    const ffi = decodeParquetBlock(codecs, block, { batchSize: 2 ** 30 }).intoFFI();
    const table = readArrowTable(codecs.wasm.memory.buffer, ffi.arrayAddrs(), ffi.schemaAddr());
    expect(table.numRows).toBe(ROWS);
    const [b] = (table.getChild("b") as { data: readonly ArrowChunk[] }).data;
    const values = ((b as ArrowChunk).values as Float64Array).subarray((b as ArrowChunk).offset, (b as ArrowChunk).offset + ROWS);
    expect(values.every((x) => x === 3)).toBe(true);
    ffi.free();
  });
});

describe("parquet-wasm 0.8.0's readParquet", () => {
  it("decodes every column whatever `columns` asks (no projection: why DecodeOptions has none and readParquet plans from the decoded schema)", async () => {
    const codecs = await loadReadCodecs();
    const ffi = codecs.pq.readParquet(readFileSync(big), { columns: ["b"], batchSize: 2 ** 30 }).intoFFI();
    const table = readArrowTable(codecs.wasm.memory.buffer, ffi.arrayAddrs(), ffi.schemaAddr());
    expect(table.schema.fields.map((f) => f.name)).toEqual(["time", "a", "b"]);
    expect((table.getChild("a") as { data: readonly ArrowChunk[] }).data[0]?.length).toBe(ROWS);
    ffi.free();
  });
});

describe("readParquet frees the file's block on every path", () => {
  it("20 reads of a good file, of garbage and of a missing column each leave WebAssembly memory as the first left it", async () => {
    const codecs = await loadReadCodecs();
    const mem = (): number => codecs.wasm.memory.buffer.byteLength;
    const round = async (): Promise<void> => {
      const p = await readParquet(big);
      expect(p.time.length).toBe(ROWS);
      await expect(readParquet(garbage)).rejects.toThrow(InvalidArgumentError);
      await expect(readParquet(big, { columns: ["nope"] })).rejects.toThrow(/no column "nope"/);
      await expect(readParquet(big, { start: "not a time" })).rejects.toThrow(InvalidArgumentError);
    };
    await round();
    const after = mem();
    for (let r = 0; r < 20; r++) await round();
    expect(mem()).toBe(after);
  });
});
