import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { MarketIntelError } from "../errors/MarketIntelError.js";
import { packageInfo } from "../store/packageVersion.js";

let cached: Promise<string> | undefined;

/**
 * The browser script of an interactive report: vega, vega-lite and vega-embed bundled with the
 * page's chart loader (scripts/vegaViewer.entry.js) into `dist/vendor/vega-viewer.js` by
 * `npm run build`, about 1.2 MB minified. Read once per process; made safe to inline in a
 * `<script>` element (`</script` cannot end it early).
 * @throws MarketIntelError (VIEWER_MISSING) when the bundle was not built
 */
export function viewerScript(): Promise<string> {
  cached ??= (async () => {
    const file = join(packageInfo().root, "dist", "vendor", "vega-viewer.js");
    try {
      return (await readFile(file, "utf8")).replace(/<\/(script)/gi, "<\\/$1");
    } catch {
      cached = undefined;
      throw new MarketIntelError("VIEWER_MISSING", `renderTearsheet: interactive charts need the bundled viewer ${file}: run npm run build (or pass interactive: false)`);
    }
  })();
  return cached;
}
