/**
 * Damaged Parquet files (issue 22, defect 8): 120 files written by
 * writeParquet (seeded shapes: 1-3000 one-minute rows, 1-5 DOUBLE columns
 * with missing values), each with 1-3 bytes flipped at seeded random
 * positions (half anywhere, half inside the column data), then read with
 * readParquet. Each read must give a typed error or exactly the values
 * written; none may give changed values without an error. parquet-wasm 0.8.0
 * neither writes nor checks Parquet's page CRCs, so what catches a flip is
 * the column checksums writeParquet stores in the footer. Also a recording
 * partition of the store (its time and fetched_at columns) and a store day
 * file read through store.readHistory.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPanel } from "../../src/data/index.js";
import { MarketIntelError } from "../../src/errors/index.js";
import { openStore, readParquet, writeParquet } from "../../src/store/index.js";
import { mulberry32 } from "../support/mulberry32.js";
import { scaledMs } from "../support/timeScale.js";

const root = mkdtempSync(join(tmpdir(), "milab-rel-damage-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const T0 = Date.UTC(2026, 10, 1);

/** Same times, same column names, every value the same (NaN = NaN). */
function same(a: { time: Float64Array; columns: Record<string, Float64Array> }, b: { time: Float64Array; columns: Record<string, Float64Array> }): boolean {
  if (!Object.is(a.time.length, b.time.length) || a.time.some((t, i) => t !== b.time[i])) return false;
  const names = Object.keys(a.columns);
  if (names.join() !== Object.keys(b.columns).join()) return false;
  return names.every((n) => (a.columns[n] as Float64Array).every((v, i) => Object.is(v, (b.columns[n] as Float64Array)[i])));
}

describe("bytes flipped in Parquet files", () => {
  it("120 damaged files: each reads as written or fails with a typed error, none with changed values", { timeout: scaledMs(120_000) }, async () => {
    const rng = mulberry32(20261125);
    const outcome = { same: 0, typed: 0, changed: 0, untyped: 0 };
    const changed: string[] = [];
    for (let f = 0; f < 120; f++) {
      const rows = 1 + Math.floor(rng() * 3000);
      const cols = 1 + Math.floor(rng() * 5);
      const time = Array.from({ length: rows }, (_, i) => T0 + i * 60_000);
      const columns: Record<string, number[]> = {};
      for (let c = 0; c < cols; c++) columns[`m${c}`] = time.map(() => (rng() < 0.1 ? NaN : Math.round((rng() - 0.5) * 1e6) / 100));
      const panel = createPanel(time, columns);
      const path = join(root, `f${f}.parquet`);
      await writeParquet(path, panel);
      const bytes = readFileSync(path);
      // Half the files anywhere in the file, half inside the first ~90% (the column chunks, not the footer).
      const span = f % 2 === 0 ? bytes.length : Math.floor(bytes.length * 0.9);
      const flips = 1 + Math.floor(rng() * 3);
      for (let k = 0; k < flips; k++) {
        const at = 4 + Math.floor(rng() * (span - 8)); // not the "PAR1" magic at either end
        bytes[at] = (bytes[at] as number) ^ (1 << Math.floor(rng() * 8));
      }
      writeFileSync(path, bytes);
      try {
        const back = await readParquet(path);
        if (same(back, panel)) outcome.same++;
        else {
          outcome.changed++;
          changed.push(`f${f}`);
        }
      } catch (e) {
        if (e instanceof MarketIntelError) outcome.typed++;
        else outcome.untyped++;
      }
    }
    console.log(`reliability: damaged Parquet: 120 files, ${outcome.typed} typed errors, ${outcome.same} read as written, ${outcome.changed} changed values, ${outcome.untyped} untyped errors`);
    expect(changed).toEqual([]);
    expect(outcome.untyped).toBe(0);
  });

  it("a store day file with a flipped value byte is refused by store.readHistory", async () => {
    const dir = join(root, "store");
    const store = openStore(dir);
    const time = Array.from({ length: 1440 }, (_, i) => T0 + i * 60_000);
    const rng = mulberry32(7);
    const value = time.map(() => 100 + rng() * 1000); // random low bytes: snappy stores them as literals
    await store.saveHistory({ metricId: "btc_price", time, value });
    const path = join(dir, "endpoint=history/coin=btc/day=2026-11-01/part-0.parquet");
    const bytes = readFileSync(path);
    // The bytes of a value kept whole as a literal (LZ4_RAW, like snappy, keeps random low bytes as literals, though a
    // value may straddle a back-reference: the first from minute 777 found whole): flip its lowest mantissa bit, so that
    // the value changes by an ulp.
    const find = (v: number): number => bytes.indexOf(Buffer.from(new Float64Array([v]).buffer));
    const minute = value.findIndex((v, i) => i >= 777 && find(v) > 0);
    const at = find(value[minute]!);
    expect(at).toBeGreaterThan(0);
    bytes[at] = (bytes[at] as number) ^ 0x01;
    writeFileSync(path, bytes);
    await expect(store.readHistory({ metricId: "btc_price" })).rejects.toThrow(MarketIntelError);
    store.close();
  });
});
