import { mkdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { renderTearsheet, type RenderOptions, type TearsheetInput } from "./renderTearsheet.js";

/**
 * Render a tearsheet ({@link renderTearsheet}) and write it to `path` as one
 * self-contained HTML file, creating missing folders. Returns the absolute path.
 * @example const file = await writeReport("out/report.html", { title: "Demo", sections: [...] });
 */
export async function writeReport(path: string, input: TearsheetInput, options: RenderOptions = {}): Promise<string> {
  const file = resolve(path);
  const html = await renderTearsheet(input, options);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, html, "utf8");
  return file;
}
