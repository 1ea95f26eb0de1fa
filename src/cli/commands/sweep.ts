import { Command, InvalidArgumentError as CommanderArgumentError } from "commander";
import { checkOutputPath } from "../checkOutputPath.js";
import type { Coin } from "../../domain/coins.js";
import { assessSweep, type SweepAssessment } from "../../research/assessSweep.js";
import { MAX_WORKERS } from "../../research/checkWorkers.js";
import type { SweepResult } from "../../research/SweepResult.js";
import { isItRealInput, isItRealVerdict } from "../../report/isItRealSection.js";
import { textTable } from "../../report/textTable.js";
import { writeCsv } from "../../store/writeCsv.js";
import { addDataSourceOptions } from "../addStudyOptions.js";
import { loadJobData, type DataSourceOptions } from "../loadJobData.js";
import { integerOption, numberOption } from "../options.js";
import { createProgress } from "../progress.js";
import { DEFAULT_STUDY } from "../study/runStudy.js";
import { runSweepStudy, sweepTable, type CoinSweep } from "../study/runSweepStudy.js";
import { runStrategySweep } from "../study/runStrategySweep.js";
import { addEngineFlags, engineFlag, engineOptions } from "../engineFlags.js";
import { loadStrategyModule, type StrategyModule } from "../loadStrategyModule.js";
import { STRATEGY_FLAG_HELP } from "../runStrategyJob.js";

/** Options of `milab sweep`, as commander parses them. */
interface SweepCliOptions extends DataSourceOptions {
  readonly bar: number;
  readonly grid: number;
  readonly thresholds: readonly number[];
  readonly feeBps: number;
  readonly slippageBps: number;
  readonly funding: boolean;
  readonly workers?: number;
  readonly shard?: { index: number; count: number };
  readonly walkForward?: { trainMs: number; testMs: number; text: string };
  readonly top: number;
  readonly json: boolean;
  readonly out?: string;
  readonly quiet: boolean;
  readonly strategy?: string;
}

/** Parse `0.05,0.1,0.2` into thresholds in [0, 1]; an empty item (`0.1,,0.2`, a trailing comma) is refused, never read as 0. */
function parseThresholds(raw: string): number[] {
  const items = raw.split(",").map((s) => s.trim());
  const out = items.map(Number);
  const bad = items.filter((s, i) => s === "" || !Number.isFinite(out[i]) || (out[i] as number) < 0 || (out[i] as number) > 1);
  if (bad.length > 0) {
    // every bad item named (an empty one as "")
    throw new CommanderArgumentError(`thresholds must be a comma-separated list of numbers in [0, 1], e.g. 0.05,0.1,0.2; ${bad.map((s) => JSON.stringify(s)).join(", ")} ${bad.length === 1 ? "is not one" : "are not"} (got ${raw})`);
  }
  return out;
}

/** A duration like `14d`, `36h` or `90m`, in ms (undefined when malformed). */
function durationMs(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(d|h|m)\s*$/.exec(text);
  if (m === null) return undefined;
  const unit = m[2] === "d" ? 86_400_000 : m[2] === "h" ? 3_600_000 : 60_000;
  const ms = Number(m[1]) * unit;
  return ms > 0 ? ms : undefined;
}

/** Parse `14d/7d` (train window / test window) into durations in ms. */
function parseWalkForward(raw: string): { trainMs: number; testMs: number; text: string } {
  const [train, test, extra] = raw.split("/");
  const trainMs = durationMs(train ?? "");
  const testMs = durationMs(test ?? "");
  if (extra !== undefined || trainMs === undefined || testMs === undefined) {
    throw new CommanderArgumentError(`walk-forward must be TRAIN/TEST durations like 14d/7d or 36h/12h (d, h or m), got ${raw}`);
  }
  return { trainMs, testMs, text: raw.trim() };
}

/** Parse `3/10` (shard 3 of 10, 0-based) into a shard. */
function parseShard(raw: string): { index: number; count: number } {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(raw);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (m === null || !(count >= 1) || !(index < count)) {
    throw new CommanderArgumentError(`shard must be INDEX/COUNT with 0 <= INDEX < COUNT, e.g. 0/8 (a job array's index), got ${raw}`);
  }
  return { index, count };
}

const fmt = (x: number, digits = 2): string => (Number.isFinite(x) ? x.toFixed(digits) : "–");
const pct = (x: number): string => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : "–");

/** The weights of a row as `imbalance=0.3,funding=0.2,...` (zeros left out): the `milab backtest --weights` value. */
function weightsText(sweep: SweepResult, i: number): string {
  return Object.entries(sweep.weightsOf(i))
    .filter(([, w]) => w > 0)
    .map(([c, w]) => `${c}=${Number(w.toFixed(6))}`)
    .join(",");
}

