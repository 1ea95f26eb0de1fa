import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import type { PaperStrategy } from "../paper/paperStrategy.js";
import { gridPlan } from "../research/sweepGrid.js";
import type { SweepGrid } from "../research/sweepGrid.js";
import type { SweepValue } from "../research/SweepResult.js";

/** What a `--strategy` module gives: the strategy, its default parameters, and for a sweep its grid. */
export interface StrategyModule {
  readonly path: string;
  readonly strategy: PaperStrategy;
  /** `export const params` (a function's parameters; a composite's threshold, w_<component>, ...) [none]. */
  readonly params: Readonly<Record<string, SweepValue>> | undefined;
  /** `export const grid` (what `milab sweep --strategy` sweeps), checked as a sweep checks it; undefined when not exported. */
  readonly grid: SweepGrid | undefined;
}

const SHAPE =
  'the strategy, e.g. export const strategy = (c, p) => c.close.map(...) (a function (columns, params) => target positions, or { kind: "composite", weights?, threshold? }), and for milab sweep its grid, e.g. export const grid = { n: [5, 10, 20] } (see examples/strategies/momentum.mjs)';

/**
 * Import the module a `--strategy <file>` flag names and check what it exports, once, where it
 * enters: the strategy (`strategy` or the default export: a function or a composite object),
 * optional `params` (an object) and `grid` (a sweep's grid, checked by gridPlan: every
 * parameter a non-empty list of numbers, strings, booleans or null, or a list of parameter
 * objects). `needGrid`: `milab sweep` requires the grid.
 * @throws InvalidArgumentError (the CLI prints one line, exit 2) naming the file, what is wrong and the export that fixes it
 * @example
 * await loadStrategyModule("examples/strategies/momentum.mjs", false) // { strategy: [Function], params: { n: 20 }, grid: { n: [...] } }
 */
export async function loadStrategyModule(path: string, needGrid: boolean): Promise<StrategyModule> {
  const full = resolve(path);
  if (!existsSync(full)) throw new InvalidArgumentError("strategy", `strategy: --strategy ${path}: no such file; give the path of a module (.mjs) that exports ${SHAPE}`);
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(full).href)) as Record<string, unknown>;
  } catch (e) {
    throw new InvalidArgumentError("strategy", `strategy: --strategy ${path} could not be imported (${e instanceof Error ? `${e.name}: ${e.message.split("\n")[0]}` : String(e)}); it must be an ES module (.mjs) that exports ${SHAPE}`);
  }
  const s = mod["strategy"] ?? mod["default"];
  const isComposite = typeof s === "object" && s !== null && (s as { kind?: unknown }).kind === "composite";
  if (typeof s !== "function" && !isComposite) {
    const has = Object.keys(mod).join(", ") || "nothing";
    throw new InvalidArgumentError("strategy", `strategy: --strategy ${path} must export the strategy as \`strategy\` or default, got ${s === undefined ? `no such export (it exports ${has})` : s === null ? "null" : typeof s}; export ${SHAPE}`);
  }
  const params = mod["params"];
  if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params))) {
    throw new InvalidArgumentError("strategy", `strategy: --strategy ${path} exports params, but it is not an object of parameter -> value, got ${Array.isArray(params) ? "an array" : String(params)}; e.g. export const params = { n: 20 }`);
  }
  const grid = mod["grid"];
  if (grid === undefined && needGrid) {
    throw new InvalidArgumentError("strategy", `strategy: --strategy ${path} exports no grid to sweep; add e.g. export const grid = { n: [5, 10, 20] } (parameter -> values) or a list of parameter objects`);
  }
  if (grid !== undefined) {
    try {
      gridPlan(grid as SweepGrid, "grid");
    } catch (e) {
      const why = e instanceof Error ? e.message.replace(/^grid: /, "") : String(e);
      throw new InvalidArgumentError("strategy", `strategy: --strategy ${path} exports a grid that is not a grid: ${why}`);
    }
  }
  return { path, strategy: s as PaperStrategy, params: params as Record<string, SweepValue> | undefined, grid: grid as SweepGrid | undefined };
}
