/**
 * `milab sweep`, the built CLI as a child process: the table of the best variants,
 * --json consistent with the library (the best row equals a backtest of its weights),
 * --out CSV with one row per variant, shards that merge into the full table, bad
 * arguments, and Ctrl-C keeping the finished variants (exit code 130).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// the modules themselves, not src/index.js (the whole library through vite: ~0.7 s of CPU more, measured under load)
import { mergeSweeps } from "../../src/research/mergeSweeps.js";
import type { SweepJSON } from "../../src/research/SweepResult.js";
import { MAIN, runMilab } from "./helpers/runMilab.js";
import { runMilabHere } from "./helpers/runMilabHere.js";
import { scaledMs } from "../support/timeScale.js";

const dir = mkdtempSync(join(tmpdir(), "milab-sweep-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// 3 components' grid at 0.25 over 5 components: C(8, 4) = 70 weight vectors x 2 thresholds = 140 variants; 48 hours
// (96 until 2026-11-28: no assertion depends on the length; every variant still has a finite Sharpe ratio, as at 96)
const BASE = ["sweep", "--coins", "btc", "--hours", "48", "--grid", "0.25", "--thresholds", "0.1,0.2"];

interface SweepOut {
  source: string;
  stopped: boolean;
  coins: Record<string, { best: { index: number; variant: number; weights: Record<string, number>; threshold: number; value: number }; sweep: SweepJSON }>;
}

describe("milab sweep", () => {
  it("--help documents the sweep options", async () => {
    const r = await runMilabHere(["sweep", "--help"]);
    expect(r.code).toBe(0);
    for (const o of ["--grid", "--thresholds", "--coins", "--walk-forward", "--json", "--out", "--shard", "--workers"]) expect(r.stdout).toContain(o);
  });

  // One run for the CSV of both coins and the JSON the shards merge into; the text table is read in
  // sweepSignals.test.ts ("--out without an extension", the same table over the 0.25 grid at one threshold).
  it("--json and --out: every variant of each coin as CSV, the sweep and its best variant as JSON; shards merge into the same table", async () => {
    const out = join(dir, "sweep.csv");
    const r = await runMilab([...BASE, "--coins", "btc,eth", "--json", "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    const csv = readFileSync(out, "utf8").trim().split("\n");
    expect(csv[0]).toBe("coin,variant,w_imbalance,w_funding,w_basis_spread,w_momentum_5m,w_gas,threshold,totalReturn,sharpeRatio,maxDrawdown,trades,turnover,exposure");
    expect(csv).toHaveLength(1 + 280);
    expect(csv[1]).toMatch(/^BTC,0,1,0,0,0,0,0.1,/);
    expect(csv[280]).toMatch(/^ETH,139,0,0,0,0,1,0.2,/);
    const full = JSON.parse(r.stdout) as SweepOut;
    expect(full.source).toBe("embedded replay server (simulator seed 42)");
    expect(Object.keys(full.coins)).toEqual(["BTC", "ETH"]);
    expect(full.coins["ETH"]!.sweep.total).toBe(140);
    const btc = full.coins["BTC"]!;
    expect(full.stopped).toBe(false);
    expect(btc.sweep.total).toBe(140);
    const sharpe = btc.sweep.columns["sharpeRatio"]!.map(Number);
    expect(btc.best.value).toBe(Math.max(...sharpe.filter((x) => !Number.isNaN(x))));
    // the CSV's BTC rows are the JSON's BTC sweep
    const head = csv[0]!.split(",");
    const csvSharpe = csv.slice(1, 141).map((line) => Number(line.split(",")[head.indexOf("sharpeRatio")]));
    expect(csvSharpe).toEqual(sharpe);
    // the shards in this process (runMilabHere: runCli, what the binary calls), merged and compared with the binary's full run
    const parts = await Promise.all([0, 1, 2].map(async (i) => (JSON.parse((await runMilabHere([...BASE, "--json", "--shard", `${i}/3`])).stdout) as SweepOut).coins["BTC"]!.sweep));
    expect(parts.map((p) => p.columns["variant"]!.length)).toEqual([46, 47, 47]);
    const merged = mergeSweeps(parts);
    expect(merged.complete).toBe(true);
    expect(merged.toJSON().columns).toEqual(btc.sweep.columns);
  }, scaledMs(180_000));

  // parsed by commander: in this process (runMilabHere)
  it.each([
    [["--thresholds", "0.1,2"], "thresholds must be a comma-separated list of numbers in [0, 1]"],
    [["--shard", "3/3"], "shard must be INDEX/COUNT with 0 <= INDEX < COUNT"],
    [["--walk-forward", "7d"], "walk-forward must be TRAIN/TEST"],
  ])("rejects %j with exit code 2 and one line", async (args, message) => {
    const r = await runMilabHere([...BASE, ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  // the grid's step is checked where the grid is made (simplexGrid), after the history is loaded (in this process too)
  it("rejects --grid 0.3 with exit code 2 and one line", async () => {
    const r = await runMilabHere([...BASE, "--grid", "0.3", "-q"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("step must be 1/m");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("stops on Ctrl-C, prints the finished variants and exits 130", async () => {
    // grid 0.04: C(29, 4) = 23,751 weight vectors x 3 thresholds = 71,253 variants, 8 blocks of 8,907 on this thread
    // (12 bars: a small sweep runs on the calling thread): the signal stops it after a block or two. (Grid 0.02's
    // 948,753 variants made blocks of 118,595, ~15 s each, and this test cost ~30 s of CPU for the same checks.)
    // 12 hours: the analysis of the finished variants splits 12 bars into 6 blocks, C(6, 3) = 20 combinations.
    const child = spawn(process.execPath, [MAIN, "sweep", "--coins", "btc", "--hours", "12", "--grid", "0.04"], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, MI_BASE_URL: undefined } as NodeJS.ProcessEnv });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    const code = await new Promise<number | null>((resolve) => {
      child.stderr.on("data", (d: Buffer) => {
        const before = stderr;
        stderr += d.toString();
        if (!before.includes("sweeping") && stderr.includes("sweeping")) setTimeout(() => child.kill("SIGINT"), 500);
      });
      child.on("close", resolve);
    });
    expect(code, stderr).toBe(130);
    expect(stderr).toMatch(/milab sweep: stopped by Ctrl-C after \d+ variants/);
    const m = /^BTC: (\d+) of 71253 variants/m.exec(stdout);
    expect(m, stdout).not.toBeNull();
    expect(Number(m?.[1])).toBeGreaterThan(0);
    expect(stdout).toMatch(/^1\s+-?\d+\.\d\d\s/m);
  }, scaledMs(120_000));
});
