/**
 * The built `milab` command line, run as a child process: help on every
 * command, exit codes and one-line messages on bad input (no stack trace),
 * `backtest --json` checked for internal consistency and reproducibility,
 * the live-service path against a replay server (the API key never printed),
 * and `serve` answering requests until Ctrl-C.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReplayServer, type ReplayServer } from "../../src/server/index.js";
import { MAIN, runMilab } from "./helpers/runMilab.js";
import { runMilabHere } from "./helpers/runMilabHere.js";
import { scaledMs } from "../support/timeScale.js";

const COMMANDS = ["demo", "serve", "backtest", "report", "seeds", "record", "export"];

describe.concurrent("milab --help", () => {
  it("lists every command (the built binary, a child process)", async () => {
    const r = await runMilab(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Usage: milab [options] [command]");
    for (const c of COMMANDS) expect(r.stdout).toMatch(new RegExp(`^\\s+${c} `, "m"));
  });
  // parsing only: in this process (runMilabHere), no child's 0.7 s of module loading each
  it.each(COMMANDS)("%s --help documents its options and exits 0", async (cmd) => {
    const r = await runMilabHere([cmd, "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Usage: milab ${cmd}`);
    expect(r.stdout).toContain("-h, --help");
  });
  it("backtest --help names the strategy and cost options", async () => {
    const r = await runMilabHere(["backtest", "--help"]);
    for (const o of ["--coins", "--weights", "--threshold", "--fee-bps", "--slippage-bps", "--fill", "--sizing", "--hours", "--bar", "--json"]) expect(r.stdout).toContain(o);
  });
});

describe.concurrent("bad input: exit code 2 and one clear line, no stack trace", () => {
  const cases: [string[], string][] = [
    [["serve", "--port", "-3"], "port must be an integer 0..65535, got -3"],
    [["backtest", "--coins", "btc,doge"], "coins must be a comma-separated list of BTC, ETH, SOL, HYPE"],
    [["backtest", "--threshold", "1.5"], "threshold must be a number 0..1, got 1.5"],
    [["backtest", "--hours", "721"], "hours must be an integer 2..720, got 721"],
    [["backtest", "--fill", "vwap"], "fill must be one of next_close, next_open, got vwap"],
    [["backtest", "--weights", "imbalance=0.5,funding=0.6"], "sum to 1"],
    [["backtest", "--weights", "volume=1"], 'unknown component "volume"'],
    [["backtest", "--clock", "yesterday"], 'clock must be "now", an ISO date'],
    [["backtest", "--bogus"], "unknown option '--bogus'"],
    [["frobnicate"], "unknown command 'frobnicate'"],
    [["seeds"], "required option '--seeds <list>' not specified"],
    [["seeds", "--seeds", "5-1"], "seeds: a range must ascend, got 5-1"],
    [["seeds", "--seeds", "1", "--base-url", "http://127.0.0.1:9"], "unknown option '--base-url'"], // seeds runs on the embedded server only
    [["demo", "--base-url", "ftp://example.com"], 'milab: --base-url must use http or https, got "ftp:"'],
  ];
  // parsing only: in this process (runMilabHere); the built binary's exit code 2 is checked by a child below
  it.each(cases)("milab %j", async (args, message) => {
    const r = await runMilabHere(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe("");
  });
  it.each([[["backtest", "--threshold", "1.5"], "threshold must be a number 0..1, got 1.5"], [["frobnicate"], "unknown command 'frobnicate'"]])(
    "the built binary (a child process): milab %j exits 2 with one line",
    async (args, message) => {
      const r = await runMilab(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout).toBe("");
    },
  );
  it("a service that cannot be reached fails with exit code 1 and a one-line message", async () => {
    const r = await runMilabHere(["backtest", "--base-url", "http://127.0.0.1:9", "--coins", "btc", "--hours", "24", "--no-real-data"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^milab: /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("backtest --json", () => {
  // 48 hours (96 bars of 30 minutes): no assertion below depends on the length (it was 96 hours: ~1 s of CPU more per run, 4 runs)
  const args = ["backtest", "--json", "--coins", "btc,eth", "--hours", "48", "--bar", "30", "--no-real-data", "--cash", "1000"];
  let first: Record<string, unknown>;
  beforeAll(async () => {
    const r = await runMilab(args);
    expect(r.code, r.stderr).toBe(0);
    first = JSON.parse(r.stdout) as Record<string, unknown>;
  }, scaledMs(180_000));

  it("echoes the options and the period", () => {
    const o = first["options"] as Record<string, unknown>;
    expect(o["coins"]).toEqual(["BTC", "ETH"]);
    expect(o["barMinutes"]).toBe(30);
    expect(o["feeBps"]).toBe(5);
    expect(o["slippageBps"]).toBe(1);
    expect(o["initialCash"]).toBe(1000);
    expect(first["seed"]).toBe(42);
    const p = first["period"] as { start: string; end: string; bars: number };
    expect(p.end).toBe("2026-11-01T00:00:00.000Z");
    // 48 hours of 1-minute history from 2026-10-30T00:00Z (exclusive start) to the clock: 30-minute bars from 00:30 to the end
    expect(p.bars).toBe(48 * 2);
    expect(first["realData"]).toBeNull();
  });
  it("has one scorecard row per coin plus the portfolio, consistent with the final equity", () => {
    const rows = first["scorecard"] as { strategy: string; totalReturn: number; trades: number; feesPaid: number; winRate: number }[];
    expect(rows.map((r) => r.strategy)).toEqual(["BTC", "ETH", "Portfolio (2 coins)"]);
    const coins = first["coins"] as Record<string, { finalEquity: number; feesPaid: number; trades: number }>;
    for (const [i, c] of ["BTC", "ETH"].entries()) {
      const row = rows[i]!;
      expect(row.totalReturn).toBeCloseTo(coins[c]!.finalEquity / 1000 - 1, 12);
      expect(row.feesPaid).toBeGreaterThan(0);
      expect(row.winRate).toBeGreaterThanOrEqual(0);
      expect(row.winRate).toBeLessThanOrEqual(1);
      expect(coins[c]!.trades).toBeGreaterThanOrEqual(row.trades);
    }
    const pf = first["portfolio"] as { finalEquity: number };
    expect(rows[2]!.totalReturn).toBeCloseTo(pf.finalEquity / 1000 - 1, 12);
  });
  it("runs the what-if sweep: per coin your rule and the best of 3,006 variants, in and out of sample, with DSR and PBO", async () => {
    type Row = { coin: string; rule: string; inSampleSharpe: number; outOfSampleSharpe: number | null; dsr: number; pbo: number | null; trials: number; threshold: number; weights: string };
    const v = first["variants"] as Row[];
    // 1 + 1,001 weight vectors (yours, then the simplex at 0.1) x thresholds {0.1 (yours), 0.05, 0.2}
    expect(v.map((x) => `${x.coin}: ${x.rule}`)).toEqual(["BTC: your rule", "BTC: best of 3006 in sample", "ETH: your rule", "ETH: best of 3006 in sample"]);
    for (const [yours, best] of [[v[0]!, v[1]!], [v[2]!, v[3]!]] as [Row, Row][]) {
      expect(yours.weights).toBe("imbalance=0.3,funding=0.25,basis_spread=0.2,momentum_5m=0.15,gas=0.1");
      expect(yours.threshold).toBe(0.1);
      expect(yours.trials).toBe(1);
      expect(yours.pbo).toBeNull(); // NaN in JSON: no selection, no overfitting probability
      expect(best.inSampleSharpe).toBeGreaterThanOrEqual(yours.inSampleSharpe); // the winner is at least as good in sample
      expect(best.dsr).toBeGreaterThanOrEqual(0);
      expect(best.dsr).toBeLessThanOrEqual(1);
      expect(best.pbo).toBeGreaterThanOrEqual(0);
      expect(best.pbo).toBeLessThanOrEqual(1);
    }
    // your rule's in-sample Sharpe is the study's own backtest without the regime filter (the sweep has none);
    // run in this process (runMilabHere: runCli, what the binary calls), no child's module loading
    const plain = JSON.parse((await runMilabHere([...args, "--no-regime-filter", "--no-variants"])).stdout) as { scorecard: { sharpe: number }[] };
    expect(v[0]!.inSampleSharpe).toBeCloseTo(plain.scorecard[0]!.sharpe, 10);
    expect(v[2]!.inSampleSharpe).toBeCloseTo(plain.scorecard[1]!.sharpe, 10);
  }, scaledMs(180_000));
  it("is reproducible: the same options give byte-identical JSON (the binary's child and a run in this process)", async () => {
    const again = await runMilabHere(args);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(first);
  }, scaledMs(180_000));
  it("changes with the costs: zero fees pay zero fees", async () => {
    // the what-if sweep (--no-variants) is not read here: the scorecard's fees are
    const r = await runMilabHere([...args, "--fee-bps", "0", "--slippage-bps", "0", "--no-variants"]);
    const rows = (JSON.parse(r.stdout) as { scorecard: { feesPaid: number }[] }).scorecard;
    for (const row of rows) expect(row.feesPaid).toBe(0);
  }, scaledMs(180_000));
});

/**
 * The embedded replay server's BTC backtest over 24 hours (48 until 2026-11-28; the comparisons below hold at any length), seed 42 (the default) and the default clock: run once, read by
 * the seeds test (seed 42's scorecard in a `seeds` run) and the live-service test (the same numbers over HTTP). Run in
 * this process (runMilabHere); the `seeds` and live runs it is compared with are the binary's child processes.
 */
