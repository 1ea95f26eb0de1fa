/**
 * The built library (scripts/bundle.mjs: one esbuild pass with code splitting) holds ONE copy of every module: a
 * `--strategy` module that imports "market-intel-lab" (node_modules/market-intel-lab -> dist/index.js) and the CLI
 * (dist/cli/main.js) load the same shared chunks, so they share the library's classes and module-level registries:
 * - `TARGET_RULES` (src/backtest/targetPositions.ts): a strategy returning `targetPositions(...)` from the package is
 *   recognised by the CLI's engine (a second copy would not know the object: the run would be refused) and its run
 *   equals, bit for bit, the same strategy returning the plain column `targets.positions`, backtested in this process;
 * - `InvalidArgumentError`: the package's error thrown by the module's code reaches runCli's `instanceof` check (one
 *   line, exit 2; a second copy's class would print "unexpected error", exit 1);
 * - the sweep pool's worker is found from the package root by code that sits in a chunk (dist/chunks/): the built
 *   library's sweep runs on worker threads, with the calling thread's numbers;
 * - every src/ module is in exactly one output file of dist/ (each output carries esbuild's `// src/<path>` marker of
 *   the modules it holds), and every entry point but the CLI's loads with `require()` (no top-level await: tslab's
 *   notebooks require() the ESM build).
 * Needs the build (npm test builds first).
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReplayServer, type ReplayServer } from "../../src/server/index.js";
import { SCORER_CONSTANTS } from "../../src/signals/scorers.js";
import { runMilab } from "../cli/helpers/runMilab.js";
import { runMilabHere } from "../cli/helpers/runMilabHere.js";

const root = resolve(import.meta.dirname, "../..");
const dist = join(root, "dist");
// inside the checkout, so that the modules' `import ... from "market-intel-lab"` resolves to the built package
const dir = join(root, "test", ".tmp", `bundle-one-copy-${process.pid}`);
const CLOCK = Date.UTC(2026, 10, 1);

/** A momentum signal (close above the close n bars earlier: buy, below: sell) held on neutral at half size. */
const TARGETS_MODULE = `import { targetPositions } from "market-intel-lab";
export const params = { n: 6 };
export const strategy = (c, p) => {
  const close = c.close;
  const signal = new Float64Array(close.length);
  for (let i = p.n; i < close.length; i++) signal[i] = close[i] > close[i - p.n] ? 1 : close[i] < close[i - p.n] ? -1 : 0;
  return targetPositions({ signal, neutral: "hold", size: 0.5 }, close.length)RETURN;
};
`;

