import { createRequire, Module } from "node:module";

const require = createRequire(import.meta.url);

/**
 * Runs `load` (the `require` of a package) with its `require(name)` of each of `names` (resolved from `fromDir`)
 * answered by a stand-in that requires the real module on first use of one of its properties. For dependencies
 * a package requires at import but uses only in a few functions: danfojs-node requires `xlsx` (~0.26 s CPU) and
 * `request` (~0.24 s) at import for readExcel/toExcel and reading a CSV or JSON from a URL, and reads them only
 * as `xlsx_1.read(...)`, `xlsx_1.utils...`, `request_1.default.get(...)` (its `__importDefault` reads
 * `__esModule`, which the stand-in answers `undefined` until loaded: right only for modules without it, which is
 * why the names are listed, not guessed; test/data/requireWithDeferredModules.test.ts checks both modules).
 *
 * A stand-in is in the require cache only during `load`, and only for a module nothing has loaded yet; its first
 * property access requires the real module (removing the stand-in first if `load` is still running) and forwards
 * every later access to it.
 * @internal
 */
export function requireWithDeferredModules<T>(names: readonly string[], fromDir: string, load: () => T): T {
  const placed = new Map<string, Module>();
  for (const name of names) {
    let key: string;
    try {
      key = require.resolve(name, { paths: [fromDir] });
    } catch {
      continue; // not installed: the package's own require reports it
    }
    if (require.cache[key] !== undefined) continue;
    const stand = new Module(key);
    stand.filename = key;
    stand.loaded = true;
    stand.exports = standIn(key, stand);
    require.cache[key] = stand;
    placed.set(key, stand);
  }
  try {
    return load();
  } finally {
    for (const [key, stand] of placed) if (require.cache[key] === stand) delete require.cache[key];
  }
}

function standIn(key: string, stand: Module): object {
  let real: object | undefined;
  const target = (): object => {
    if (real === undefined) {
      if (require.cache[key] === stand) delete require.cache[key];
      real = require(key) as object;
    }
    return real;
  };
  return new Proxy(
    {},
    {
      get: (_, p) => (p === "__esModule" && real === undefined ? undefined : Reflect.get(target(), p)),
      has: (_, p) => Reflect.has(target(), p),
      set: (_, p, v) => Reflect.set(target(), p, v),
      ownKeys: () => Reflect.ownKeys(target()),
      getOwnPropertyDescriptor: (_, p) => {
        const d = Reflect.getOwnPropertyDescriptor(target(), p);
        return d === undefined ? undefined : { ...d, configurable: true };
      },
    },
  );
}
