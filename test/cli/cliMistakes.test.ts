/**
 * Issue 30, item 6: the CLI's mistakes. Unknown flags get the nearest real flag
 * (`--fees` -> `--fee-bps`, where commander's own similarity said `--seed`);
 * every bad item of a list is named; an output that cannot be written is
 * refused before the study starts; the CLI's default cash is stated in --help.
 */
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/InvalidArgumentError.js";
import { checkOutputPath } from "../../src/cli/checkOutputPath.js";
import { nearestName } from "../../src/options/nearestName.js";

/** The CLI suggests flags by the library's one nearest-name rule (src/cli/suggestFlag.ts). */
const nearestFlag = (typed: string, flags: readonly string[]): string | undefined => nearestName(typed, flags);
import { runMilabHere } from "./helpers/runMilabHere.js";

const STUDY_FLAGS = ["--coins", "--seed", "--clock", "--base-url", "--hours", "--bar", "--weights", "--threshold", "--fee-bps", "--slippage-bps", "--fill", "--units", "--sizing", "--cash", "--json", "--help"];

describe("nearestFlag", () => {
  it.each([
    ["--fees", "--fee-bps"], // 1 edit from --fee (a word group of --fee-bps), 2 from --seed
    ["--feebps", "--fee-bps"], // one missing hyphen
    ["--coin", "--coins"],
    ["--COINS", "--coins"], // case-insensitive
    ["--slippage", "--slippage-bps"],
    ["--sed", "--seed"],
    ["--treshold", "--threshold"],
  ])("%s -> %s", (typed, want) => expect(nearestFlag(typed, STUDY_FLAGS)).toBe(want));

  it("suggests nothing for a name far from every flag, for an empty name and for no flags", () => {
    expect(nearestFlag("--zzzzzz", STUDY_FLAGS)).toBeUndefined();
    expect(nearestFlag("--", STUDY_FLAGS)).toBeUndefined();
    expect(nearestFlag("--fees", [])).toBeUndefined();
  });

  it("does not change the flag list", () => {
    const flags = [...STUDY_FLAGS];
    nearestFlag("--fees", flags);
    expect(flags).toEqual(STUDY_FLAGS);
  });
});

describe("checkOutputPath", () => {
  const dir = mkdtempSync(join(tmpdir(), "milab-out-"));
  const file = join(dir, "a.html");
  writeFileSync(file, "x");
  mkdirSync(join(dir, "sub"));
  const asFile = { option: "out", kind: "file", example: "-o out/report.html" } as const;
  const asFolder = { option: "out", kind: "folder", example: "--out out" } as const;

  it("accepts a new file in missing folders, an existing file, an existing or new folder", () => {
    expect(() => checkOutputPath(join(dir, "new", "deeper", "r.html"), asFile)).not.toThrow();
    expect(() => checkOutputPath(file, asFile)).not.toThrow();
    expect(() => checkOutputPath(join(dir, "sub"), asFolder)).not.toThrow();
    expect(() => checkOutputPath(join(dir, "new-folder"), asFolder)).not.toThrow();
  });

  it("refuses a folder for a file, a file for a folder, and a path under a file, naming the path", () => {
    expect(() => checkOutputPath(join(dir, "sub"), asFile)).toThrow(InvalidArgumentError);
    expect(() => checkOutputPath(join(dir, "sub"), asFile)).toThrow(`out must be a file, got the folder ${join(dir, "sub")}`);
    expect(() => checkOutputPath(file, asFolder)).toThrow(`out must be a folder, got the file ${file}`);
    expect(() => checkOutputPath(join(file, "r.html"), asFile)).toThrow(`${file} is a file, not a folder`);
  });
});

describe("milab: mistakes refused before any work", () => {
  const dir = mkdtempSync(join(tmpdir(), "milab-cli-"));

  it.each([
    [["backtest", "--fees", "5"], "(Did you mean --fee-bps?)"],
    [["report", "--coin", "btc"], "(Did you mean --coins?)"],
    [["backtest", "--coins", "btc,doge"], '"doge" is not one'],
    [["backtest", "--coins", "doge,btc,xrp"], '"doge", "xrp" are not'],
    [["backtest", "--weights", "imbalance=0.5,foo=0.2,bar=0.3"], 'unknown components "foo", "bar"'],
    [["backtest", "--weights", "imbalance=0.5,funding,gas=x"], 'not name=number: "funding", "gas=x"'],
  ])("milab %j -> exit 2 naming %s", async (args, text) => {
    // refused before any work: in this process (runMilabHere)
    const r = await runMilabHere(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(text);
    expect(r.stderr).not.toContain("--seed?");
  });

  // An unreachable --base-url: had the study started, the error would be a network one, not the output's.
  it.each([
    [["report", "--out", "FOLDER", "--base-url", "http://127.0.0.1:9"], "--out must be a file, got the folder FOLDER"],
    [["sweep", "--out", "FOLDER", "--base-url", "http://127.0.0.1:9", "--coins", "btc"], "--out must be a file, got the folder FOLDER"],
    [["demo", "--out", "FILE", "--base-url", "http://127.0.0.1:9"], "--out must be a folder, got the file FILE"],
  ])("milab %j refuses the output before loading anything", async (args, text) => {
    const file = join(dir, "f.txt");
    writeFileSync(file, "x");
    const sub = (s: string): string => s.replace("FOLDER", dir).replace("FILE", file);
    const r = await runMilabHere(args.map(sub));
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`milab: ${sub(text)} (e.g. ${args[0] === "report" ? "-o out/report.html" : args[0] === "sweep" ? "--out out/sweep.csv" : "--out out"})`);
    expect(r.stdout).toBe("");
  });

  it("--help states the CLI's default cash and the library's", async () => {
    const r = await runMilabHere(["backtest", "--help"]);
    const help = r.stdout.replace(/\s+/g, " ");
    expect(help).toMatch(/--cash <x> starting cash .*the library's backtest\(\) starts at 10,000\) \(default: 100000\)/);
  });

  it("the report states the CLI's default cash next to the library's, and not for a --cash of one's own", async () => {
    const a = join(dir, "a.html");
    const b = join(dir, "b.html");
    const base = ["report", "--coins", "btc", "--hours", "24", "--no-variants", "--no-real-data", "-q"];
    // in this process (runMilabHere: runCli, what the binary calls); the built binary's report is written by test/cli/demo.test.ts
    expect((await runMilabHere([...base, "-o", a])).code).toBe(0);
    expect((await runMilabHere([...base, "--cash", "5000", "-o", b])).code).toBe(0);
    expect(readFileSync(a, "utf8")).toContain("starting cash 100,000 (milab&#39;s default, --cash; the library&#39;s backtest() starts at 10,000)");
    const own = readFileSync(b, "utf8");
    expect(own).toContain("starting cash 5,000");
    expect(own).not.toContain("milab&#39;s default, --cash");
  }, 40 * 60_000);
});

