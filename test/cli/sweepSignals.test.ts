/**
 * `milab sweep` and `milab record` under Ctrl-C, the built CLI as a child process sent SIGINT
 * at several moments: while loading, while sweeping, after the sweep (during the analysis),
 * and twice. Every time the exit code is 130 and every finished variant is on disk. Also the
 * option parsing (--thresholds with an empty item, --out names) and a file error's message.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startReplayServer } from "../../src/server/index.js";
import { MAIN } from "./helpers/runMilab.js";
import { runMilabHere } from "./helpers/runMilabHere.js";
import { scaledMs } from "../support/timeScale.js";

const dir = mkdtempSync(join(tmpdir(), "milab-sweep-signals-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run milab; each time stderr first matches a trigger's pattern, send SIGINT after its delay. */
function runInterrupted(args: readonly string[], triggers: readonly { readonly on: RegExp; readonly delayMs: number }[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, MI_BASE_URL: undefined, MI_API_KEY: undefined, ...env } as NodeJS.ProcessEnv });
    let stdout = "";
    let stderr = "";
    const fired = new Set<number>();
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`milab ${args.join(" ")} did not finish; stderr: ${stderr}`));
    }, scaledMs(170_000));
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      triggers.forEach((t, i) => {
        if (!fired.has(i) && t.on.test(stderr)) {
          fired.add(i);
          setTimeout(() => child.kill("SIGINT"), t.delayMs);
        }
      });
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

const csvRows = (path: string): string[] => readFileSync(path, "utf8").trim().split("\n").slice(1);

// grid 0.125: C(12, 4) = 495 weight vectors x 2 thresholds = 990 variants, an analysis long enough to be interrupted
const MID = ["sweep", "--coins", "btc", "--hours", "96", "--grid", "0.125", "--thresholds", "0.1,0.2"];
// grid 1/16: C(20, 4) = 4,845 weight vectors x 2 thresholds = 9,690 variants on this thread in 8 blocks: a signal sent
// as the sweep starts stops it after a block or two (2,424 variants), and the analysis of those takes ~2 s, still long
// enough for "twice"'s second signal: over 28 hours the PBO has 14 CSCV blocks, C(14, 7) = 3,432 combinations (96 hours'
// 16 blocks gave C(16, 8) = 12,870 and a 7 s analysis, as long as MID's for no more proof)
const LONG = ["sweep", "--coins", "btc", "--hours", "28", "--grid", "0.0625", "--thresholds", "0.1,0.2", "--workers", "0"];

describe("milab sweep: Ctrl-C at any moment exits 130 with the finished variants on disk", () => {
  it("while loading: exits 130 at once, nothing written", async () => {
    const out = join(dir, "load.csv");
    const r = await runInterrupted([...MID, "--out", out], [{ on: /loading the history/, delayMs: 0 }]);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain("milab sweep: stopped by Ctrl-C before any variant was swept; nothing written");
    expect(existsSync(out)).toBe(false);
  }, scaledMs(180_000));

  it("while sweeping: exits 130, the CSV holds exactly the finished variants the output reports", async () => {
    const out = join(dir, "sweeping.csv");
    const r = await runInterrupted([...LONG, "--out", out], [{ on: /sweeping BTC/, delayMs: 0 }]);
    expect(r.code, r.stderr).toBe(130);
    const m = /stopped by Ctrl-C after (\d+) variants/.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    const done = Number(m?.[1]);
    expect(done).toBeGreaterThan(0);
    expect(csvRows(out)).toHaveLength(done);
    expect(r.stdout).toMatch(new RegExp(`^BTC: ${done} of 9690 variants`, "m"));
  }, scaledMs(180_000));

  it("after the sweep, during the analysis (which had no handler and died with nothing): exits 130 with every variant written and printed", async () => {
    const out = join(dir, "after.csv");
    const r = await runInterrupted([...MID, "--out", out], [{ on: /variants written to/, delayMs: 0 }]);
    expect(r.signal, r.stderr).toBeNull();
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain(`milab sweep: 990 variants written to ${out}`);
    expect(csvRows(out)).toHaveLength(990);
    expect(r.stdout).toMatch(/^BTC: 990 variants/m);
  }, scaledMs(180_000));

  it("twice (during the sweep, then in the exit window): exits 130, the finished variants written", async () => {
    const out = join(dir, "twice.csv");
    const r = await runInterrupted([...LONG, "--out", out], [
      { on: /sweeping BTC/, delayMs: 0 },
      { on: /variants written to/, delayMs: 0 },
    ]);
    expect(r.signal, r.stderr).toBeNull();
    expect(r.code, r.stderr).toBe(130);
    const m = /(\d+) variants written to/.exec(r.stderr);
    expect(Number(m?.[1])).toBeGreaterThan(0);
    expect(csvRows(out)).toHaveLength(Number(m?.[1]));
  }, scaledMs(180_000));
});

