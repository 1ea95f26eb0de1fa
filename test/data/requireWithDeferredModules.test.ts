/**
 * danfojs-node is required with `xlsx` and `request` loaded on first use (src/data/requireWithDeferredModules.ts,
 * src/data/danfo.ts): the stand-in forwards to the real module, answers `__esModule` as the real modules do
 * (they have none), leaves the require cache as it found it, and danfo's Excel writer/reader and its CSV reader
 * from a URL (the only users of the two) still work in a fresh process running the built package.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { requireWithDeferredModules } from "../../src/data/requireWithDeferredModules.js";
import { scaledMs } from "../support/timeScale.js";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../..");
const require = createRequire(import.meta.url);
const danfoDir = dirname(require.resolve("danfojs-node"));
const keyOf = (name: string): string => require.resolve(name, { paths: [danfoDir] });

/** `load` run with `name` deferred from a cache without it (the real entry restored after). */
function fromCleanCache<T>(name: string, load: () => T): { result: T; afterwards: unknown } {
  const key = keyOf(name);
  const saved = require.cache[key];
  delete require.cache[key];
  try {
    const result = requireWithDeferredModules([name], danfoDir, load);
    return { result, afterwards: require.cache[key] };
  } finally {
    if (saved !== undefined) require.cache[key] = saved;
    else delete require.cache[key];
  }
}

describe("requireWithDeferredModules", () => {
  it("the deferred modules have no __esModule (what the stand-in answers before loading)", () => {
    for (const name of ["xlsx", "request"]) expect((require(keyOf(name)) as { __esModule?: unknown }).__esModule, name).toBeUndefined();
  });

  it("answers require(name) inside load with a stand-in that loads the real module on first use and forwards to it", () => {
    const key = keyOf("xlsx");
    const { result: stand, afterwards } = fromCleanCache("xlsx", () => require(key) as Record<string, unknown>);
    expect(afterwards).toBeUndefined(); // nothing left in the cache
    expect((stand as { __esModule?: unknown }).__esModule).toBeUndefined();
    const real = require(key) as { utils: { book_new: unknown }; read: unknown };
    expect(stand).not.toBe(real);
    expect((stand as typeof real).utils).toBe(real.utils);
    expect((stand as typeof real).read).toBe(real.read);
    expect("utils" in stand).toBe(true);
    expect(Object.keys(stand)).toEqual(Object.keys(real));
  });

  it("a first use during load takes the real module out of the cache's stand-in: later requires get the real one", () => {
    const key = keyOf("request");
    const { result } = fromCleanCache("request", () => {
      const stand = require(key) as { get: unknown };
      const get = stand.get; // first use while load runs
      return { get, again: require(key) as { get: unknown } };
    });
    expect(typeof result.get).toBe("function");
    expect(result.again.get).toBe(result.get);
  });

  it("leaves a module already loaded alone, skips a name that is not installed, passes results and errors through", () => {
    const real = require(keyOf("xlsx"));
    expect(requireWithDeferredModules(["xlsx", "no-such-module-xyz"], danfoDir, () => require(keyOf("xlsx")))).toBe(real);
    expect(requireWithDeferredModules([], danfoDir, () => 7)).toBe(7);
    expect(() => requireWithDeferredModules(["xlsx"], danfoDir, () => {
      throw new Error("boom");
    })).toThrow("boom");
    expect(require.cache[keyOf("xlsx")]?.exports).toBe(real);
  });

  it.runIf(existsSync(join(root, "dist", "index.js")))(
    "in a fresh process: danfo loads without xlsx and request; its Excel round trip and CSV-from-URL reader still work",
    async () => {
      const script = `
        import { createServer } from "node:http";
        import { mkdtempSync, rmSync } from "node:fs";
        import { tmpdir } from "node:os";
        import { join } from "node:path";
        const m = await import(${JSON.stringify(join(root, "dist", "index.js"))});
        const { createRequire } = await import("node:module");
        const r = createRequire(${JSON.stringify(join(danfoDir, "index.js"))});
        const loaded = (name) => r.cache[r.resolve(name)] !== undefined;
        const df = m.toDataFrame({ a: new Float64Array([1, 2.5]), b: new Float64Array([3, 4]) });
        const before = { xlsx: loaded("xlsx"), request: loaded("request") };
        const dfd = r("danfojs-node");
        const dir = mkdtempSync(join(tmpdir(), "milab-xlsx-"));
        dfd.toExcel(df, { filePath: join(dir, "t.xlsx") });
        const back = await dfd.readExcel(join(dir, "t.xlsx"));
        rmSync(dir, { recursive: true, force: true });
        const server = createServer((_, res) => res.end("x,y\\n1,2\\n3,4\\n")).listen(0, "127.0.0.1");
        await new Promise((ok) => server.once("listening", ok));
        const csv = await dfd.readCSV("http://127.0.0.1:" + server.address().port + "/t.csv");
        server.close();
        console.log(JSON.stringify({ before, after: { xlsx: loaded("xlsx"), request: loaded("request") }, excel: back.values, csv: csv.values }));`;
      const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: root });
      const r = JSON.parse(stdout) as { before: Record<string, boolean>; after: Record<string, boolean>; excel: number[][]; csv: number[][] };
      expect(r.before).toEqual({ xlsx: false, request: false });
      expect(r.after.xlsx).toBe(true);
      expect(r.excel).toEqual([[1, 3], [2.5, 4]]);
      expect(r.csv).toEqual([[1, 2], [3, 4]]);
    },
    scaledMs(60_000),
  );
});
