/** `milab paper` and `milab paper status` (the built CLI, dist/) against a replay server in live mode. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { readLedger } from "../../src/index.js";
import { runMilab } from "../cli/helpers/runMilab.js";
import { runMilabHere } from "../cli/helpers/runMilabHere.js";
import { liveServer, START, tempStore } from "./helpers.js";

vi.setConfig({ testTimeout: 300_000 });

let s: Awaited<ReturnType<typeof liveServer>>;
beforeAll(async () => {
  s = await liveServer();
});
afterAll(async () => {
  await s.close();
});

describe("milab paper", () => {
  it("paper-trades a strategy module with backtest options as flags, resumes on the second run, and status lists the ledger", async () => {
    const dir = tempStore();
    const file = join(dir, "up.mjs");
    writeFileSync(file, "export const strategy = (c) => c.close.map((x, i) => (i > 0 && x > c.close[i - 1] ? 1 : 0));\n");
    const args = ["paper", "--strategy", file, "--store", dir, "--base-url", s.server.url, "--start", String(START - 10 * 60_000), "--fee-bps", "5", "--stop-loss", "0.01", "--poll-ms", "20", "--rate-limit", "100000"];
    const a = await runMilab([...args, "--bars", "8"]);
    expect(a.stderr).toBe("");
    expect(a.code).toBe(0);
    expect(a.stdout).toContain("reconciled at start: equal over 0 bars");
    expect(a.stdout).toMatch(/^8 bars to 2026-10-31T23:57:00.000Z \| position \S+ \| equity \S+ \| last alarm none$/m);
    const b = await runMilab([...args, "--bars", "11"]);
    expect(b.code).toBe(0);
    expect(b.stdout).toContain("reconciled at start: equal over 8 bars");
    const ledger = readLedger(join(dir, "paper=btc-1m"));
    expect(ledger.rows).toHaveLength(11);
    // funding is charged by default, as milab backtest and sweep do (--no-funding turns it off)
    expect(ledger.header?.metrics).toContain("btc_funding_rate");
    expect(ledger.rows.every((r) => Number.isFinite(r.values["btc_funding_rate"]))).toBe(true);
    const off = await runMilab([...args, "--name", "nofunding", "--no-funding", "--bars", "3"]);
    expect(off.code).toBe(0);
    expect(readLedger(join(dir, "paper=nofunding")).header?.metrics).not.toContain("btc_funding_rate");
    // status only reads the store: in this process (runMilabHere); the three paper runs above are the binary's children
    const st = await runMilabHere(["paper", "status", "--store", dir]);
    expect(st.code).toBe(0);
    expect(st.stdout).toMatch(/^btc-1m: 11 bars to 2026-11-01T00:00:00.000Z \| position \S+ \| equity \S+ \| last alarm none$/m);
  });
  // refused before any bar: in this process (runMilabHere), no child's module loading
  it("refuses a missing store and a module without a strategy, in one line", async () => {
    const r = await runMilabHere(["paper", "--base-url", s.server.url]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("--store <dir> is required");
    const dir = tempStore();
    const file = join(dir, "none.mjs");
    writeFileSync(file, "export const x = 1;\n");
    const m = await runMilabHere(["paper", "--strategy", file, "--store", dir, "--base-url", s.server.url]);
    expect(m.code).not.toBe(0);
    expect(m.stderr).toContain("must export the strategy");
    expect(m.stderr).not.toContain("    at ");
  });
});
