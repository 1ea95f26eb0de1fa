/**
 * The committed API report (docs/api.md) and the README's export index are
 * current: regenerating them from the sources gives the committed text. When
 * this fails, the public surface changed: run `npm run api:report` and commit
 * the result (the diff is the API change to review).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { buildApiReport, renderApiMarkdown, renderReadmeIndex, withReadmeIndex, type ApiReport } from "../../scripts/apiReport.js";
import { scaledMs } from "../support/timeScale.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const readme = readFileSync(join(root, "README.md"), "utf8");
/** The guide: the README's reference sections, moved to docs/. */
const guide = readFileSync(join(root, "docs", "guide.md"), "utf8");
let report: ApiReport;

beforeAll(() => {
  report = buildApiReport(join(root, "package.json"));
}, scaledMs(180_000));

/** Every exported name of `specifier` (values and types). */
function namesOf(specifier: string): Set<string> {
  const entry = report.entries.find((e) => e.entry.specifier === specifier);
  if (entry === undefined) throw new Error(`no entry point ${specifier} in package.json exports`);
  return new Set(entry.exports.map((e) => e.name));
}

describe("API report", () => {
  it("docs/api.md is current (else: run npm run api:report)", () => {
    const committed = readFileSync(join(root, "docs", "api.md"), "utf8");
    expect(committed === renderApiMarkdown(report), "docs/api.md is not current: run npm run api:report").toBe(true);
  });

  it("the README's export index is current (else: run npm run api:report)", () => {
    expect(readme === withReadmeIndex(readme, renderReadmeIndex(report)), "README.md's api block is not current: run npm run api:report").toBe(true);
  });

  it("lists the root and the four specialist subpaths, and keeps the specialists off the root", () => {
    expect(report.entries.map((e) => e.entry.specifier)).toEqual(
      expect.arrayContaining(["market-intel-lab", "market-intel-lab/schemas", "market-intel-lab/charts", "market-intel-lab/server", "market-intel-lab/sim"]),
    );
    const rootNames = namesOf("market-intel-lab");
    for (const specialist of ["startReplayServer", "simulateMarket", "METRIC_CATALOG", "snapshotSchema", "normaliseComposite", "parseHistory", "equitySpec", "renderSvg"]) {
      expect(rootNames.has(specialist), specialist).toBe(false);
    }
    for (const userFunction of ["createClient", "loadHistoryPanel", "replayComposite", "backtest", "performanceSummary", "writeReport"]) {
      expect(rootNames.has(userFunction), userFunction).toBe(true);
    }
  });

  it("every name the README and the guide import in their code blocks is exported by that entry point", () => {
    const imports = [...(readme + guide).matchAll(/import\s*\{([^}]*)\}\s*from\s*"(market-intel-lab[^"]*)"/g)];
    expect(imports.length).toBeGreaterThan(0);
    for (const [, names, specifier] of imports) {
      const exported = namesOf(specifier!);
      for (const raw of names!.split(",")) {
        const name = raw.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0]!;
        if (name !== "") expect(exported.has(name), `README imports ${name} from ${specifier}`).toBe(true);
      }
    }
  });

  it("every function the guide's API sections call by name is exported by some entry point", () => {
    const all = new Set(report.entries.flatMap((e) => e.exports.map((x) => x.name)));
    const section = guide.split(/^## The library at a glance\s*$/m)[1];
    expect(section).toBeDefined();
    // Methods of results and option names the README also shows (members of exported types, not exports).
    const members = new Set(["toDataFrame", "tradesToDataFrame", "compositeByCoin", "stop", "close", "floor"]);
    const called = [...section!.matchAll(/`([a-zA-Z_$][\w$]*)\(/g)].map((m) => m[1]!);
    const tableNames = [...section!.matchAll(/^\| [a-z]+ \| (.*) \|$/gm)].flatMap((m) => [...m[1]!.matchAll(/`([a-zA-Z_$][\w$]*)`/g)].map((x) => x[1]!));
    expect(called.length + tableNames.length).toBeGreaterThan(20);
    for (const name of [...called, ...tableNames]) {
      const serviceField = /^[a-z]+(_[a-z]+)+$/.test(name); // e.g. regime_floor: the API's own field names
      if (!members.has(name) && !serviceField) expect(all.has(name), `README names ${name}, which no entry point exports`).toBe(true);
    }
  });
});
