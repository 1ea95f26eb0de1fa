import { createRequire, Module } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/**
 * Runs `load` (the `require` of danfojs-node) with danfo's `require("mathjs")` answered by a mathjs instance
 * built by mathjs's own `create(all)`: the same factories and default configuration as the package's main
 * entry, but each function is constructed on its first use, where the main entry builds all ~1,000 of them
 * (typed-function signatures, matrices, units) at import. danfo calls five (mean, median, mode, std, variance).
 * Measured (node 20, `/usr/bin/time node -e`, load ~5): `require("mathjs")` 1.1-1.5 s CPU of danfojs-node's
 * ~1.9 s import; `create(all)` ~0.3 s.
 *
 * The instance is placed in the require cache under the path `require("mathjs")` resolves to from danfo's
 * folder only for the duration of `load`, and only when nothing has loaded mathjs yet: afterwards a
 * `require("mathjs")` (the user's, or danfo's own lazy ones, if any) loads the package's real main entry as
 * usual. When mathjs's files are not where mathjs 9-14 keep them (lib/cjs/core/create.js,
 * lib/cjs/entry/allFactoriesAny.js), `load` runs unchanged.
 * @internal
 */
export function requireWithLazyMathjs<T>(load: () => T): T {
  let key: string | undefined;
  let lazy: Module | undefined;
  try {
    const from = { paths: [dirname(require.resolve("danfojs-node"))] };
    key = require.resolve("mathjs", from);
    if (require.cache[key] === undefined) {
      const root = dirname(require.resolve("mathjs/package.json", from));
      const { create } = require(join(root, "lib", "cjs", "core", "create.js")) as { create: (factories: object) => object };
      const all = require(join(root, "lib", "cjs", "entry", "allFactoriesAny.js")) as object;
      lazy = new Module(key);
      lazy.filename = key;
      lazy.loaded = true;
      lazy.exports = create(all);
      require.cache[key] = lazy;
    }
  } catch {
    lazy = undefined; // another layout: danfo requires mathjs itself
  }
  try {
    return load();
  } finally {
    if (key !== undefined && lazy !== undefined && require.cache[key] === lazy) delete require.cache[key];
  }
}
