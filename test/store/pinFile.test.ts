/**
 * pinFile, the hard link by which a SQL query pins a store file (issue 31,
 * the 2-writer SQL flake): a file that writers keep replacing by rename is
 * never reported gone. Before the fix, `link` failing with ENOENT (Linux
 * resolves the name to the old file, whose last link the rename removes
 * before linking) was taken for "deleted", and a query found no history file
 * at all: 62 ENOENT in 40,786 links beside 1,350 renames measured by hand.
 */
import { spawn } from "node:child_process";
import { scaledMs } from "../support/timeScale.js";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { pinFile } from "../../src/store/querySnapshot.js";

const here = dirname(fileURLToPath(import.meta.url));
const root = mkdtempSync(join(tmpdir(), "milab-pinfile-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("pinFile", () => {
  it("links a file being replaced by rename every time (5,000 renames beside it): never reported gone", { timeout: scaledMs(120_000) }, async () => {
    const target = join(root, "part-0.parquet");
    writeFileSync(target, "version -1\n");
    const child = spawn(process.execPath, ["--import", "tsx", join(here, "helpers", "renameLoop.ts"), target, "5000"], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    let exited = false;
    const done = new Promise<number | null>((resolve) => child.on("exit", (code) => ((exited = true), resolve(code))));
    const pins = join(root, "pins");
    mkdirSync(pins);
    let links = 0;
    let gone = 0;
    while (!exited) {
      for (let i = 0; i < 200; i++) {
        const to = join(pins, `p${links}`);
        if (pinFile(target, to)) {
          expect(readFileSync(to, "utf8")).toMatch(/^version -?\d+\n$/);
          rmSync(to);
        } else gone++;
        links++;
      }
      await new Promise((r) => setImmediate(r));
    }
    expect(await done).toBe(0);
    expect(out).toContain("done 5000");
    console.log(`store: pinFile beside 5,000 renames: ${links} links, ${gone} reported gone`);
    expect(gone).toBe(0);
  });

  it("reports a file that was deleted as gone (false), and links nothing", () => {
    const to = join(root, "never");
    expect(pinFile(join(root, "no-such.parquet"), to)).toBe(false);
    expect(existsSync(to)).toBe(false);
  });
});
