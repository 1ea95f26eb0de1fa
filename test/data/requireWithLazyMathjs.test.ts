/**
 * danfojs-node is required with mathjs's functions built on first use (src/data/requireWithLazyMathjs.ts):
 * danfo's statistics are unchanged (numpy's values, and the lazy instance's functions equal the main entry's
 * bit for bit), the main entry is not loaded by danfo's import, and a later `require("mathjs")` still gets the
 * real main entry. The child process runs the built package (npm test builds first), as a user's process would.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { requireWithLazyMathjs } from "../../src/data/requireWithLazyMathjs.js";
import { scaledMs } from "../support/timeScale.js";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "../..");
const require = createRequire(import.meta.url);
type MathFns = Record<"mean" | "median" | "mode" | "std" | "variance", (x: number[]) => unknown> & Record<string, unknown>;
const key = require.resolve("mathjs", { paths: [dirname(require.resolve("danfojs-node"))] });

/** `requireWithLazyMathjs(() => require("mathjs"))` from a cache without mathjs (restored after): what danfo would get. */
function lazyInstance(): { inside: MathFns; afterwards: unknown } {
  const saved = require.cache[key];
  delete require.cache[key];
  try {
    const inside = requireWithLazyMathjs(() => require("mathjs") as MathFns);
    return { inside, afterwards: require.cache[key] };
  } finally {
    if (saved !== undefined) require.cache[key] = saved;
    else delete require.cache[key];
  }
}

describe("requireWithLazyMathjs", () => {
  it("answers require('mathjs') inside load with mathjs's create(all), and leaves no trace in the cache", () => {
    const full = require("mathjs") as MathFns;
    const { inside, afterwards } = lazyInstance();
    expect(inside).not.toBe(full);
    expect(afterwards).toBeUndefined();
    expect(typeof inside.evaluate).toBe("function"); // the whole API, built on use
    expect(require("mathjs")).toBe(full);
  });

  it("gives the main entry's results bit for bit: danfo's five functions on data, NaN, one point, constant", () => {
    const full = require("mathjs") as MathFns;
    const { inside } = lazyInstance();
    // a result or the same error (mode of NaN, anything of empty throw in both)
    const outcome = (g: () => unknown): unknown => {
      try {
        return { value: g() };
      } catch (e) {
        return { error: (e as Error).message };
      }
    };
    const data = [[1, 2, 3.5, 4, 10], [0.1, 0.25, 0.3, 7, 7], [1, Number.NaN, 3], [5], [2, 2, 2, 2], [2, 2, 3, 3, 1], [-1e300, 1e-300, 3.3], []];
    let errors = 0;
    for (const f of ["mean", "median", "mode", "std", "variance"] as const) {
      for (const x of data) {
        const copy = [...x];
        const got = outcome(() => inside[f](x));
        expect(got, `${f}(${x.join(",")})`).toEqual(outcome(() => full[f](x)));
        if ("error" in (got as object)) errors++;
        expect(x).toEqual(copy); // no mutation
      }
    }
    expect(errors).toBeGreaterThanOrEqual(5); // the empty input, at least, compared as errors
  });

  it("runs load unchanged, and passes its result and its error through, when mathjs is already loaded", () => {
    const full = require("mathjs") as MathFns;
    expect(requireWithLazyMathjs(() => require("mathjs"))).toBe(full);
    expect(requireWithLazyMathjs(() => 42)).toBe(42);
    expect(() => requireWithLazyMathjs(() => {
      throw new Error("boom");
    })).toThrow("boom");
    expect(require.cache[key]?.exports).toBe(full);
  });

  it.runIf(existsSync(join(root, "dist", "index.js")))(
    "in a fresh process: the first DataFrame loads danfo without mathjs's main entry; its statistics are numpy's",
    async () => {
      const script = `
        const m = await import(${JSON.stringify(join(root, "dist", "index.js"))});
        const { createRequire } = await import("node:module");
        const r = createRequire(${JSON.stringify(join(root, "package.json"))});
        const df = m.toDataFrame({ a: new Float64Array([1, 2, 3.5, 4, 10]), b: new Float64Array([0.1, 0.25, 0.3, 7, 7]) });
        const mainLoaded = Object.keys(r.cache).some((k) => k.endsWith(${JSON.stringify(join("mathjs", "lib", "cjs", "index.js"))}));
        const later = r("mathjs");
        console.log(JSON.stringify({
          mainLoaded, laterKeys: Object.keys(later).length, laterEvaluate: later.evaluate("2 + 3"),
          mean: df.mean({ axis: 0 }).values, median: df.median({ axis: 0 }).values,
          var: df.var({ axis: 0 }).values, std: df.std({ axis: 0 }).values, mode: df.column("b").mode(),
        }));`;
      const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: root });
      const r = JSON.parse(stdout) as { mainLoaded: boolean; laterKeys: number; laterEvaluate: number; mean: number[]; median: number[]; var: number[]; std: number[]; mode: number[] };
      expect(r.mainLoaded).toBe(false);
      expect(r.laterKeys).toBeGreaterThan(500); // the real main entry: every function, named
      expect(r.laterEvaluate).toBe(5);
      // numpy: x.mean(), np.median(x), x.var(ddof=1), x.std(ddof=1)
      const close = (got: number[], want: number[]) => want.forEach((w, i) => expect(got[i]).toBeCloseTo(w, 12));
      close(r.mean, [4.1, 2.93]);
      close(r.median, [3.5, 0.3]);
      close(r.var, [12.299999999999999, 13.809500000000002]);
      close(r.std, [3.507135583350036, 3.716113561235717]);
      expect(r.mode).toEqual([7]);
    },
    scaledMs(60_000),
  );
});
