/**
 * The CLI speaks CLI (issue 23 item 6): library messages put in flag terms by
 * one rule (inCliTerms), --help defaults as users type them and only the
 * options of each command, and CSV exports with one time format and
 * true/false. Unit checks of the rule, then the built `milab` as a child.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Option } from "commander";
import { afterAll, describe, expect, it } from "vitest";
import { flagFor, inCliTerms } from "../../src/cli/cliTerms.js";
import { optionHelp } from "../../src/cli/optionHelp.js";
import { runMilab } from "./helpers/runMilab.js";
import { runMilabHere } from "./helpers/runMilabHere.js";

const dir = mkdtempSync(join(tmpdir(), "milab-terms-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("inCliTerms: one rule from library option to flag", () => {
  const flags = ["--base-url", "--weights", "--fee-bps", "--cash", "--bar"];
  it("names an option by its kebab-case flag, or a renamed one, only when the command has it", () => {
    expect(flagFor("baseUrl", flags)).toBe("--base-url");
    expect(flagFor("feeBps", flags)).toBe("--fee-bps");
    expect(flagFor("initialCash", flags)).toBe("--cash");
    expect(flagFor("barMinutes", flags)).toBe("--bar");
    expect(flagFor("allowAnySum", flags)).toBeUndefined();
    expect(flagFor("baseUrl", [])).toBeUndefined();
  });
  it("drops the function prefix and a remedy only code can apply; the subject becomes its flag", () => {
    expect(inCliTerms("weights: weights must sum to 1, got 1.1 (pass allowAnySum: true to opt out)", flags)).toBe("--weights must sum to 1, got 1.1");
  });
  it("turns a code example into the flag and its value, and camel-case names into flags", () => {
    expect(inCliTerms('createClient: no service address: pass baseUrl (e.g. createClient({ baseUrl: "http://127.0.0.1:8080" })) or set MI_BASE_URL', flags)).toBe(
      "no service address: pass --base-url (e.g. --base-url http://127.0.0.1:8080) or set MI_BASE_URL",
    );
    expect(inCliTerms("GET http://x/v1/history?metric_id=btc_price failed: check baseUrl / MI_BASE_URL", flags)).toBe("GET http://x/v1/history?metric_id=btc_price failed: check --base-url / MI_BASE_URL");
  });
  it("leaves a message without library terms as it is, and one whose options have no flag", () => {
    expect(inCliTerms("hours must be an integer 2..720, got 721", flags)).toBe("hours must be an integer 2..720, got 721");
    expect(inCliTerms("createClient: baseUrl must use http or https", [])).toBe("baseUrl must use http or https");
    expect(inCliTerms("", flags)).toBe("");
  });
  it("turns a first word into a flag only when the message states a rule about it (not 'every request failed')", () => {
    const record = ["--every", "--base-url", "--endpoints"];
    expect(inCliTerms("record: every request failed (1 of 1), nothing was recorded: check baseUrl / MI_BASE_URL", record)).toBe(
      "every request failed (1 of 1), nothing was recorded: check --base-url / MI_BASE_URL",
    );
    expect(inCliTerms("record: every must be at least 1 s, got 0.5", record)).toBe("--every must be at least 1 s, got 0.5");
  });
});

describe("optionHelp: defaults as users type them", () => {
  it("shows a list comma-separated, a word unquoted, a described default as described, no default for a flag", () => {
    expect(optionHelp(new Option("--coins <list>", "coins").default(["BTC", "ETH"]))).toBe("coins (default: BTC,ETH)");
    expect(optionHelp(new Option("--fill <mode>", "fill").default("next_close"))).toBe("fill (default: next_close)");
    expect(optionHelp(new Option("--clock <time>", "clock").default(1793491200000, "2026-11-01"))).toBe("clock (default: 2026-11-01)");
    expect(optionHelp(new Option("--json", "as JSON").default(false))).toBe("as JSON");
    expect(optionHelp(new Option("--weights <list>", "weights"))).toBe("weights");
  });
});

// Messages and help only: in this process (runMilabHere); the CSV export runs the built milab as a child.
describe.concurrent("milab in CLI terms", () => {
  it("--weights summing to 1.1 names the flag, not allowAnySum", async () => {
    const r = await runMilabHere(["backtest", "--weights", "imbalance=0.6,funding=0.5"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--weights must sum to 1, got 1.1");
    expect(r.stderr).not.toContain("allowAnySum");
  });
  it("record without a base URL says --base-url, not createClient", async () => {
    const r = await runMilabHere(["record", "--dir", join(dir, "rec"), "--max-polls", "1"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("milab: no service address: pass --base-url (e.g. --base-url http://127.0.0.1:8080) or set MI_BASE_URL\n");
  });
  it("a connection error is not followed by the hint about coins without price history", async () => {
    const r = await runMilabHere(["backtest", "--base-url", "http://127.0.0.1:9", "--coins", "btc", "--hours", "24", "--no-real-data", "--no-variants"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("check --base-url / MI_BASE_URL");
    expect(r.stderr).not.toContain("leave that coin out");
  });
  it("--help shows the clock as an ISO date, coins as a comma list, words unquoted, no false flags", async () => {
    const r = await runMilabHere(["backtest", "--help"]);
    const help = r.stdout.replace(/\s+/g, " ");
    expect(help).toContain("(default: 2026-11-01)");
    expect(help).toContain("(default: BTC,ETH,SOL,HYPE)");
    expect(help).toContain("(default: next_close)");
    expect(help).not.toContain("1793491200000");
    expect(help).not.toContain('(default: "');
    expect(help).not.toContain("(default: false)");
  });
  it("--help lists only the options that apply: seeds has no --seed nor --base-url, export no --no-real-data", async () => {
    const seeds = (await runMilabHere(["seeds", "--help"])).stdout;
    for (const gone of ["--seed <n>", "--base-url", "--no-real-data", "--no-variants"]) expect(seeds).not.toContain(gone);
    expect(seeds).toContain("--seeds <list>");
    const exp = (await runMilabHere(["export", "--help"])).stdout;
    for (const gone of ["--no-real-data", "--no-variants"]) expect(exp).not.toContain(gone);
    expect(exp).toContain("--coins");
  });
  it("a report that cannot be written (its path is a folder) is one line saying what to do, exit 2 before the study, not an unexpected error", async () => {
    const out = join(dir, "report-folder.html");
    mkdirSync(out, { recursive: true });
    const r = await runMilabHere(["report", "--out", out, "--coins", "btc", "--hours", "24", "-q"]);
    expect(r.code).toBe(2); // checked before the study (src/cli/checkOutputPath.ts); the writer's EISDIR message stays for a race
    expect(r.stderr).toContain(`--out must be a file, got the folder ${out}`);
    expect(r.stderr).not.toContain("unexpected error");
  });
  it("CSV exports write every time as ISO 8601 UTC and flags as true/false; the bar table carries close and the composite", async () => {
    const out = join(dir, "csv");
    const r = await runMilab(["export", "backtest", "--format", "csv", "--out", out, "--coins", "btc", "--hours", "72", "-q"]);
    expect(r.code).toBe(0);
    const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
    const bars = readFileSync(join(out, "backtest-btc.csv"), "utf8").trim().split("\n");
    const head = bars[0]!.split(",");
    expect(head.slice(0, 3)).toEqual(["time", "close", "composite"]);
    expect(head).toContain("positions");
    for (const line of bars.slice(1)) expect(line.split(",")[0]).toMatch(iso);
    const trades = readFileSync(join(out, "trades-btc.csv"), "utf8").trim().split("\n");
    const th = trades[0]!.split(",");
    expect(trades.length).toBeGreaterThan(1);
    for (const line of trades.slice(1)) {
      const cells = line.split(",");
      expect(cells[th.indexOf("entry_time")]).toMatch(iso);
      expect(cells[th.indexOf("exit_time")]).toMatch(iso);
      expect(["true", "false"]).toContain(cells[th.indexOf("open")]);
    }
  });
});
