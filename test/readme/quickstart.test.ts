import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The README's quickstart must run exactly as printed: this test takes the first
// ```ts block under "## Quickstart", saves it inside the repo (so that
// `import ... from "market-intel-lab"` resolves to the built package, as for a
// user) and runs it with tsx. `npm test` builds dist/ before vitest runs.
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

function quickstartBlock(): string {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const section = readme.split(/^## Quickstart\s*$/m)[1];
  if (section === undefined) throw new Error('README.md has no "## Quickstart" section');
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (block?.[1] === undefined) throw new Error('README.md: no ```ts block under "## Quickstart"');
  return block[1];
}

describe("README quickstart", () => {
  it("runs as printed and prints the performance summary", () => {
    const dir = join(root, "test", ".tmp");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "readme-quickstart.mts");
    writeFileSync(file, quickstartBlock());
    const out = execFileSync(process.execPath, ["--import", "tsx", file], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, TZ: "UTC" },
      timeout: 120_000,
    });
    expect(out).toContain("sharpeRatio");
    expect(out).toContain("maxDrawdown");
    expect(out).toMatch(/trades\s+│\s+\d+/);
  }, 150_000);
});