const EMBEDDED = ["backtest", "--json", "--coins", "btc", "--hours", "24", "--no-real-data", "--no-variants"];
let embeddedRun: Promise<{ seed: number; scorecard: unknown[] }> | undefined;
const embedded = (): Promise<{ seed: number; scorecard: unknown[] }> =>
  (embeddedRun ??= runMilabHere(EMBEDDED).then((r) => {
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { seed: number; scorecard: unknown[] };
  }));

describe("milab seeds", () => {
  it("runs the same rules on each seed: one scorecard per seed, different markets, reproducible per seed", async () => {
    const [r, single] = await Promise.all([runMilab(["seeds", "--seeds", "3,41-42", "--coins", "btc", "--hours", "24", "--json"]), embedded()]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { seeds: { seed: number; rows: { strategy: string; buyHoldReturn: number; totalReturn: number }[] }[] };
    expect(out.seeds.map((s) => s.seed)).toEqual([3, 41, 42]);
    const bh = out.seeds.map((s) => s.rows[0]!.buyHoldReturn);
    expect(new Set(bh).size).toBe(3);
    expect(single.seed).toBe(42);
    expect(out.seeds[2]!.rows).toEqual(single.scorecard);
  });
});

describe("live service path (--base-url / MI_BASE_URL)", () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer({ seed: 42, clock: () => Date.UTC(2026, 10, 1), rateLimitPerMinute: 0 });
  });
  afterAll(async () => server.close());

  it("runs against the given service, gives the embedded run's numbers for the same seed and clock, never prints the key", async () => {
    const secret = "sk-test-7f3a9c2b1d";
    const [live, local] = await Promise.all([runMilab(EMBEDDED, { MI_BASE_URL: server.url, MI_API_KEY: secret }), embedded()]);
    expect(live.code, live.stderr).toBe(0);
    expect(live.stdout + live.stderr).not.toContain(secret);
    const parsed = JSON.parse(live.stdout) as { live: boolean; source: string; scorecard: unknown };
    expect(parsed.live).toBe(true);
    expect(parsed.source).toBe(`live service ${server.url}`);
    expect(parsed.scorecard).toEqual(local.scorecard);
  });
});