describe("milab sweep: options and files", () => {
  // parsed by commander: in this process (runMilabHere)
  it.each([["0.1,,0.2"], ["0.1,0.2,"], [",0.1"], [","]])("--thresholds %s (an empty item) is refused with exit 2, never read as 0", async (list) => {
    const r = await runMilabHere(["sweep", "--coins", "btc", "--thresholds", list]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("thresholds must be a comma-separated list of numbers in [0, 1]");
  });

  it("--out without an extension writes that very file and says so; stdout has each coin's best variants in sample as a table", async () => {
    const out = join(dir, "adir");
    // in this process (runMilabHere: runCli, what the binary calls); the binary's own runs are the Ctrl-C children above
    const r = await runMilabHere(["sweep", "--coins", "btc", "--hours", "96", "--grid", "0.25", "--thresholds", "0.1", "--out", out, "--quiet"]);
    expect(r.code, r.stderr).toBe(0);
    expect(csvRows(out)).toHaveLength(70);
    expect(existsSync(`${out}.csv`)).toBe(false);
    expect(r.stderr).toContain(`milab sweep: 70 variants written to ${out}\n`);
    expect(r.stdout).toContain("Data: embedded replay server (simulator seed 42); 96 bars of 60 min");
    expect(r.stdout).toMatch(/^BTC: 70 variants \(weight grid 0\.25 x thresholds 0\.1\), best in sample by Sharpe:$/m);
    expect(r.stdout).toMatch(/^1\s+-?\d+\.\d\d\s/m);
  }, scaledMs(120_000));

  it("--out naming a folder fails at once with exit 2 and a clear message, not an unexpected error", async () => {
    const out = join(dir, "a-folder");
    mkdirSync(out);
    // refused before the history is loaded: in this process (runMilabHere)
    const r = await runMilabHere(["sweep", "--coins", "btc", "--hours", "96", "--grid", "0.25", "--thresholds", "0.1", "--out", out, "--quiet"]);
    // checked before the sweep runs (src/cli/checkOutputPath.ts); the writer's EISDIR message stays for a race
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--out must be a file, got the folder ${out}`);
    expect(r.stderr).not.toContain("unexpected error");
    expect(readdirSync(dir).filter((f) => f.startsWith(".tmp-"))).toEqual([]);
  }, scaledMs(120_000));
});

describe("milab record", () => {
  it("exits 130 on Ctrl-C, with what it polled on disk", async () => {
    const server = await startReplayServer({ port: 0, seed: 42 });
    try {
      const rec = join(dir, "rec");
      const r = await runInterrupted(["record", "--dir", rec, "--every", "1", "--endpoints", "composite", "--base-url", server.url], [{ on: /wrote|new|appended|composite/i, delayMs: 1500 }]);
      expect(r.signal, r.stderr).toBeNull();
      expect(r.code, r.stderr).toBe(130);
      expect(readdirSync(join(rec, "composite")).some((f) => f.endsWith(".jsonl"))).toBe(true);
    } finally {
      await server.close();
    }
  }, scaledMs(60_000));
});
