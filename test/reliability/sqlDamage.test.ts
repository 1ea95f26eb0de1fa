/**
 * Damaged store files through SQL (issue 31, defect 3): 120 day files, each
 * written by saveHistory (seeded shapes: 1-1440 one-minute rows, 1-5 metrics
 * with missing values), with 1-3 bytes flipped at seeded random positions
 * (half anywhere, half inside the first 90%: the column data), then read with
 * store.queryColumns. One store and one DuckDB for all 120 (a long-lived
 * store whose file is damaged between queries): each file is its own day,
 * removed after its query so the next query reads only the next file. Each query must give a typed error or exactly
 * the values written; none may give changed values without an error. Before
 * the fix DuckDB read the files as they were, unchecked: 56 of 120 gave
 * changed numbers. Reference values are the inputs themselves.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DamagedFileError, MarketIntelError } from "../../src/errors/index.js";
import { openStore } from "../../src/store/index.js";
import { mulberry32 } from "../support/mulberry32.js";
import { scaledMs } from "../support/timeScale.js";

const root = mkdtempSync(join(tmpdir(), "milab-rel-sqldamage-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const T0 = Date.UTC(2026, 10, 1);

describe("bytes flipped in store files, read through SQL", () => {
  it("120 damaged day files: each query gives the values written or a typed error, none changed numbers", { timeout: scaledMs(300_000) }, async () => {
    const rng = mulberry32(20261127);
    const outcome = { same: 0, typed: 0, damaged: 0, changed: 0, untyped: 0 };
    const changed: string[] = [];
    const dir = join(root, "store");
    const store = openStore(dir);
    for (let f = 0; f < 120; f++) {
      const day0 = T0 + f * 86_400_000;
      const rows = 1 + Math.floor(rng() * 1440);
      const cols = 1 + Math.floor(rng() * 5);
      const time = Array.from({ length: rows }, (_, i) => day0 + i * 60_000);
      const written: number[][] = [];
      for (let c = 0; c < cols; c++) {
        const value = time.map(() => (rng() < 0.1 ? NaN : Math.round((rng() - 0.5) * 1e6) / 100));
        written.push(value);
        await store.saveHistory({ metricId: `btc_m${c}`, time, value });
      }
      const dayDir = join(dir, `endpoint=history/coin=btc/day=${new Date(day0).toISOString().slice(0, 10)}`);
      const path = join(dayDir, "part-0.parquet");
      const bytes = readFileSync(path);
      const span = f % 2 === 0 ? bytes.length : Math.floor(bytes.length * 0.9);
      const flips = 1 + Math.floor(rng() * 3);
      for (let k = 0; k < flips; k++) {
        const at = 4 + Math.floor(rng() * (span - 8));
        bytes[at] = (bytes[at] as number) ^ (1 << Math.floor(rng() * 8));
      }
      writeFileSync(path, bytes);
      try {
        const got = await store.queryColumns("select * from history order by time");
        const t = got["time"] as Float64Array;
        const ok =
          t.length === rows &&
          t.every((x, i) => x === time[i]) &&
          written.every((value, c) => {
            const col = got[`m${c}`] as Float64Array | undefined;
            return col !== undefined && value.every((v, i) => Object.is(v, col[i]));
          });
        if (ok) outcome.same++;
        else {
          outcome.changed++;
          changed.push(`s${f}`);
        }
      } catch (e) {
        if (e instanceof DamagedFileError) outcome.damaged++;
        if (e instanceof MarketIntelError) outcome.typed++;
        else outcome.untyped++;
      } finally {
        rmSync(dayDir, { recursive: true });
      }
    }
    store.close();
    console.log(`reliability: damaged store files through SQL: 120 files, ${outcome.typed} typed errors (${outcome.damaged} DamagedFileError), ${outcome.same} read as written, ${outcome.changed} changed values, ${outcome.untyped} untyped errors`);
    expect(changed).toEqual([]);
    expect(outcome.untyped).toBe(0);
  });
});
