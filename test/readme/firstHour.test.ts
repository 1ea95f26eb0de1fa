import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scaledMs } from "../support/timeScale.js";

// The README's "first hour" must run exactly as printed: this test takes every ```ts block under
// "## The first hour" (three cells of one notebook, in order), saves them as one script inside the repo
// (so `import ... from "market-intel-lab"` resolves to the built package, as for a user) and runs it with
// tsx against the replay server the first block starts. `npm test` builds dist/ before vitest runs.
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

function firstHourBlocks(): string[] {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const section = readme.split(/^## The first hour\s*$/m)[1]?.split(/^## /m)[0];
  if (section === undefined) throw new Error('README.md has no "## The first hour" section');
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

describe("README first hour", () => {
  it("has three blocks of at most 10 lines each", () => {
    const blocks = firstHourBlocks();
    expect(blocks).toHaveLength(3);
    for (const block of blocks) expect(block.trimEnd().split("\n").length).toBeLessThanOrEqual(10);
  });

  it("runs as printed: a DataFrame with dates, the backtest's stats and monthly table, a sweep and its out-of-sample stats", () => {
    const dir = join(root, "test", ".tmp");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "readme-first-hour.mts");
    writeFileSync(file, firstHourBlocks().join("\n"));
    const out = execFileSync(process.execPath, ["--import", "tsx", file], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, TZ: "UTC" },
      timeout: scaledMs(150_000),
    });
    // 1: history with readable times, not epoch ms
    expect(out).toMatch(/^2026-10-31 00:0\d\s+[\d,]+\.\d+/m);
    expect(out).not.toMatch(/^\s*179\d{10}\b/m);
    // 2: the stats block and the monthly pivot
    expect(out).toMatch(/^Start\s+2026-10-02 00:01$/m);
    expect(out).toMatch(/^Sharpe ratio \(empyrical\) ± SE\s+-?\d+\.\d\d ± \d+\.\d\d$/m);
    expect(out).toMatch(/^Trades\s+[\d,]+$/m);
    expect(out).toMatch(/^year\s+Jan\s+Feb\s+Mar.*Dec\s+Year$/m);
    expect(out).toMatch(/^2026\s+-?\d+\.\d%/m);
    // 3: the sweep's best rows, then the chosen variant on the last ten days only
    expect(out).toMatch(/^Sweep: 210 of 210 variants/m);
    expect(out).toMatch(/^Start\s+2026-10-22 00:00$/m);
  }, scaledMs(180_000));
});
