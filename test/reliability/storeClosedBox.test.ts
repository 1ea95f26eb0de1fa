/**
 * A store is a closed box (issue 31, defect 4): folders of a store that are
 * symbolic links (as a store unpacked from someone else's tarball may carry)
 * are refused with UnsafeStorePathError naming them, before any byte is
 * written or deleted, by saves, reads, SQL and compaction. Before the fix one
 * saveHistory through a `day=` link wrote there and deleted every other
 * `.parquet` file of the user's folder, a `coin=` link made saves write
 * outside the store, and an `endpoint=` link made every query fail with an
 * error blaming the SQL. Reference: the outside folder's listing and bytes,
 * taken before, compared after.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UnsafeStorePathError } from "../../src/errors/index.js";
import { compactRecording, openStore } from "../../src/store/index.js";

const root = mkdtempSync(join(tmpdir(), "milab-rel-box-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const T0 = Date.UTC(2026, 10, 1);

/** A user's folder outside the store, with two Parquet-named files and a note; returns a fingerprint of it. */
function userFolder(name: string): { dir: string; fingerprint: () => string } {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "mine.parquet"), "my own data");
  writeFileSync(join(dir, "other.parquet"), "more of my data");
  writeFileSync(join(dir, "note.txt"), "keep");
  const fingerprint = (): string => JSON.stringify(readdirSync(dir, { recursive: true }).sort().map((f) => [f, (() => { try { return readFileSync(join(dir, String(f)), "utf8"); } catch { return "<dir>"; } })()]));
  return { dir, fingerprint };
}

async function refusedNaming(p: Promise<unknown>, path: string): Promise<void> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(UnsafeStorePathError);
  expect((err as UnsafeStorePathError).path).toBe(path);
  expect((err as Error).message).toContain(path);
}

describe("symbolic links in a store", () => {
  it("a day= folder linked to a user's folder: saveHistory, readHistory and SQL refuse it by name; the folder is untouched", async () => {
    const user = userFolder("user-day");
    const before = user.fingerprint();
    const dir = join(root, "store-day");
    const store = openStore(dir);
    await store.saveHistory({ metricId: "btc_price", time: [T0 + 86_400_000], value: [1] });
    const link = join(dir, "endpoint=history/coin=btc/day=2026-11-01");
    symlinkSync(user.dir, link);
    await refusedNaming(store.saveHistory({ metricId: "btc_price", time: [T0], value: [2] }), link);
    await refusedNaming(store.readHistory({ metricId: "btc_price" }), link);
    await refusedNaming(store.queryColumns("select * from history"), link);
    expect(user.fingerprint()).toBe(before);
    store.close();
  });

  it("a coin= folder linked outside: saves refuse it; nothing is written there", async () => {
    const user = userFolder("user-coin");
    const before = user.fingerprint();
    const dir = join(root, "store-coin");
    mkdirSync(join(dir, "endpoint=history"), { recursive: true });
    const link = join(dir, "endpoint=history/coin=eth");
    symlinkSync(user.dir, link);
    const store = openStore(dir);
    await refusedNaming(store.saveHistory({ metricId: "eth_price", time: [T0], value: [2] }), link);
    await refusedNaming(store.readHistory({ metricId: "eth_price" }), link);
    expect(user.fingerprint()).toBe(before);
    store.close();
  });

  it("an endpoint= folder linked outside: SQL refuses it by name (not the query), saves too", async () => {
    const user = userFolder("user-endpoint");
    const before = user.fingerprint();
    const dir = join(root, "store-endpoint");
    mkdirSync(dir, { recursive: true });
    const link = join(dir, "endpoint=history");
    symlinkSync(user.dir, link);
    const store = openStore(dir);
    await refusedNaming(store.queryColumns("select 1 as x"), link);
    await refusedNaming(store.saveHistory({ metricId: "btc_price", time: [T0], value: [2] }), link);
    await refusedNaming(store.loadRecording(), link);
    expect(user.fingerprint()).toBe(before);
    store.close();
  });

  it("a pipe among a day's files: SQL refuses it by name", async () => {
    const dir = join(root, "store-fifo");
    const store = openStore(dir);
    await store.saveHistory({ metricId: "btc_price", time: [T0], value: [1] });
    const fifo = join(dir, "endpoint=history/coin=btc/day=2026-11-01/x.parquet");
    const made = spawnSync("mkfifo", [fifo]);
    expect(made.status).toBe(0);
    await refusedNaming(store.queryColumns("select * from history"), fifo);
    store.close();
  });

  it("compaction into a store whose day= partition is a link refuses it; the recording and the folder are untouched", async () => {
    const user = userFolder("user-compact");
    const before = user.fingerprint();
    const rec = join(root, "rec");
    mkdirSync(join(rec, "composite"), { recursive: true });
    const line = `{"key":"2026-11-01T00:00:00.000Z","endpoint":"composite","time":${T0},"fetched_at":${T0},"body":{"timestamp":"2026-11-01T00:00:00Z","signals":[]}}\n`;
    writeFileSync(join(rec, "composite", "2026-11-01.jsonl"), line);
    mkdirSync(join(rec, "store", "endpoint=composite"), { recursive: true });
    const link = join(rec, "store", "endpoint=composite", "day=2026-11-01");
    symlinkSync(user.dir, link);
    await refusedNaming(compactRecording(rec, { clock: () => T0 + 10 * 86_400_000 }), link);
    expect(readFileSync(join(rec, "composite", "2026-11-01.jsonl"), "utf8")).toBe(line);
    expect(user.fingerprint()).toBe(before);
  });
});
