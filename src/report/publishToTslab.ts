import { createRequire } from "node:module";

/** A Jupyter MIME bundle: MIME type → content (a string, or JSON for `+json` types). */
export type MimeBundle = Readonly<Record<string, unknown>>;

/** tslab 1.0's kernel-side sender of a `display_data` message (`tslab/dist/jupyter.js`, `lastWriteDisplayData`). */
type WriteDisplayData = (data: { data: MimeBundle; metadata: object; transient: object }, update: boolean) => void;

/**
 * Publish a MIME bundle as ONE `display_data` message of the running tslab kernel, or return
 * false when this process is not a tslab kernel (or its internals moved), so the caller falls
 * back to tslab's public `display.html`.
 *
 * Why the internal path: tslab's public `display.raw(type, value)` sends one MIME type per
 * message, but a chart wants several at once — `application/vnd.vegalite.v5+json` (JupyterLab
 * and VS Code draw it interactively, offline), `image/svg+xml` (nbconvert, GitHub) and
 * `text/plain` — so the front end picks the richest it can draw. `display.raw` itself hands its
 * one-entry bundle to `lastWriteDisplayData`, the kernel's sender for the executing cell, exported
 * by `tslab/dist/jupyter.js`; this calls the same function with the whole bundle, exactly as
 * `display.raw` builds the message (`metadata: {}`, `transient: {}`). The module is found next to
 * the `tslab` module the kernel hands to cells (`globalThis.__tslab__.require("tslab")`), so it is
 * the running kernel's copy, never one installed in the notebook's folder. Checked with tslab 1.0.22.
 * @internal
 */
export function publishToTslab(bundle: MimeBundle): boolean {
  const write = kernelWriter();
  if (write === undefined) return false;
  write({ data: bundle, metadata: {}, transient: {} }, false);
  return true;
}

function kernelWriter(): WriteDisplayData | undefined {
  const host = (globalThis as { __tslab__?: { require?: (id: string) => unknown } }).__tslab__;
  if (typeof host?.require !== "function") return undefined;
  try {
    const pub = host.require("tslab");
    const require = createRequire(import.meta.url);
    const entry = Object.values(require.cache).find((m) => m?.exports === pub);
    if (entry === undefined) return undefined;
    const jupyter = createRequire(entry.filename)("./jupyter") as { lastWriteDisplayData?: unknown };
    const write = jupyter.lastWriteDisplayData;
    return typeof write === "function" ? (write as WriteDisplayData) : undefined;
  } catch {
    return undefined;
  }
}
