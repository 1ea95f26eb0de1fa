import type { Manifest } from "./createManifest.js";
import { writeFileAtomic } from "./writeFileAtomic.js";

/**
 * Write a manifest as pretty JSON (atomically), e.g. `out/manifest.json` beside exported files.
 * @example writeManifest("out/manifest.json", createManifest({ kind: "history", options }))
 */
export function writeManifest(path: string, manifest: Manifest): void {
  writeFileAtomic(path, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, "utf8"), "writeManifest");
}
