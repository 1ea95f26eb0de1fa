import { createRequire } from "node:module";
import { requireWithLazyMathjs } from "./requireWithLazyMathjs.js";

/** The danfojs-node module (loaded on first use, since its import costs about 1.2 s; with mathjs's functions built lazily, see requireWithLazyMathjs). */
export type Danfo = typeof import("danfojs-node");

/** A danfo DataFrame, the user-facing table at the edges of the library. */
export type DataFrame = InstanceType<Danfo["DataFrame"]>;

const require = createRequire(import.meta.url);
let danfo: Danfo | undefined;

/**
 * danfojs-node, required lazily: kernels that offer `toDataFrame()` do not pay
 * for danfo (or pull it into their import graph) until a table is asked for.
 * @internal
 */
export function loadDanfo(): Danfo {
  danfo ??= requireWithLazyMathjs(() => require("danfojs-node") as Danfo);
  return danfo;
}
