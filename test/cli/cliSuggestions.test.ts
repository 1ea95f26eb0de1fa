/**
 * The CLI names what is wrong (issue 30 item 4): an unknown flag gets the nearest real flag
 * by edit distance over the command's flags and their words (`--fees` -> `--fee-bps`, where
 * commander alone said `--seed`), and a bad list names every bad item (`--coins btc,doge`
 * names "doge"). Run in process (runCli), usage errors exit 2 before any work starts.
 */
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/runCli.js";
import { nearestName } from "../../src/options/nearestName.js";

async function run(args: string[]): Promise<{ code: number; stderr: string }> {
  const chunks: string[] = [];
  const write = process.stderr.write;
  const out = process.stdout.write;
  process.stderr.write = ((s: string | Uint8Array) => (chunks.push(String(s)), true)) as typeof process.stderr.write;
  process.stdout.write = (() => true) as typeof process.stdout.write;
  try {
    return { code: await runCli(args), stderr: chunks.join("") };
  } finally {
    process.stderr.write = write;
    process.stdout.write = out;
  }
}

describe("milab suggests the real flag", () => {
  it.each([
    [["report", "--fees", "5"], "--fee-bps"],
    [["backtest", "--fee", "5"], "--fee-bps"],
    [["backtest", "--slipage-bps", "2"], "--slippage-bps"],
    [["report", "--coin", "btc"], "--coins"],
  ])("%j -> %s", async (args, flag) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: unknown option '${args[1]}'\n(Did you mean ${flag}?)`);
    expect(r.stderr).not.toContain("--seed?");
  });

  it("suggests nothing when no flag is near", async () => {
    const r = await run(["report", "--banana", "1"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("error: unknown option '--banana'");
    expect(r.stderr).not.toContain("Did you mean");
  });

  it("nearestName prefers a flag whose word is one edit away over a whole flag two edits away", () => {
    expect(nearestName("--fees", ["--seed", "--fee-bps"])).toBe("--fee-bps");
    expect(nearestName("--sed", ["--seed", "--fee-bps"])).toBe("--seed");
  });
});

describe("milab names every bad list item", () => {
  it("names the coin it does not know, and each of several", async () => {
    const one = await run(["backtest", "--coins", "btc,doge"]);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('"doge" is not one (got btc,doge)');
    const two = await run(["backtest", "--coins", "doge,eth,xrp"]);
    expect(two.stderr).toContain('"doge", "xrp" are not (got doge,eth,xrp)');
  });

  it("names each bad threshold, an empty one as \"\"", async () => {
    const r = await run(["sweep", "--thresholds", "0.1,2,,0.2"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"2", "" are not (got 0.1,2,,0.2)');
  });
});

describe("milab checks its outputs before the work starts", () => {
  it("refuses --out <a folder> at once, exit 2, naming the fix (the study is not run)", async () => {
    const { mkdtempSync, rmSync, writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "milab-out-"));
    try {
      const r = await run(["report", "--out", dir, "-q"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--out must be a file, got the folder ${dir}`); // src/cli/checkOutputPath.ts, the one output check
      writeFileSync(join(dir, "plain"), "x");
      const under = await run(["report", "--out", join(dir, "plain", "r.html"), "-q"]);
      expect(under.code).toBe(2);
      expect(under.stderr).toContain(`${join(dir, "plain")} is a file, not a folder`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
