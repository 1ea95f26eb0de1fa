import type { TearsheetInput } from "../report/renderTearsheet.js";
import { writeReport } from "../report/writeReport.js";
import { createProgress } from "./progress.js";

/** writeReport with a progress bar over the charts (on a terminal, unless quiet). */
export async function writeReportWithProgress(path: string, input: TearsheetInput, quiet: boolean): Promise<string> {
  const progress = createProgress(quiet);
  progress.step("rendering charts", 1);
  try {
    // the CLI's reports are interactive: charts drawn live (tooltips, pan, zoom) by the bundled viewer, static SVGs for print
    return await writeReport(path, input, { interactive: true, onChart: (done, total) => progress.update(done, total) });
  } finally {
    progress.stop();
  }
}
