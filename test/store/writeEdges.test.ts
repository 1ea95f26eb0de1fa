import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPanel } from "../../src/data/index.js";
import { FileWriteError, InvalidTimeError } from "../../src/errors/index.js";
import { createManifest, openStore, writeCsv } from "../../src/store/index.js";
import { writeFileAtomic } from "../../src/store/writeFileAtomic.js";

const root = mkdtempSync(join(tmpdir(), "milab-write-edges-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** What a call threw (undefined when it did not). */
async function thrown(f: () => unknown): Promise<unknown> {
  try {
    await f();
  } catch (e) {
    return e;
  }
  return undefined;
}

// A Date holds ±8.64e15 ms (ECMA-262 §21.4.1.1); beyond it toISOString throws RangeError.
const OUTSIDE = [1e300, -1e300, 8.64e15 + 1, Number.POSITIVE_INFINITY, Number.NaN];

describe("times outside a Date's range are typed errors where the store writes times", () => {
  for (const t of OUTSIDE) {
    it(`time ${t}: writeCsv, createManifest and saveHistory throw InvalidTimeError naming the function and the row`, async () => {
      const csv = await thrown(() => writeCsv(join(root, "t.csv"), { time: Float64Array.of(0, t), columns: { x: Float64Array.of(1, 2) } }));
      expect(csv).toBeInstanceOf(InvalidTimeError);
      expect((csv as Error).message).toMatch(/^writeCsv: time at row 1 must be a time from/);
      const manifest = await thrown(() => createManifest({ kind: "backtest", options: { time: Float64Array.of(0, t), close: Float64Array.of(1, 2) } }));
      expect(manifest).toBeInstanceOf(InvalidTimeError);
      expect((manifest as Error).message).toMatch(/^createManifest: time at row 1/);
      const store = openStore(join(root, "store"));
      const save = await thrown(() => store.saveHistory({ metricId: "btc_price", time: [0, t], value: [1, 2] }));
      expect(save).toBeInstanceOf(InvalidTimeError);
      expect((save as Error).message).toMatch(/^store\.saveHistory: time at row 1/);
      store.close();
    });
  }

  it("the edges of a Date's range are written (ISO 8601 with a six-digit year)", async () => {
    const path = join(root, "edges.csv");
    await writeCsv(path, createPanel([-8.64e15, 8.64e15], { x: [1, 2] }));
    // new Date(±8.64e15).toISOString() in any JavaScript engine
    expect(readFileSync(path, "utf8")).toBe("time,x\n-271821-04-20T00:00:00.000Z,1\n+275760-09-13T00:00:00.000Z,2\n");
  });
});

describe("writeFileAtomic", () => {
  it("a name as long as the file system allows (255 bytes) is written: the temporary name is short", () => {
    const path = join(root, `${"a".repeat(247)}.parquet`);
    writeFileAtomic(path, Buffer.from("x"));
    expect(readFileSync(path, "utf8")).toBe("x");
  });

  it("a failed write (the path is a folder) is a FileWriteError with EISDIR and leaves no temporary file", async () => {
    const dir = join(root, "fail");
    mkdirSync(join(dir, "out.csv"), { recursive: true });
    const err = await thrown(() => writeCsv(join(dir, "out.csv"), createPanel([0], { x: [1] })));
    expect(err).toBeInstanceOf(FileWriteError);
    expect((err as FileWriteError).errno).toBe("EISDIR");
    expect((err as Error).message).toBe(`writeCsv: could not write ${join(dir, "out.csv")} (EISDIR): it is a folder: give a file path`);
    expect(readdirSync(dir)).toEqual(["out.csv"]);
  });

  it("a temporary file a killed writer left is removed by the next write into its folder once it is an hour old; a young one is kept", () => {
    const dir = join(root, "sweep");
    mkdirSync(dir, { recursive: true });
    const old = join(dir, ".tmp-12345-aaaaaaaaaaaa");
    const young = join(dir, ".tmp-12345-bbbbbbbbbbbb");
    const oldStyle = join(dir, ".tmp-part-0.parquet-12345-cccccccc");
    for (const p of [old, young, oldStyle]) writeFileSync(p, "partial");
    const twoHoursAgo = (Date.now() - 2 * 3_600_000) / 1000;
    utimesSync(old, twoHoursAgo, twoHoursAgo);
    utimesSync(oldStyle, twoHoursAgo, twoHoursAgo);
    writeFileAtomic(join(dir, "part-0.parquet"), Buffer.from("x"));
    expect(existsSync(old)).toBe(false);
    expect(existsSync(oldStyle)).toBe(false);
    expect(existsSync(young)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual([".tmp-12345-bbbbbbbbbbbb", "part-0.parquet"]);
  });

  it("FileWriteError says what to do for each common system error", () => {
    const of = (code: string): string => new FileWriteError("writeCsv", "/x/out.csv", Object.assign(new Error(code), { code })).message;
    expect(of("ENOSPC")).toBe("writeCsv: could not write /x/out.csv (ENOSPC): the disk is full: free space or choose another disk");
    expect(of("EROFS")).toBe("writeCsv: could not write /x/out.csv (EROFS): the file system is read-only: choose a writable folder");
    expect(of("EACCES")).toMatch(/permission denied/);
    expect(of("ENAMETOOLONG")).toMatch(/too long/);
    expect(new FileWriteError("w", "/p", new Error("no code")).errno).toBe("UNKNOWN");
  });
});
