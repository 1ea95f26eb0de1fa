/**
 * `milab backtest --strategy` and `milab sweep --strategy` (the built CLI, dist/) against a replay
 * server: your own strategy module with the backtest options as flags (the one flag table that
 * `milab paper` uses), checked against prices read from the server by hand, and each mistake in a
 * module refused in one line with exit 2 and the fix.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/index.js";
import { startReplayServer, type ReplayServer } from "../../src/server/index.js";
import { runMilab } from "./helpers/runMilab.js";
import { runMilabHere } from "./helpers/runMilabHere.js";

const EXAMPLE = fileURLToPath(new URL("../../examples/strategies/momentum.mjs", import.meta.url));
const CLOCK = Date.UTC(2026, 10, 1);
const dir = mkdtempSync(join(tmpdir(), "milab-strategy-"));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

let server: ReplayServer;
beforeAll(async () => {
  server = await startReplayServer({ seed: 42, clock: () => CLOCK, rateLimitPerMinute: 0 });
});
afterAll(async () => server.close());

interface StrategyJson {
  readonly params: Record<string, unknown>;
  readonly options: Record<string, unknown>;
  readonly coins: Record<string, { period: { start: string; bars: number }; summary: { totalReturn: number }; finalEquity: number; trades: number; feesPaid: number; fundingPaid: number }>;
}

describe.concurrent("milab backtest --strategy", () => {
  it("an always-long module without costs returns the coin's last close over its first close (prices read from the server by hand)", async () => {
    const long = file("long.mjs", "export const strategy = (c) => c.close.map(() => 1);\n");
    const r = await runMilab(["backtest", "--strategy", long, "--base-url", server.url, "--coins", "btc", "--hours", "24", "--fee-bps", "0", "--slippage-bps", "0", "--no-funding", "--cash", "1000", "--json", "-q"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as StrategyJson;
    const btc = j.coins["BTC"]!;
    // hand reference: the hour bar opening at `start` closes on the price of its last minute (start + 59 min)
    const h = await createClient({ baseUrl: server.url, cacheTtlMs: 0 }).history({ coin: "BTC", metricId: "btc_price", hours: 24 });
    const priceAt = (t: number): number => h.value[Array.from(h.time).indexOf(t)] as number;
    const start = Date.parse(btc.period.start);
    expect(start % 3_600_000).toBe(0);
    const first = priceAt(start + 59 * 60_000);
    const last = priceAt(start + (btc.period.bars - 1) * 3_600_000 + 59 * 60_000);
    expect(btc.period.bars).toBeGreaterThanOrEqual(22);
    expect(btc.finalEquity).toBeCloseTo((1000 * last) / first, 6);
    expect(btc.summary.totalReturn).toBeCloseTo(last / first - 1, 9);
    expect(btc.feesPaid).toBe(0);
    expect(btc.fundingPaid).toBe(0);
  });

  it("runs the shipped example with its exported params; --params and the backtest flags (--stop-loss, --fee-bps) change the run", async () => {
    const common = ["backtest", "--strategy", EXAMPLE, "--base-url", server.url, "--coins", "btc", "--hours", "48", "--bar", "30", "--json", "-q"];
    // the example as a child (the built binary); the same run with --params and with the flags in this process (runMilabHere:
    // runCli, what the binary calls; ~1 s of CPU less each than a child loading the CLI)
    const [a, b, c] = await Promise.all([runMilab(common), runMilabHere([...common, "--params", '{"n":5}']), runMilabHere([...common, "--stop-loss", "0.004", "--fee-bps", "0"])]);
    for (const r of [a, b, c]) expect(r.code, r.stderr).toBe(0);
    const [ja, jb, jc] = [a, b, c].map((r) => JSON.parse(r.stdout) as StrategyJson);
    expect(ja!.params).toEqual({ n: 20 });
    expect(jb!.params).toEqual({ n: 5 });
    expect(jc!.options).toMatchObject({ stopLoss: 0.004, feeBps: 0 });
    expect(ja!.coins["BTC"]!.trades).toBeGreaterThan(0);
    expect(jb!.coins["BTC"]!.finalEquity).not.toBe(ja!.coins["BTC"]!.finalEquity);
    expect(jc!.coins["BTC"]!.finalEquity).not.toBe(ja!.coins["BTC"]!.finalEquity);
    expect(jc!.coins["BTC"]!.feesPaid).toBeLessThan(ja!.coins["BTC"]!.feesPaid);
  });

  it("prints one row per coin as text", async () => {
    // in this process (runMilabHere); the binary's backtest --strategy runs are the two children above
    const r = await runMilabHere(["backtest", "--strategy", EXAMPLE, "--base-url", server.url, "--coins", "btc,eth", "--hours", "48", "-q"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Strategy .*momentum\.mjs with \{"n":20\}/);
    expect(r.stdout).toMatch(/^BTC +-?\d+\.\d+% /m);
    expect(r.stdout).toMatch(/^ETH +-?\d+\.\d+% /m);
  });
});

describe.concurrent("milab sweep --strategy", () => {
  it("sweeps the module's grid (every n with and without a stop-loss) and names the best parameters", async () => {
    // in this process (runMilabHere); the binary's sweep --strategy is the child of the next test
    const r = await runMilabHere(["sweep", "--strategy", EXAMPLE, "--base-url", server.url, "--coins", "btc", "--hours", "48", "--workers", "0", "--json", "-q"]);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as { coins: Record<string, { best: { params: Record<string, unknown> }; sweep: { columns: Record<string, unknown[]> } }> };
    const btc = j.coins["BTC"]!;
    expect(btc.sweep.columns["n"]).toEqual([5, 5, 10, 10, 20, 20, 40, 40, 80, 80]);
    expect(Object.keys(btc.best.params).sort()).toEqual(["n", "stopLoss"]);
  });
  it("prints the grid's parameters in the table", async () => {
    const r = await runMilab(["sweep", "--strategy", EXAMPLE, "--base-url", server.url, "--coins", "btc", "--hours", "48", "--workers", "0", "--top", "3", "-q"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("BTC: 10 variants (the module's grid: n x stopLoss)");
    expect(r.stdout).toMatch(/^rank +Sharpe +total return +max DD +trades +n +stopLoss$/m);
  });
});

describe.concurrent("a module's mistakes: one line, exit 2, the fix named, before any history is loaded", () => {
  const noStrategy = file("none.mjs", "export const x = 1;\n");
  const noGrid = file("nogrid.mjs", "export const strategy = (c) => c.close.map(() => 1);\n");
  const badGrid = file("badgrid.mjs", "export const strategy = (c) => c.close.map(() => 1);\nexport const grid = { n: [] };\n");
  const gridValue = file("gridvalue.mjs", "export const strategy = (c) => c.close.map(() => 1);\nexport const grid = { n: 5 };\n");
  const badParams = file("badparams.mjs", "export const strategy = (c) => c.close.map(() => 1);\nexport const params = [1, 2];\n");
  const syntax = file("syntax.mjs", "export const strategy = (c) => c.close.map(() => 1) +;\n");
  const cases: [string, string[], string][] = [
    ["no strategy export", ["backtest", "--strategy", noStrategy], "must export the strategy as `strategy` or default, got no such export (it exports x)"],
    ["no such file", ["backtest", "--strategy", join(dir, "missing.mjs")], "missing.mjs: no such file; give the path of a module (.mjs) that exports the strategy"],
    ["params not an object", ["backtest", "--strategy", badParams], "exports params, but it is not an object of parameter -> value, got an array; e.g. export const params = { n: 20 }"],
    ["--params not JSON", ["backtest", "--strategy", EXAMPLE, "--params", "n=5"], 'params must be a JSON object like {"n":12}, got n=5'],
    ["--report with --strategy", ["backtest", "--strategy", EXAMPLE, "--report", join(dir, "r.html")], "--report writes the composite study's tearsheet; it does not apply with --strategy"],
    ["a sweep without a grid", ["sweep", "--strategy", noGrid], "exports no grid to sweep; add e.g. export const grid = { n: [5, 10, 20] }"],
    ["an empty grid parameter", ["sweep", "--strategy", badGrid], "exports a grid that is not a grid: grid parameter n must be a non-empty list of values, got []"],
    ["a grid parameter that is not a list", ["sweep", "--strategy", gridValue], "exports a grid that is not a grid: grid parameter n must be a non-empty list of values, got 5"],
    ["a misspelt backtest flag", ["backtest", "--strategy", EXAMPLE, "--stop-los", "0.02"], "(Did you mean --stop-loss?)"],
    ["a stop-loss out of range", ["sweep", "--strategy", EXAMPLE, "--stop-loss", "3"], "stop-loss must be a number 0..1, got 3"],
  ];
  it.each(cases)("%s", async (_name, args, message) => {
    // an unreachable --base-url: a module refused before loading never gets to it; in this process (runMilabHere)
    const r = await runMilabHere([...args, "--base-url", "http://127.0.0.1:9", "-q"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toContain("    at ");
    expect(r.stdout).toBe("");
  });
  // Node's own import of the module (vitest's module runner, in this process, words a syntax error its own way): a child
  it("a syntax error", async () => {
    const r = await runMilab(["backtest", "--strategy", syntax, "--base-url", "http://127.0.0.1:9", "-q"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("could not be imported (SyntaxError");
    expect(r.stderr).not.toContain("    at ");
    expect(r.stdout).toBe("");
  });
});
