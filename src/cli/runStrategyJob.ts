import { InvalidArgumentError as CommanderArgumentError } from "commander";
import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";
import type { PaperBacktestOptions } from "../paper/paperStrategy.js";
import type { SweepValue } from "../research/SweepResult.js";
import { textTable } from "../report/textTable.js";
import type { StudyCliOptions } from "./addStudyOptions.js";
import { loadJobData } from "./loadJobData.js";
import { loadStrategyModule } from "./loadStrategyModule.js";
import { createProgress } from "./progress.js";
import { runStrategyBacktest } from "./study/runStrategyBacktest.js";

/** Help of the `--strategy <file>` flag (backtest, sweep and paper). */
export const STRATEGY_FLAG_HELP =
  "module (.mjs) exporting your strategy: `strategy` or default (a function (columns, params) => target positions, or a composite object), optional `params`, and `grid` for a sweep; see examples/strategies/ [the built-in composite]";

/** Parse `--params '{"n":12}'`: a JSON object of parameter -> number, string, boolean or null. */
export function parseParams(raw: string): Record<string, SweepValue> {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw new CommanderArgumentError(`params must be a JSON object like {"n":12}, got ${raw}`);
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new CommanderArgumentError(`params must be a JSON object like {"n":12}, got ${raw}`);
  return v as Record<string, SweepValue>;
}

const fmt = (x: number, digits = 2): string => (Number.isFinite(x) ? x.toFixed(digits) : "–");
const pct = (x: number): string => (Number.isFinite(x) ? `${(x * 100).toFixed(2)}%` : "–");
const sum = (a: Float64Array): number => a.reduce((s, x) => s + (x === x ? x : 0), 0);

/**
 * `milab backtest --strategy <file>`: import the module, load the history (the embedded replay
 * server or --base-url), backtest its strategy on each coin (runStrategyBacktest: the bars and
 * binding `milab paper` uses), and print one row per coin, or --json.
 * @throws InvalidArgumentError (exit 2) on a bad module, parameter or option, before loading any history
 */
export async function runStrategyJob(file: string, o: StudyCliOptions & { json: boolean; report?: string; params?: Record<string, SweepValue> }, engine: PaperBacktestOptions): Promise<void> {
  if (o.report !== undefined) throw new InvalidArgumentError("report", "milab backtest: --report writes the composite study's tearsheet; it does not apply with --strategy (leave one out)");
  const mod = await loadStrategyModule(file, false);
  const params = { ...(mod.params ?? {}), ...(o.params ?? {}) };
  const progress = createProgress(o.quiet);
  let job;
  try {
    job = await loadJobData(o, progress);
  } finally {
    progress.stop();
  }
  const runs = runStrategyBacktest(job.data, { coins: o.coins, barMinutes: o.bar, params, engine, funding: o.funding }, mod.strategy);
  if (o.json) {
    const f = (x: number): number | null => (Number.isFinite(x) ? x : null);
    const json = {
      source: job.source,
      seed: job.seed ?? null,
      strategy: file,
      params,
      options: { ...engine, barMinutes: o.bar, funding: o.funding },
      coins: Object.fromEntries(
        runs.map((r) => [
          r.coin,
          {
            period: { start: new Date(r.time[0] as number).toISOString(), bars: r.time.length },
            summary: Object.fromEntries(Object.entries(r.summary).map(([k, v]) => [k, typeof v === "number" ? f(v) : v])),
            finalEquity: f(r.result.equity[r.result.equity.length - 1] as number),
            feesPaid: f(sum(r.result.fees)),
            fundingPaid: f(sum(r.result.fundingPaid)),
            trades: r.result.trades.length,
          },
        ]),
      ),
    };
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    return;
  }
  const first = runs[0];
  const lines = [
    `Strategy ${file}${Object.keys(params).length > 0 ? ` with ${JSON.stringify(params)}` : ""}; data: ${job.source}; ${first?.time.length ?? 0} bars of ${o.bar} min${first !== undefined ? ` from ${new Date(first.time[0] as number).toISOString()}` : ""}; options ${JSON.stringify(engine)}; ${o.funding ? "funding charged" : "no funding"}`,
    "",
    textTable({
      coin: runs.map((r) => r.coin),
      "total return": runs.map((r) => pct(r.summary.totalReturn)),
      Sharpe: runs.map((r) => fmt(r.summary.sharpeRatio)),
      "max DD": runs.map((r) => pct(r.summary.maxDrawdown)),
      trades: runs.map((r) => String(r.result.trades.length)),
      fees: runs.map((r) => fmt(sum(r.result.fees))),
      funding: runs.map((r) => fmt(sum(r.result.fundingPaid))),
      "final equity": runs.map((r) => fmt(r.result.equity[r.result.equity.length - 1] as number)),
    }),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}
