import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The library's own folder (where its package.json is) and version, found by
 * walking up from this file (src/store, or the shared chunk under dist/chunks/ that holds it once bundled:
 * scripts/bundle.mjs). The one rule for finding a file of the package (the sweep worker, fixtures, the viewer).
 * @internal
 */
export function packageInfo(): { root: string; name: string; version: string } {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const path = join(dir, "package.json");
    if (existsSync(path)) {
      const pkg = JSON.parse(readFileSync(path, "utf8")) as { name?: string; version?: string };
      if (pkg.name === "market-intel-lab") return { root: dir, name: pkg.name, version: pkg.version ?? "0.0.0" };
    }
    const up = dirname(dir);
    if (up === dir) return { root: process.cwd(), name: "market-intel-lab", version: "unknown" };
    dir = up;
  }
}
