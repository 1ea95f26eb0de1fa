/**
 * `milab record` (src/cli/commands/record.ts) through commander, against the
 * replay server: options parsed and checked, the recording written, log
 * lines on stderr.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { recordCommand } from "../../src/cli/commands/record.js";
import { MarketIntelError } from "../../src/errors/index.js";
import { runMilab } from "../cli/helpers/runMilab.js";
import { loadRecording } from "../../src/load/index.js";
import { startReplayServer, type ReplayServer } from "../../src/server/index.js";

let server: ReplayServer;
const dir = mkdtempSync(join(tmpdir(), "milab-reccli-"));
beforeAll(async () => {
  server = await startReplayServer({ clock: () => Date.UTC(2026, 10, 22, 12, 0, 30), rateLimitPerMinute: 0 });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = async (args: string[]): Promise<{ err: string; error?: Error }> => {
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stderr, "write").mockImplementation((c: string | Uint8Array) => (chunks.push(String(c)), true));
  const cmd = recordCommand().exitOverride().configureOutput({ writeErr: (s) => chunks.push(s), writeOut: () => undefined });
  try {
    await cmd.parseAsync(args, { from: "user" });
    return { err: chunks.join("") };
  } catch (error) {
    return { err: chunks.join(""), error: error as Error };
  } finally {
    spy.mockRestore();
  }
};

describe("milab record", () => {
  it("is a commander Command named record, built without side effects", () => {
    const cmd = recordCommand();
    expect(cmd.name()).toBe("record");
    expect(cmd.options.map((o) => o.long)).toEqual(["--dir", "--every", "--endpoints", "--base-url", "--max-polls", "--fsync", "--quiet"]);
  });

  it("records the chosen endpoints and logs to stderr", async () => {
    const out = join(dir, "a");
    const { err, error } = await run(["--dir", out, "--base-url", server.url, "--endpoints", "composite,regime", "--max-polls", "1", "--every", "1"]);
    expect(error).toBeUndefined();
    expect(readdirSync(out).sort()).toEqual(["composite", "regime"]);
    expect(err).toMatch(/info recording composite, regime every 1 s into/);
    expect(err).toMatch(/composite 2026-11-22T12:00:00.000Z: appended to/);
    expect(loadRecording(out).stats.records).toBe(2);
  });

  it("--endpoints all; --quiet keeps only start/stop and problems", async () => {
    const out = join(dir, "b");
    const { err, error } = await run(["--dir", out, "--base-url", server.url, "--endpoints", "all", "--max-polls", "1", "--quiet"]);
    expect(error).toBeUndefined();
    expect(readdirSync(out).length).toBe(15);
    expect(err).not.toMatch(/appended/);
    expect(err).toMatch(/stopped after 1 polls: 15 written/);
  });

  it("rejects bad options with one line naming the option", async () => {
    expect((await run(["--dir", dir, "--every", "0.5"])).err).toMatch(/every must be a number 1..86400, got 0.5/);
    expect((await run(["--dir", dir, "--endpoints", "history"])).err).toMatch(/endpoints must be "all" or a comma list of snapshot, volatility/);
    expect((await run(["--every", "5"])).err).toMatch(/required option '--dir <dir>' not specified/);
  });
});

describe("milab record failures (issue 13 defect 9)", () => {
  it("fails (a MarketIntelError, exit code 1) when every request failed", async () => {
    const down = await startReplayServer({ clock: () => Date.UTC(2026, 10, 22, 12, 0, 30), rateLimitPerMinute: 0, faults: { errorRate: 1, errorStatus: 404 } });
    try {
      const { err, error } = await run(["--dir", join(dir, "c"), "--base-url", down.url, "--endpoints", "composite,regime", "--max-polls", "2", "--every", "1"]);
      expect(error).toBeInstanceOf(MarketIntelError);
      expect((error as MarketIntelError).code).toBe("NOTHING_RECORDED");
      expect(error?.message).toMatch(/every request failed \(4 of 4\)/);
      expect(err).toMatch(/HTTP 404/);
    } finally {
      await down.close();
    }
  });

  it("the built milab exits 1 when every request failed, and never prints the API key", async () => {
    const down = await startReplayServer({ clock: () => Date.UTC(2026, 10, 22, 12, 0, 30), rateLimitPerMinute: 0, faults: { errorRate: 1, errorStatus: 401 } });
    try {
      const KEY = "sk-cli-secret-42";
      const { code, stderr, stdout } = await runMilab(["record", "--dir", join(dir, "d"), "--base-url", down.url, "--endpoints", "composite", "--max-polls", "1"], { MI_API_KEY: KEY });
      expect(code).toBe(1);
      // In CLI terms: no library function prefix, and "every" is not the --every flag.
      expect(stderr).toMatch(/milab: every request failed/);
      expect(`${stdout}${stderr}`).not.toContain(KEY);
    } finally {
      await down.close();
    }
  });
});
