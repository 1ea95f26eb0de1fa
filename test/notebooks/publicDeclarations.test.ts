/**
 * The package's public declarations (dist/index.d.ts, the barrel every notebook cell
 * and every user's editor type-checks against) do not reach apache-arrow's
 * declarations: ~120 .d.ts files that made each tslab kernel's first cell about
 * 0.2-1 s slower to compile (notebooks/compile-cost.cjs). apache-arrow is only the
 * store's writer's internal codec (store/codecs.ts, parquetBytes.ts), never in a
 * public signature.
 *
 * The import graph is followed the way TypeScript does for a .d.ts: every
 * `from "..."`, `import("...")` and `export ... from "..."` specifier, relative
 * ones followed into dist/. Needs the build (npm test builds first).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;

/** Every .d.ts reached from `entry` (relative imports) and the bare package names they name. */
function declarationGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    for (const [, spec] of text.matchAll(SPECIFIER)) {
      if (spec!.startsWith(".")) queue.push(resolve(dirname(file), spec!.replace(/\.js$/, ".d.ts")));
      else packages.add(spec!.startsWith("@") ? spec!.split("/").slice(0, 2).join("/") : spec!.split("/")[0]!);
    }
  }
  return { files, packages };
}

describe("the public declarations (dist/index.d.ts)", () => {
  it("are built", () => {
    expect(existsSync(join(root, "dist", "index.d.ts")), "dist/index.d.ts missing: run `npm run build` first (npm test does)").toBe(true);
  });

  it("reach the package's own declarations and the dependencies its signatures name (the walk sees imports)", () => {
    const { files, packages } = declarationGraph(join(root, "dist", "index.d.ts"));
    expect(files.size).toBeGreaterThan(100);
    for (const file of files) expect(existsSync(file), file).toBe(true);
    // DataFrame in public signatures, zod's inferred response types, parquet-wasm's reader codec.
    expect([...packages]).toEqual(expect.arrayContaining(["danfojs-node", "zod"]));
  });

  it("do not reach apache-arrow (the writer's codec, internal)", () => {
    const { files, packages } = declarationGraph(join(root, "dist", "index.d.ts"));
    expect([...packages]).not.toContain("apache-arrow");
    expect([...files].some((f) => f.endsWith("/store/codecs.d.ts")), "store/codecs.d.ts names apache-arrow").toBe(false);
  });

  it("the walk finds apache-arrow where it is (store/codecs.d.ts): the check above can fail", () => {
    expect(declarationGraph(join(root, "dist", "store", "codecs.d.ts")).packages).toContain("apache-arrow");
  });
});