/** A row's value of a strategy module's grid parameter (a non-numeric one from the sweep's levels). */
function paramText(sweep: SweepResult, p: string, i: number): string {
  const x = (sweep.columns[p] as Float64Array)[i] as number;
  const levels = sweep.levels[p];
  return levels !== undefined ? String(levels[x]) : Number.isNaN(x) ? "none" : String(x); // NaN: the option left unset (null)
}

/** The top rows of a coin's sweep by in-sample Sharpe, as a text table (a strategy module's sweep: its grid parameters instead of threshold and weights). */
function topTable(s: CoinSweep, top: number, isModule: boolean): string {
  const c = s.sweep.columns;
  const sharpe = c["sharpeRatio"] as Float64Array;
  const rows = Array.from({ length: s.sweep.length }, (_, i) => i)
    .filter((i) => !Number.isNaN(sharpe[i] as number))
    .sort((a, b) => (sharpe[b] as number) - (sharpe[a] as number) || a - b)
    .slice(0, top);
  return textTable({
    rank: rows.map((_, r) => String(r + 1)),
    Sharpe: rows.map((i) => fmt(sharpe[i] as number)),
    "total return": rows.map((i) => pct((c["totalReturn"] as Float64Array)[i] as number)),
    "max DD": rows.map((i) => pct((c["maxDrawdown"] as Float64Array)[i] as number)),
    trades: rows.map((i) => String((c["trades"] as Float64Array)[i])),
    ...(isModule
      ? Object.fromEntries(s.sweep.parameters.map((p) => [p, rows.map((i) => paramText(s.sweep, p, i))]))
      : { threshold: rows.map((i) => String((c["threshold"] as Float64Array)[i])), weights: rows.map((i) => weightsText(s.sweep, i)) }),
  });
}

/** The statistics of a coin's winner as JSON (NaN as null), or the reason they could not be computed. */
function assessmentJson(a: SweepAssessment | string | undefined): unknown {
  if (a === undefined) return null;
  if (typeof a === "string") return { error: a };
  const f = (x: number): number | null => (Number.isFinite(x) ? x : null);
  return {
    trials: a.trials,
    inSampleSharpe: f(a.best.value),
    dsr: f(a.dsr),
    expectedMaxSharpe: f(a.expectedMaxSharpe),
    psr: f(a.psr),
    minTrackRecordLength: f(a.minTrackRecordLength),
    effective: {
      trials: a.effective.trials,
      method: a.effective.method,
      dsr: f(a.effective.dsr),
      expectedMaxSharpe: f(a.effective.expectedMaxSharpe),
      minTrackRecordLength: f(a.effective.minTrackRecordLength),
    },
    bars: a.bars,
    spa: f(a.spa.pValue),
    beatFlat: a.beatFlat,
    evidence: a.evidence,
    lookahead: a.lookahead?.findings[0] ?? null,
    verdict: a.verdict.verdict,
    decidedBy: a.verdict.decidedBy,
    pbo: f(a.pbo),
    pboVariants: a.variantsUsed.length,
    walkForward:
      a.walkForward === undefined
        ? null
        : {
            outOfSampleSharpe: f(a.walkForward.outOfSampleSharpe),
            folds: Object.fromEntries(Object.entries(a.walkForward.folds.columns).map(([k, v]) => [k, Array.from(v as ArrayLike<number>, (x) => f(x))])),
          },
  };
}

/** The statistics of a coin's winner in words. */
function assessmentText(a: SweepAssessment | string | undefined, walkForward: string | undefined): string {
  if (a === undefined) return "";
  if (typeof a === "string") return `Is it real? not computed: ${a}`;
  // every sentence of the verdict comes from the one rule (isItRealVerdict), the same the report prints
  const [verdict, ...why] = isItRealVerdict(isItRealInput(a));
  const lines = [`Is it real? ${why.join(" ")}`];
  if (a.walkForward !== undefined) {
    const folds = (a.walkForward.folds.columns["fold"] as ArrayLike<number>).length;
    lines.push(`Walk-forward ${walkForward ?? ""} (choose the best by Sharpe, trade it on the next window; ${folds} folds): out-of-sample Sharpe ${fmt(a.walkForward.outOfSampleSharpe)} vs ${fmt(a.best.value)} in sample.`);
  }
  lines.push(verdict ?? "");
  return lines.join("\n");
}

/**
 * `milab sweep`: every weight vector of the simplex grid x every threshold, backtested on
 * each coin's bars (the study's data, default mode, costs and funding), with a progress bar;
 * Ctrl-C stops the sweep and keeps what finished (exit code 130). Prints each coin's best
 * variants in sample, or --json; --out writes every variant as CSV.
 */
