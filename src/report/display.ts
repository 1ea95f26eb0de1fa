import { withInspect } from "../domain/withInspect.js";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import { escapeHtml } from "./escapeHtml.js";

/**
 * The display protocol: an object that knows how it looks as text (a terminal,
 * `console.log`) and as HTML (a notebook) carries a method under this key,
 * `Symbol.for("market-intel-lab.display")`, returning both forms. `show(x)`
 * reads it; so can any other front end (the symbol is registered globally, so
 * a second copy of the library finds it too). The library's own display
 * objects (`stats`, `monthlyTable`, `tearsheet`) implement it and give
 * `util.inspect` (hence `console.log`) the text form.
 */
export const DISPLAY: unique symbol = Symbol.for("market-intel-lab.display");

/** The two forms of a displayable value. */
export interface DisplayForms {
  /** Plain text for terminals (fixed-width, no colour codes). */
  readonly text: string;
  /** An HTML fragment for notebooks (inline styles only, no scripts). */
  readonly html: string;
  /**
   * Optional: the whole MIME bundle a notebook should receive instead of the HTML (e.g. a chart's
   * interactive vega-lite spec, its SVG and its text), MIME type → content.
   */
  readonly mime?: Readonly<Record<string, unknown>>;
}

/** A value that shows itself (see {@link DISPLAY}). */
export interface Displayable {
  [DISPLAY](): DisplayForms;
}

/** True when `x` implements the display protocol. */
export function isDisplayable(x: unknown): x is Displayable {
  return typeof x === "object" && x !== null && typeof (x as { [DISPLAY]?: unknown })[DISPLAY] === "function";
}

/**
 * Give a display object its protocol method and its `util.inspect` text form
 * (what `console.log` and tslab print), both non-enumerable so spreading or
 * JSON never sees them. Returns the same object. @internal
 */
export function withDisplay<T extends object>(target: T, forms: () => DisplayForms): T & Displayable {
  Object.defineProperty(target, DISPLAY, { value: forms, enumerable: false });
  withInspect(target, () => forms().text);
  return target as T & Displayable;
}

/** HTML for preformatted text (a fallback form). @internal */
export function preHtml(text: string): string {
  return `<pre style="font-family:ui-monospace,monospace;font-size:12px">${escapeHtml(text)}</pre>`;
}

/** What tslab's kernel exposes to cells (`globalThis.__tslab__.require("tslab").display`), read without importing tslab. */
interface TslabDisplay {
  html(s: string): void;
}

/**
 * tslab's display when this process is a tslab kernel, else undefined. The
 * kernel puts its `require` on `globalThis.__tslab__`, and that `require`
 * answers "tslab" with its public module; nothing is installed or imported
 * when the library runs elsewhere. @internal
 */
export function tslabDisplay(): TslabDisplay | undefined {
  const host = (globalThis as { __tslab__?: { require?: (id: string) => unknown } }).__tslab__;
  if (typeof host?.require !== "function") return undefined;
  try {
    const display = (host.require("tslab") as { display?: TslabDisplay } | undefined)?.display;
    return typeof display?.html === "function" ? display : undefined;
  } catch {
    return undefined;
  }
}

/** A Promise passed where a value is wanted: the usual missing `await`. @internal */
export function rejectPromise(x: unknown, where: string): void {
  if (typeof (x as { then?: unknown } | null)?.then === "function") {
    throw new InvalidArgumentError("value", `${where}: got a Promise (a chart or a tearsheet still rendering); write ${where}(await ...)`);
  }
}
