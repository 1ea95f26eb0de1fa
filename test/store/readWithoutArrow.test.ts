/**
 * Reading Parquet needs parquet-wasm alone: readParquet and store.readHistory
 * read its output through the Arrow C data interface (store/arrowCData.ts),
 * so a program that only reads never imports apache-arrow (~160 modules, most
 * of a first read's start-up). A child process records every module it
 * resolves (a resolve hook) while it reads a file and a store.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createPanel } from "../../src/data/index.js";
import { openStore, writeParquet } from "../../src/store/index.js";
import { scaledMs } from "../support/timeScale.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "milab-noarrow-"));
});

const T0 = Date.UTC(2026, 10, 1);

describe("reading without apache-arrow", () => {
  it("readParquet and store.readHistory import parquet-wasm but not apache-arrow", { timeout: scaledMs(60_000) }, async () => {
    const file = join(dir, "x.parquet");
    await writeParquet(file, createPanel([T0, T0 + 60_000], { x: [1, NaN] }));
    const store = openStore(join(dir, "store"));
    await store.saveHistory({ metricId: "btc_price", time: [T0], value: [5] });
    store.close();
    const log = join(dir, "resolved.txt");
    const hook = `data:text/javascript,${encodeURIComponent(`import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) { const r = await next(specifier, context); appendFileSync(${JSON.stringify(log)}, r.url + "\\n"); return r; }`)}`;
    const script = `import { register } from "node:module";
register(${JSON.stringify(hook)});
const { readParquet, openStore } = await import(${JSON.stringify(join(import.meta.dirname, "../../src/store/index.ts"))});
const p = await readParquet(${JSON.stringify(file)});
const s = openStore(${JSON.stringify(join(dir, "store"))});
const h = await s.readHistory({ metricId: "btc_price" });
s.close();
console.log(JSON.stringify([Array.from(p.time), Array.from(p.columns.x), Array.from(h.columns.btc_price)]));`;
    const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", env: { ...process.env, TZ: "UTC" } });
    expect(JSON.parse(out.trim())).toEqual([[T0, T0 + 60_000], [1, null], [5]]);
    const resolved = readFileSync(log, "utf8").split("\n");
    expect(resolved.some((u) => u.includes("/parquet-wasm/"))).toBe(true);
    expect(resolved.filter((u) => u.includes("/apache-arrow/") || u.includes("/arrow-js-ffi/"))).toEqual([]);
  });
});
