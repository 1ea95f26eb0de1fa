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