export function sweepCommand(): Command {
  const d = DEFAULT_STUDY;
  const cmd = addDataSourceOptions(
    new Command("sweep").description(
      "backtest every composite weight vector on a simplex grid x every threshold, per coin; the winner's DSR, the sweep's PBO, a walk-forward (Ctrl-C keeps what finished)",
    ),
  )
    .option("--grid <step>", "step of the weight grid over the five components, 1/m (0.1: 1,001 weight vectors)", numberOption("grid", 0.001, 1), 0.1)
    .option("--thresholds <list>", "label thresholds to sweep, comma-separated", parseThresholds, [0.05, 0.1, 0.2])
    .addOption(engineFlag("feeBps", d.feeBps))
    .addOption(engineFlag("slippageBps", d.slippageBps))
    .option("--strategy <file>", STRATEGY_FLAG_HELP)
    .option("--no-funding", "do not charge perpetual funding")
    .option("--walk-forward <train/test>", 'walk-forward of "choose the best variant by Sharpe": train and test windows, e.g. 14d/7d (d, h or m)', parseWalkForward)
    .option("--workers <n>", "worker threads (0 = this thread) [by sweep size: 0 when small, else every core]", integerOption("workers", 0, MAX_WORKERS))
    .option("--shard <i/n>", "evaluate only shard i of n (0-based), e.g. a Kubernetes indexed Job's or a Slurm array's index; merge the --json outputs with mergeSweeps", parseShard)
    .option("--top <n>", "variants listed per coin", integerOption("top", 1, 1000), 5)
    .option("--json", "print the result as JSON on stdout (per coin: the sweep's table and its best variant)", false)
    .option("--out <file>", "write every variant (all coins) as CSV")
    .option("-q, --quiet", "no progress bar", false)
    .addHelpText(
      "after",
      "\nExamples:\n  milab sweep --strategy examples/strategies/momentum.mjs --coins btc --fee-bps 2\n  milab sweep --grid 0.1 --thresholds 0.05,0.1,0.2 --coins btc,eth\n  milab sweep --coins btc --out sweep.csv\n  milab sweep --coins btc --shard $JOB_COMPLETION_INDEX/8 --json > shard-$JOB_COMPLETION_INDEX.json",
    )
    .action(async (opts: SweepCliOptions) => {
      if (opts.out !== undefined) checkOutputPath(opts.out, { option: "out", kind: "file", example: "--out out/sweep.csv" });
      const progress = createProgress(opts.quiet);
      // Ctrl-C at any moment exits 130 with what finished on disk: while loading nothing has, so it exits at once;
      // during the sweep it stops the sweep (the finished variants are kept); after it, it skips the rest of the analysis.
      const ac = new AbortController();
      let phase: "load" | "sweep" | "after" = "load";
      let lateInterrupt = false;
      const onInt = (): void => {
        if (phase === "load") {
          progress.stop();
          process.stderr.write("milab sweep: stopped by Ctrl-C before any variant was swept; nothing written\n");
          process.exit(130); // EXIT.interrupted of runCli
        }
        if (phase === "after") lateInterrupt = true;
        ac.abort();
      };
      process.on("SIGINT", onInt);
      try {
        await sweepJob(opts, progress, ac, () => (phase = "sweep"), () => (phase = "after"), () => lateInterrupt);
      } finally {
        process.removeListener("SIGINT", onInt);
        progress.stop();
      }
    });
  // the rest of the backtest options' flag table, for a --strategy module's variants (--stop-loss, --fill, ...)
  return addEngineFlags(cmd, ["--fee-bps", "--slippage-bps"]);
}

