/**
 * reserveDecodeMemory: parquet-wasm's allocator takes the WebAssembly memory a
 * decode will need in one step and frees it for the decode (the speed of it
 * is measured by test/bench/readParquetProfile.ts, not here). Memory sizes are
 * read from parquet-wasm's own WebAssembly.Memory; each test file has its own
 * parquet-wasm instance.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadReadCodecs } from "../../src/store/codecs.js";
import { readParquet } from "../../src/store/readParquet.js";
import { reserveDecodeMemory } from "../../src/store/reserveDecodeMemory.js";
import { writeParquet } from "../../src/store/writeParquet.js";

const MiB = 2 ** 20;
const root = mkdtempSync(join(tmpdir(), "milab-reserve-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("reserveDecodeMemory", () => {
  it("grows the memory once to 4x the file's size and leaves that block free: the same allocation again grows nothing", async () => {
    const codecs = await loadReadCodecs();
    const mem = (): number => codecs.pq.wasmMemory().buffer.byteLength;
    const before = mem();
    const file = Math.ceil(before / 4) + 8 * MiB; // 4x is beyond the memory as it is
    reserveDecodeMemory(codecs, file);
    const after = mem();
    expect(after).toBeGreaterThanOrEqual(4 * file);
    expect(after).toBeLessThan(before + 4 * file + 4 * MiB); // one block of 4x, not two
    // The block was freed: an allocation of the same size (parquet-wasm copies its argument in) fits without growing.
    expect(() => codecs.pq.readSchema(new Uint8Array(4 * file))).toThrow();
    expect(mem()).toBe(after);
  });

  it("does nothing when the memory already holds 4x the file, for 0, NaN or negative sizes, and beyond 1 GiB", async () => {
    const codecs = await loadReadCodecs();
    const mem = (): number => codecs.pq.wasmMemory().buffer.byteLength;
    reserveDecodeMemory(codecs, 4 * MiB);
    const size = mem();
    for (const bytes of [Math.floor(size / 4), 1, 0, Number.NaN, -5, 2 ** 28 + 1, Number.POSITIVE_INFINITY]) {
      reserveDecodeMemory(codecs, bytes);
      expect(mem()).toBe(size);
    }
  });

  it("a read after a reservation gives the values written (one point, NaN, a constant column)", async () => {
    const path = join(root, "small.parquet");
    const time = Float64Array.of(Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1, 0, 1), Date.UTC(2026, 0, 1, 0, 2));
    await writeParquet(path, { time, columns: { a: Float64Array.of(1.5, Number.NaN, -0), c: Float64Array.of(7, 7, 7) } });
    const codecs = await loadReadCodecs();
    reserveDecodeMemory(codecs, 64 * MiB);
    const p = await readParquet(path);
    expect([...p.time]).toEqual([...time]);
    expect(Object.is(p.columns["a"]?.[2], -0)).toBe(true);
    expect([...(p.columns["a"] as Float64Array)]).toEqual([1.5, Number.NaN, -0]);
    expect([...(p.columns["c"] as Float64Array)]).toEqual([7, 7, 7]);
    const one = join(root, "one.parquet");
    await writeParquet(one, { time: time.subarray(0, 1), columns: { a: Float64Array.of(2) } });
    expect([...(await readParquet(one)).columns["a"] as Float64Array]).toEqual([2]);
  });
});