/** A running `milab serve` child: its URL (from stdout), its output so far, and a stop that sends SIGINT and waits for the exit code. */
interface ServeChild {
  readonly url: string;
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly stop: () => Promise<number | null>;
}

async function startServe(args: readonly string[]): Promise<ServeChild> {
  const child = spawn(process.execPath, [MAIN, "serve", "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  // "close": after the exit and after stdout and stderr have ended, so the output is complete.
  const exited = new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
  const stop = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
    return exited;
  };
  let stdout = "";
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        stdout += d.toString();
        const m = /listening on (http:\/\/\S+:\d+)/.exec(stdout);
        if (m) resolve(m[1] as string);
      });
      void exited.then((code) => reject(new Error(`serve exited early with ${code}: ${stderr}`)));
    });
    return { url, stdout: () => stdout, stderr: () => stderr, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

describe("milab serve", () => {
  it("serves the API on the port it prints until SIGINT, then exits 0; on loopback it prints no warning", async () => {
    const serve = await startServe(["--clock", "2026-11-01", "--seed", "7"]);
    try {
      expect(serve.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const body = (await (await fetch(`${serve.url}/v1/snapshot`)).json()) as { catalog_total: number; metrics: { time_local: string }[] };
      expect(body.catalog_total).toBeGreaterThan(10);
      expect(body.metrics[0]?.time_local).toBe("2026-11-01T00:00:00.000Z");
    } finally {
      expect(await serve.stop()).toBe(0);
    }
    expect(serve.stderr()).not.toMatch(/warning/i);
  });

  // `--host localhost` and `--host 127.0.0.2` (loopback, so no warning) are not spawned again here: that the server
  // bound to them reports `loopback: true` is checked in process (test/server/replayServerHardening.test.ts, "host %s:
  // loopback is %s"; the names themselves in test/server/isLoopbackAddress.test.ts), and that `milab serve` prints
  // no warning when the server is loopback, by the default-host child above; --host reaching the server, by the
  // 0.0.0.0 child below. Each child costs ~1 s of CPU loading the CLI.

  it("--host 0.0.0.0 warns on stderr, in one line, that other machines can reach it; stdout and exit code as on loopback", async () => {
    const serve = await startServe(["--host", "0.0.0.0"]);
    try {
      expect(serve.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
      expect((await fetch(`${serve.url.replace("0.0.0.0", "127.0.0.1")}/v1/snapshot`)).status).toBe(200);
    } finally {
      expect(await serve.stop()).toBe(0);
    }
    expect(serve.stdout()).toMatch(/^replay server listening on http:\/\/0\.0\.0\.0:\d+ \(seed 42, wall clock\); Ctrl-C to stop\nuse it from another shell: /);
    expect(serve.stdout()).not.toMatch(/warning/i);
    const warnings = serve.stderr().split("\n").filter((line) => /warning/i.test(line));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("--host 0.0.0.0 is not a loopback address");
    expect(warnings[0]).toContain("reachable from other machines");
    expect(warnings[0]).toContain(serve.url);
  });
});

describe("a reader that closes the pipe early (milab --help | head -1)", () => {
  it("ends quietly with exit code 0, no EPIPE crash", async () => {
    const child = spawn(process.execPath, [MAIN, "backtest", "--help"], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    // like `head -1`: read the first chunk, then close our end of the pipe
    child.stdout.once("data", () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    expect(stderr).not.toContain("EPIPE");
    expect(code).toBe(0);
  });
});
