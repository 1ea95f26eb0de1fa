import { statSync } from "node:fs";
import { join } from "node:path";
import { checkOutputPath } from "../checkOutputPath.js";
import { Command } from "commander";
import { formatScorecard } from "../printScorecard.js";
import { createProgress } from "../progress.js";
import { writeReportWithProgress } from "../writeReportWithProgress.js";
import { addStudyOptions, type StudyCliOptions } from "../addStudyOptions.js";
import { runStudyJob } from "../runStudyJob.js";
import { studyReportInput } from "../study/studyReportInput.js";

/**
 * `milab demo` (what `npm start` runs): the end-to-end job. Starts the replay
 * server in process (or uses a live service with `--base-url` / `MI_BASE_URL`),
 * loads 30 days of history, replays the composite and the regime rules,
 * backtests each coin and the four-coin portfolio with fees and funding,
 * evaluates the signal, prints the scorecard and writes `<out>/report.html`.
 */
export function demoCommand(): Command {
  return addStudyOptions(
    new Command("demo").description(
      "end-to-end demo: replay server -> history -> composite replay -> backtests -> scorecard + self-contained HTML report",
    ),
  )
    .option("--out <dir>", "directory for report.html", "out")
    .addHelpText("after", "\nExamples:\n  npm start                              # = milab demo\n  milab demo --out /tmp/run --seed 7\n  MI_BASE_URL=https://... milab demo       # same job on the live service")
    .action(async (opts: StudyCliOptions & { out: string }) => {
      checkOutputPath(opts.out, { option: "out", kind: "folder", example: "--out out" });
      const t0 = performance.now();
      const run = await runStudyJob(opts, createProgress(opts.quiet));
      process.stdout.write("market-intel-lab demo: the composite signal, replayed and backtested\n\n");
      process.stdout.write(`${formatScorecard(run)}\n\n`);
      const t1 = performance.now();
      const file = await writeReportWithProgress(join(opts.out, "report.html"), await studyReportInput(run), opts.quiet);
      const t2 = performance.now();
      const mb = (statSync(file).size / 1e6).toFixed(1);
      const sec = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
      process.stdout.write(`Report: ${file} (${mb} MB, self-contained)\n`);
      process.stdout.write(
        `Done in ${sec(t2 - t0)} (history ${sec(run.loadMs)}, replay + backtests + evaluation ${sec(run.computeMs)}, report ${sec(t2 - t1)}). Open the report in a browser; "milab backtest --help" lists the rules you can change.\n`,
      );
    });
}
