import { Command } from "commander";
import { checkOutputPath } from "../checkOutputPath.js";
import { createProgress } from "../progress.js";
import { writeReportWithProgress } from "../writeReportWithProgress.js";
import { addStudyOptions, type StudyCliOptions } from "../addStudyOptions.js";
import { runStudyJob } from "../runStudyJob.js";
import { studyReportInput } from "../study/studyReportInput.js";

/** `milab report`: run the composite study and write its self-contained HTML tearsheet. */
export function reportCommand(): Command {
  return addStudyOptions(new Command("report").description("run the composite study and write the HTML tearsheet (equity, drawdown, signals, regimes, IC, attribution, trades)"))
    .option("-o, --out <file>", "where to write the report", "out/report.html")
    .addHelpText("after", "\nExamples:\n  milab report -o out/btc.html --coins btc --bar 15\n  milab report --clock 2026-06-01 --seed 7")
    .action(async (opts: StudyCliOptions & { out: string }) => {
      checkOutputPath(opts.out, { option: "out", kind: "file", example: "-o out/report.html" });
      const run = await runStudyJob(opts, createProgress(opts.quiet));
      const file = await writeReportWithProgress(opts.out, await studyReportInput(run), opts.quiet);
      process.stdout.write(`${file}\n`);
    });
}
