import { Command } from "commander";
import { formatScorecard } from "../printScorecard.js";
import { createProgress } from "../progress.js";
import { writeReportWithProgress } from "../writeReportWithProgress.js";
import { addStudyOptions, STUDY_ENGINE_FLAGS, type StudyCliOptions } from "../addStudyOptions.js";
import { addEngineFlags, engineOptions } from "../engineFlags.js";
import { runStrategyJob, STRATEGY_FLAG_HELP, parseParams } from "../runStrategyJob.js";
import { runStudyJob, type StudyRun } from "../runStudyJob.js";
import { studyReportInput } from "../study/studyReportInput.js";
import { scorecardRows } from "../study/scorecard.js";

/** The machine-readable result of `milab backtest --json` (NaN written as null). */
export function backtestJson(run: StudyRun): unknown {
  const s = run.study;
  const o = s.options;
  const coin = (c: NonNullable<(typeof s.coins)[keyof typeof s.coins]>) => ({
    summary: c.summary,
    feesPaid: c.feesPaid,
    fundingPaid: c.fundingPaid,
    finalEquity: c.result.equity[c.result.equity.length - 1],
    ic: { bars: Array.from(c.ic.columns["bars"] as Float64Array), ic: Array.from(c.ic.columns["ic"] as Float64Array) },
    trades: c.result.trades.length,
  });
  return {
    source: run.source,
    live: run.live,
    seed: run.seed ?? null,
    period: { start: new Date(s.time[0] as number).toISOString(), end: new Date(s.time[s.time.length - 1] as number).toISOString(), bars: s.time.length },
    options: { ...o, weights: o.weights ?? null },
    scorecard: scorecardRows(s),
    coins: Object.fromEntries(o.coins.map((c) => [c, coin(s.coins[c]!)])),
    portfolio:
      s.portfolio === undefined
        ? null
        : { summary: s.portfolio.summary, feesPaid: s.portfolio.feesPaid, fundingPaid: s.portfolio.fundingPaid, finalEquity: s.portfolio.result.equity[s.portfolio.result.equity.length - 1] },
    variants: run.variants ?? null,
    realData: run.real === undefined ? null : { summary: run.real.summary, feesPaid: run.real.feesPaid, fundingPaid: run.real.fundingPaid, bars: run.real.time.length },
  };
}

/** `milab backtest`: the composite study with every rule and cost as an option; scorecard or JSON out. */
export function backtestCommand(): Command {
  const cmd = addStudyOptions(new Command("backtest").description("backtest the composite signal per coin and as a portfolio; print the scorecard (or --json)"))
    .option("--json", "print the result as JSON on stdout (scorecard, summaries, options)", false)
    .option("--report <file>", "also write the HTML tearsheet to this file")
    .option("--strategy <file>", STRATEGY_FLAG_HELP)
    .option("--params <json>", 'the --strategy module\'s parameters as JSON, e.g. {"n":12} [its exported params]', parseParams)
    .addHelpText(
      "after",
      "\nExamples:\n  milab backtest --strategy examples/strategies/momentum.mjs --coins btc --stop-loss 0.02\n  milab backtest --coins btc,eth --threshold 0.2 --bar 240\n  milab backtest --weights imbalance=0.5,funding=0.5 --fee-bps 2.5 --json > run.json\n  milab backtest --sizing confidence --no-shorts --report out/long-only.html",
    )
    .action(async (opts: StudyCliOptions & { json: boolean; report?: string; strategy?: string; params?: Record<string, number> }) => {
      if (opts.strategy !== undefined) {
        await runStrategyJob(opts.strategy, opts, engineOptions(opts as unknown as Record<string, unknown>));
        return;
      }
      const run = await runStudyJob(opts, createProgress(opts.quiet));
      if (opts.json) process.stdout.write(`${JSON.stringify(backtestJson(run), null, 2)}\n`);
      else process.stdout.write(`${formatScorecard(run)}\n`);
      if (opts.report !== undefined) {
        const file = await writeReportWithProgress(opts.report, await studyReportInput(run), opts.quiet);
        process.stderr.write(`report written to ${file}\n`);
      }
    });
  // the rest of the backtest options' flag table (--stop-loss, --take-profit, ...): the study has the costs and modes
  return addEngineFlags(cmd, STUDY_ENGINE_FLAGS);
}
