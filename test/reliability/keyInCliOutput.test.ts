/**
 * The API key never reaches the terminal (issue 31, defect 8): a service
 * that answers every request with the key in its time fields (as a
 * same-origin redirect that echoes the request can) makes `milab backtest`
 * and `milab export` fail; their stdout and stderr must not hold the key.
 * Before the fix both printed an InvalidTimeError quoting it. Runs the
 * built CLI (dist/).
 */
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMilab } from "../cli/helpers/runMilab.js";
import { scaledMs } from "../support/timeScale.js";

const KEY = "sk-live-4c1d9e0f7ab2";
const out = mkdtempSync(join(tmpdir(), "milab-rel-cli-key-"));
let server: Server;
let url = "";
beforeAll(async () => {
  server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ metric_id: "btc_price", timestamp: KEY, data: [{ time: KEY, timestamp: KEY, value: 1 }], points: [{ time: KEY, value: 1 }] }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const a = server.address();
  url = `http://127.0.0.1:${typeof a === "object" && a !== null ? a.port : 0}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(out, { recursive: true, force: true });
});

describe("the key in a service's time fields", () => {
  it("milab backtest fails without printing the key", { timeout: scaledMs(120_000) }, async () => {
    const r = await runMilab(["backtest", "--json", "--coins", "btc", "--hours", "48", "--no-real-data", "--no-variants"], { MI_BASE_URL: url, MI_API_KEY: KEY });
    console.log(`reliability: milab backtest against a key-echoing service: exit ${r.code}; stderr: ${r.stderr.trim().slice(0, 160)}`);
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).not.toContain(KEY);
    expect(r.stderr).toMatch(/REDACTED|milab:/);
  });

  it("milab export fails without printing the key", { timeout: scaledMs(120_000) }, async () => {
    const r = await runMilab(["export", "history", "--coins", "btc", "--hours", "48", "--out", join(out, "x")], { MI_BASE_URL: url, MI_API_KEY: KEY });
    console.log(`reliability: milab export against a key-echoing service: exit ${r.code}; stderr: ${r.stderr.trim().slice(0, 160)}`);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^milab: /);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });
});
