import { createRequire } from "node:module";
import { dirname } from "node:path";
import { requireWithDeferredModules } from "./requireWithDeferredModules.js";
import { requireWithLazyMathjs } from "./requireWithLazyMathjs.js";

/** The danfojs-node module (loaded on first use, since its import costs ~1.9 s CPU; ~0.6 s with mathjs's functions built on use and xlsx/request loaded on use, see loadDanfo). */
export type Danfo = typeof import("danfojs-node");

/** A danfo DataFrame, the user-facing table at the edges of the library. */
export type DataFrame = InstanceType<Danfo["DataFrame"]>;

const require = createRequire(import.meta.url);
let danfo: Danfo | undefined;
/** danfo's dependencies it requires at import but uses only in its Excel and URL readers (CommonJS, no `__esModule`). */
const DEFERRED = ["xlsx", "request"] as const;

/**
 * danfojs-node, required lazily: kernels that offer `toDataFrame()` do not pay
 * for danfo (or pull it into their import graph) until a table is asked for.
 * @internal
 */
export function loadDanfo(): Danfo {
  // mathjs's functions built on use; xlsx and request (readExcel/toExcel, reading from a URL) loaded on use
  danfo ??= requireWithLazyMathjs(() =>
    requireWithDeferredModules(DEFERRED, dirname(require.resolve("danfojs-node")), () => require("danfojs-node") as Danfo),
  );
  return danfo;
}
