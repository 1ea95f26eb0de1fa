import { Command, InvalidArgumentError as CommanderArgumentError } from "commander";
import { InvalidArgumentError } from "../../errors/InvalidArgumentError.js";
import { textTable } from "../../report/textTable.js";
import { addStudyOptions, type StudyCliOptions } from "../addStudyOptions.js";
import { createProgress } from "../progress.js";
import { runStudyJob } from "../runStudyJob.js";
import { SCORECARD_FORMAT, scorecardRows, type ScorecardRow } from "../study/scorecard.js";

/** Parse `1,2,3` or `1-5` into distinct seeds (at most 50). */
export function parseSeeds(raw: string): number[] {
  const out: number[] = [];
  for (const part of raw.split(",")) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (m === null) throw new CommanderArgumentError(`seeds must look like 1,2,3 or 1-10, got ${raw}`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) throw new CommanderArgumentError(`seeds: a range must ascend, got ${part.trim()}`);
    for (let s = a; s <= b; s++) if (!out.includes(s)) out.push(s);
  }
  if (out.length === 0 || out.length > 50) throw new CommanderArgumentError(`seeds must name 1 to 50 seeds, got ${out.length}`);
  return out;
}

function meanSd(xs: readonly number[]): [number, number] {
  const v = xs.filter((x) => Number.isFinite(x));
  const m = v.reduce((a, x) => a + x, 0) / v.length;
  const sd = v.length > 1 ? Math.sqrt(v.reduce((a, x) => a + (x - m) ** 2, 0) / (v.length - 1)) : Number.NaN;
  return [m, sd];
}

/**
 * `milab seeds`: the same rules on several simulator seeds (embedded replay
 * server only). One seed is one draw of the simulated market, so the spread of
 * the results across seeds shows how much of a backtest is luck.
 */
export function seedsCommand(): Command {
  // the seeds replace --seed; the embedded server only; no real-data section nor what-if sweep in a seed's scorecard
  return addStudyOptions(new Command("seeds").description("run the same rules on several simulator seeds and compare: how much of the result is luck?"), [
    "--seed",
    "--base-url",
    "--no-real-data",
    "--no-variants",
  ])
    .requiredOption("--seeds <list>", "seeds, e.g. 1,2,3 or 1-10", parseSeeds)
    .option("--json", "print every seed's scorecard as JSON", false)
    .addHelpText("after", "\nExamples:\n  milab seeds --seeds 1-10\n  milab seeds --seeds 1-5 --weights imbalance=1 --coins btc,eth --json")
    .action(async (opts: StudyCliOptions & { seeds: number[]; json: boolean }) => {
      if (process.env["MI_BASE_URL"] !== undefined) {
        throw new InvalidArgumentError("seeds", "seeds runs on the embedded replay server only: unset MI_BASE_URL");
      }
      const progress = createProgress(opts.quiet);
      const runs: { seed: number; rows: ScorecardRow[] }[] = [];
      for (const seed of opts.seeds) {
        const run = await runStudyJob({ ...opts, seed, realData: false, variants: false }, progress);
        runs.push({ seed, rows: scorecardRows(run.study) });
      }
      if (opts.json) {
        process.stdout.write(`${JSON.stringify({ seeds: runs }, null, 2)}\n`);
        return;
      }
      const last = (rows: ScorecardRow[]): ScorecardRow => rows[rows.length - 1] as ScorecardRow;
      const name = last(runs[0]!.rows).strategy;
      const pick = (k: keyof ScorecardRow): number[] => runs.map((r) => last(r.rows)[k] as number);
      process.stdout.write(`${name} on ${runs.length} simulator seeds (same rules, same clock)\n`);
      process.stdout.write(
        `${textTable(
          {
            seed: runs.map((r) => String(r.seed)),
            "total return": pick("totalReturn"),
            "buy & hold": pick("buyHoldReturn"),
            Sharpe: pick("sharpe"),
            "max DD": pick("maxDrawdown"),
            trades: pick("trades"),
            "fees paid": pick("feesPaid"),
          },
          { format: SCORECARD_FORMAT },
        )}\n`,
      );
      const [m, sd] = meanSd(pick("sharpe"));
      const [mr, sdr] = meanSd(pick("totalReturn"));
      const positive = pick("totalReturn").filter((x) => x > 0).length;
      process.stdout.write(
        `\nSharpe ${m.toFixed(2)} ± ${Number.isFinite(sd) ? sd.toFixed(2) : "–"} (mean ± sd over seeds); total return ${(100 * mr).toFixed(1)}% ± ${Number.isFinite(sdr) ? (100 * sdr).toFixed(1) : "–"}%; positive on ${positive} of ${runs.length} seeds.\n`,
      );
    });
}
