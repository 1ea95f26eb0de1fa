import { resolve } from "node:path";
import { writeFileAtomic } from "../store/writeFileAtomic.js";
import { renderTearsheet, type RenderOptions, type TearsheetInput } from "./renderTearsheet.js";

/**
 * Render a tearsheet ({@link renderTearsheet}) and write it to `path` as one
 * self-contained HTML file, creating missing folders. Returns the absolute path.
 * The file is written aside and renamed into place, so an old report is
 * replaced whole or kept, never left half-written.
 * @throws FileWriteError when the file cannot be written (a folder at the path, disk full, read-only, permissions), naming the path and what to do
 * @example const file = await writeReport("out/report.html", { title: "Demo", sections: [...] });
 */
export async function writeReport(path: string, input: TearsheetInput, options: RenderOptions = {}): Promise<string> {
  const file = resolve(path);
  const html = await renderTearsheet(input, options);
  writeFileAtomic(file, Buffer.from(html, "utf8"), "writeReport");
  return file;
}