/** Let pending signal handlers (Ctrl-C) run: they wait for the event loop while the analysis computes. */
function yieldToSignals(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The body of `milab sweep`: load, sweep, write the CSV at once, then the analysis (skipped after a late Ctrl-C) and the output. */
async function sweepJob(
  opts: SweepCliOptions,
  progress: ReturnType<typeof createProgress>,
  ac: AbortController,
  sweeping: () => void,
  swept: () => void,
  interruptedLate: () => boolean,
): Promise<void> {
  // a module's mistakes are refused before any history is loaded
  const mod: StrategyModule | undefined = opts.strategy !== undefined ? await loadStrategyModule(opts.strategy, true) : undefined;
  if (!opts.quiet && process.stderr.isTTY !== true) process.stderr.write("milab sweep: loading the history (Ctrl-C stops)\n");
  const job = await loadJobData(opts, progress);
  sweeping();
  if (!opts.quiet && process.stderr.isTTY !== true) process.stderr.write(`milab sweep: sweeping ${opts.coins.join(", ")} (Ctrl-C stops and keeps what finished)\n`);
  const onProgress = (coin: Coin, p: { done: number; total: number }): void => {
    if (p.done === 0 || p.done === p.total) progress.step(`sweeping ${coin}`, p.total);
    progress.update(p.done, p.total);
  };
  const sweeps = mod !== undefined
    ? await runStrategySweep(
        job.data,
        { coins: opts.coins, barMinutes: opts.bar, grid: mod.grid ?? {}, engine: engineOptions(opts as unknown as Record<string, unknown>), funding: opts.funding, workers: opts.workers, shard: opts.shard, signal: ac.signal, onProgress },
        mod.strategy,
      )
    : await runSweepStudy(job.data, {
    coins: opts.coins,
    barMinutes: opts.bar,
    grid: opts.grid,
    thresholds: opts.thresholds,
    feeBps: opts.feeBps,
    slippageBps: opts.slippageBps,
    funding: opts.funding,
    workers: opts.workers,
    shard: opts.shard,
    signal: ac.signal,
    onProgress,
  });
  swept();
  progress.stop();
  const stopped = ac.signal.aborted;
  const done = sweeps.reduce((k, s) => k + s.sweep.length, 0);
  // The finished variants go to disk before the analysis, so no later Ctrl-C can lose them.
  if (opts.out !== undefined && sweeps.length > 0) {
    // writeCsv reads the columns as they are (any `columns` + `column(name).values`): through a danfo DataFrame, every
    // --out loaded danfo first (~1.8 s of CPU) for the same bytes
    const table = sweepTable(sweeps);
    await writeCsv(opts.out, { columns: Object.keys(table), column: (name: string) => ({ values: table[name] as ArrayLike<unknown> }) });
    process.stderr.write(`milab sweep: ${done} variants written to ${opts.out}${opts.quiet ? "" : "; assessing them (Ctrl-C skips it)"}\n`);
  }
  // Is the winner real? DSR over every variant run, the sweep's PBO, and the walk-forward when asked.
  const assessments = new Map<Coin, SweepAssessment | string>();
  for (const s of sweeps) {
    await yieldToSignals();
    if (interruptedLate()) {
      assessments.set(s.coin, "stopped by Ctrl-C");
      continue;
    }
    try {
      assessments.set(
        s.coin,
        assessSweep(s.sweep, {
          splits: Math.min(16, 2 * Math.floor(s.time.length / 4)),
          ...(opts.walkForward !== undefined ? { walkForward: { time: s.time, trainMs: opts.walkForward.trainMs, testMs: opts.walkForward.testMs } } : {}),
        }),
      );
    } catch (err) {
      assessments.set(s.coin, err instanceof Error ? err.message : String(err));
    }
  }
  await yieldToSignals();
  if (opts.json) {
    const json = {
      source: job.source,
      seed: job.seed ?? null,
      stopped: stopped,
      coins: Object.fromEntries(
        sweeps.map((s) => {
          const a = assessments.get(s.coin);
          return [s.coin, { best: s.sweep.best("sharpeRatio") ?? null, assessment: assessmentJson(a), sweep: s.sweep.toJSON() }];
        }),
      ),
    };
    process.stdout.write(`${JSON.stringify(json)}\n`);
  } else {
    const first = sweeps[0];
    const lines = [`${mod !== undefined ? `Strategy ${mod.path}; ` : ""}Data: ${job.source}; ${first?.time.length ?? 0} bars of ${opts.bar} min; costs ${opts.feeBps} + ${opts.slippageBps} bps per side; ${opts.funding ? "funding charged" : "no funding"}`];
    for (const s of sweeps) {
      const sw = s.sweep;
      lines.push(
        "",
        `${s.coin}: ${sw.length}${sw.complete ? "" : ` of ${sw.total}`} variants (${mod !== undefined ? `the module's grid: ${sw.parameters.join(" x ")}` : `weight grid ${opts.grid} x thresholds ${opts.thresholds.join(", ")}`}), best in sample by Sharpe:`,
        topTable(s, opts.top, mod !== undefined),
        assessmentText(assessments.get(s.coin), opts.walkForward?.text),
      );
    }
    process.stdout.write(`${lines.join("\n")}\n`);
  }
  const written = opts.out !== undefined && sweeps.length > 0 ? ` (written to ${opts.out})` : "";
  if (stopped && !interruptedLate()) {
    process.stderr.write(`milab sweep: stopped by Ctrl-C after ${done} variants; the results above cover those only${written}\n`);
  } else if (interruptedLate()) {
    process.stderr.write(`milab sweep: Ctrl-C after the sweep: the analysis of what was not yet assessed was skipped; all ${done} finished variants are above${written}\n`);
  }
  if (stopped || interruptedLate()) process.exitCode = 130; // EXIT.interrupted of runCli
}