let server: ReplayServer;
let targetsFile: string;
let columnFile: string;
let throwsFile: string;
beforeAll(async () => {
  if (!existsSync(join(dist, "index.js"))) throw new Error("bundleOneCopy.test: dist/ is missing; run `npm run build` first");
  mkdirSync(dir, { recursive: true });
  targetsFile = join(dir, "targets.mjs");
  columnFile = join(dir, "column.mjs");
  throwsFile = join(dir, "throws.mjs");
  writeFileSync(targetsFile, TARGETS_MODULE.replace("RETURN", ""));
  writeFileSync(columnFile, TARGETS_MODULE.replace("RETURN", ".positions"));
  // a composite whose regime filter calls the package with a bad size: the package's InvalidArgumentError reaches runCli
  writeFileSync(
    throwsFile,
    `import { targetPositions } from "market-intel-lab";
export const strategy = { kind: "composite", regimes: { calm: (c) => targetPositions({ signal: c.close, size: -1 }, c.close.length).positions } };
export const params = { regime: "calm" };
`,
  );
  server = await startReplayServer({ seed: 42, clock: () => CLOCK, rateLimitPerMinute: 0 });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.concurrent("one copy of the library for the CLI and a --strategy module", () => {
  it("a strategy returning targetPositions(...) from the package, run by the built CLI, equals its plain column backtested in this process, bit for bit", async () => {
    const flags = ["--base-url", server.url, "--coins", "btc,eth", "--hours", "48", "--bar", "30", "--stop-loss", "0.01", "--json", "-q"];
    const [cli, here] = await Promise.all([runMilab(["backtest", "--strategy", targetsFile, ...flags]), runMilabHere(["backtest", "--strategy", columnFile, ...flags])]);
    expect(cli.stderr).toBe("");
    expect(cli.code).toBe(0);
    expect(here.code, here.stderr).toBe(0);
    const a = JSON.parse(cli.stdout) as { coins: Record<string, { trades: number; finalEquity: number }> };
    const b = JSON.parse(here.stdout) as typeof a;
    // JSON keeps every double exactly (shortest round-trip form): equal text is equal bits
    expect(JSON.stringify(a.coins)).toBe(JSON.stringify(b.coins));
    expect(Object.keys(a.coins)).toEqual(["BTC", "ETH"]);
    expect(a.coins["BTC"]!.trades).toBeGreaterThan(0);
    expect(a.coins["BTC"]!.finalEquity).not.toBe(10_000);
  });

  it("the built library's sweep runs on worker threads (dist/research/sweepWorker.js, found from the package root by code in a chunk), with the calling thread's numbers", async () => {
    // a missing worker file would not fail the sweep: it would run on the calling thread (runsOn says which)
    const script = `import { sweepStrategy } from "market-intel-lab";
const close = Float64Array.from({ length: 200 }, (_, i) => 100 + 10 * Math.sin(i / 7) + i / 20);
const sma = (c, p, out) => { const x = c.close; let s = 0; for (let i = 0; i < x.length; i++) { s += x[i] - (i >= p.n ? x[i - p.n] : 0); out[i] = i + 1 >= p.n && x[i] > s / p.n ? 1 : 0; } return out; };
const run = (workers) => sweepStrategy(sma, { data: { close }, grid: { n: [5, 10, 20] }, periodsPerYear: 365, workers });
const [pool, here] = [await run(2), await run(0)];
console.log(JSON.stringify({ runsOn: pool.runsOn, reason: pool.runsOnReason ?? null, same: JSON.stringify(pool.best("sharpeRatio")) === JSON.stringify(here.best("sharpeRatio")), here: here.runsOn }));
`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { cwd: dir });
    expect(JSON.parse(stdout)).toEqual({ runsOn: "workers", reason: null, same: true, here: "calling thread" });
  });

  it("the package's InvalidArgumentError thrown in the module's code: the one-line message and exit 2 from the built CLI", async () => {
    const r = await runMilab(["backtest", "--strategy", throwsFile, "--base-url", server.url, "--coins", "btc", "--hours", "24", "-q"]);
    expect(r.stderr).toMatch(/^milab: \S*size must be a finite fraction of equity >= 0, got -1\n$/);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
  });
});

/** The JavaScript files of dist/ (entries and chunks; not the browser viewer bundle). */
function distJs(dirPath: string = dist): string[] {
  return readdirSync(dirPath, { withFileTypes: true }).flatMap((e) => {
    const path = join(dirPath, e.name);
    if (e.isDirectory()) return relative(dist, path) === "vendor" ? [] : distJs(path);
    return e.name.endsWith(".js") ? [path] : [];
  });
}

describe("the bundle's layout", () => {
  it("holds each src/ module in exactly one output file (entry or shared chunk)", () => {
    const where = new Map<string, Set<string>>();
    for (const file of distJs()) {
      for (const m of readFileSync(file, "utf8").matchAll(/^\/\/ (src\/\S+\.ts)$/gm)) {
        const set = where.get(m[1]!) ?? new Set<string>();
        set.add(relative(dist, file));
        where.set(m[1]!, set);
      }
    }
    const twice = [...where].filter(([, files]) => files.size > 1).map(([src, files]) => `${src}: ${[...files].join(", ")}`);
    expect(twice).toEqual([]);
    // the classes and registries the CLI shares with a strategy module are among them
    for (const src of ["src/errors/InvalidArgumentError.ts", "src/backtest/targetPositions.ts", "src/research/SweepResult.ts", "src/research/strategyVariant.ts"]) {
      expect(where.get(src)?.size, src).toBe(1);
    }
    expect(where.size).toBeGreaterThan(300);
  });

  it("keeps the names of the module constants the generated loops write as values (SCORER_CONSTANTS): esbuild renamed none", () => {
    // a renamed constant (CHEAP_GWEI2) would make inlineStatements refuse the scorer's text, and the fused loop call it instead
    const text = distJs().map((f) => readFileSync(f, "utf8")).join("\n");
    for (const name of Object.keys(SCORER_CONSTANTS)) {
      expect(text, name).toMatch(new RegExp(`^var ${name} = `, "m"));
      expect(text, name).not.toMatch(new RegExp(`\\b${name}\\d+\\b`));
    }
  });

  it("keeps every exported function's and class's name (an error's name is its class's: HttpError, not _HttpError)", async () => {
    // esbuild renames a class that refers to itself (`class _HttpError`) unless told to keep names; MarketIntelError
    // takes `name` from `new.target.name`, so a user's log would read "_HttpError"
    const built = (await import(join(dist, "index.js"))) as Record<string, unknown>;
    const renamed = Object.entries(built)
      .filter(([, v]) => typeof v === "function")
      .filter(([k, v]) => (v as { name: string }).name !== k)
      .map(([k, v]) => `${k} -> ${(v as { name: string }).name}`);
    expect(renamed).toEqual([]);
    const { HttpError } = built as { HttpError: new (status: number, url: string, body: string) => Error };
    expect(new HttpError(503, "http://127.0.0.1/v1/history", "busy").name).toBe("HttpError");
  });

  it("loads every entry point but the CLI's with require() (no top-level await), and the sweep worker is an entry of its own", async () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, string | Record<string, string>> };
    const entries = Object.values(pkg.exports)
      .map((e) => (typeof e === "string" ? e : e["require"]))
      .filter((e): e is string => e !== undefined && e.endsWith(".js"));
    entries.push("./dist/research/sweepWorker.js", "./dist/notebooks/writeTslabKernelSpec.js");
    expect(entries).toContain("./dist/index.js");
    const script = `const r = require("node:module").createRequire(${JSON.stringify(`${root}/`)}); for (const f of ${JSON.stringify(entries)}) { const m = r(f); if (Object.keys(m).length === 0) throw new Error(f + " exports nothing"); } console.log("ok");`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--no-warnings", "-e", script], { cwd: root });
    expect(stdout).toBe("ok\n");
  });
});
