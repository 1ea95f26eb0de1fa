/**
 * Issue 13 defect 7: the recorder's disk errors, injected into node:fs (the
 * tests run as root, for whom a read-only mode bit does not stop a write): a
 * full disk mid-run and a read-only file system are typed
 * (RecordingWriteError with the errno), logged, and stop the recorder; the
 * lock is released and no request is sent after the error.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createClient } from "../../src/api/index.js";
import { RecordingWriteError } from "../../src/errors/index.js";
import { loadRecording, record, type RecordLog } from "../../src/load/index.js";
import { startFixtureServer } from "../api/helpers/fixtureServer.js";

const inject = vi.hoisted(() => ({ write: undefined as string | undefined, open: undefined as string | undefined }));
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const fail = (code: string, op: string): never => {
    throw Object.assign(new Error(`${code}: injected, ${op}`), { code });
  };
  return {
    ...fs,
    writeSync: ((...args: Parameters<typeof fs.writeSync>) => (inject.write === undefined ? fs.writeSync(...args) : fail(inject.write, "write"))) as typeof fs.writeSync,
    openSync: ((...args: Parameters<typeof fs.openSync>) =>
      inject.open !== undefined && args[1] === "a" ? fail(inject.open, "open") : fs.openSync(...args)) as typeof fs.openSync,
  };
});

const root = mkdtempSync(join(tmpdir(), "milab-recdisk-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("recorder disk errors", () => {
  it.each([
    ["disk full while appending", "write", "ENOSPC", /free disk space/],
    ["read-only file system", "open", "EROFS", /make the folder writable/],
  ] as const)("%s: RecordingWriteError (%s -> %s), logged, recorder stopped, lock released", async (_name, where, code, hint) => {
    const ts = Date.UTC(2026, 10, 23, 12);
    let n = 0;
    const s = await startFixtureServer(() => ({ body: { timestamp: new Date(ts + 60_000 * n++).toISOString(), signals: [] } }));
    try {
      const dir = join(root, code);
      const logs: RecordLog[] = [];
      const client = createClient({ baseUrl: s.url, cacheTtlMs: 0, rateLimitPerMinute: 100_000 });
      const rec = record(client, { dir, endpoints: ["composite"], everySeconds: 0.02, onLog: (l) => logs.push(l) });
      while (logs.filter((l) => l.event === "write").length < 3) await new Promise((r) => setTimeout(r, 5));
      inject[where] = code;
      const err = await rec.done.catch((e: unknown) => e);
      inject[where] = undefined;
      expect(err).toBeInstanceOf(RecordingWriteError);
      expect((err as RecordingWriteError).errno).toBe(code);
      expect((err as Error).message).toMatch(hint);
      expect((err as RecordingWriteError).path).toContain(join(dir, "composite"));
      const disk = logs.filter((l) => l.event === "disk-error");
      expect(disk).toHaveLength(1);
      expect(disk[0]?.level).toBe("error");
      expect(existsSync(join(dir, ".lock"))).toBe(false);
      const requests = n;
      await new Promise((r) => setTimeout(r, 100));
      expect(n).toBe(requests);
      // What was acknowledged is there; the recorder resumes on the same folder.
      expect(loadRecording(dir).stats.records).toBe(logs.filter((l) => l.event === "write").length);
      const again = await record(client, { dir, endpoints: ["composite"], maxPolls: 1 }).done;
      expect(again.written).toBe(1);
    } finally {
      await s.close();
    }
  });
});
