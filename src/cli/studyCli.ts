import { Command, InvalidArgumentError as CommanderArgumentError, Option } from "commander";
import { createClient } from "../api/createClient.js";
import { COINS, parseCoin, type Coin } from "../domain/coins.js";
import type { TearsheetInput } from "../report/renderTearsheet.js";
import { startReplayServer } from "../server/startReplayServer.js";
import { COMPONENT_NAMES, validateWeights, type Weights } from "../signals/weights.js";
import { choiceOption, integerOption, numberOption, timeOption } from "./options.js";
import type { Progress } from "./progress.js";
import { loadStudyData, studyMetricIds } from "./study/loadStudyData.js";
import { runRealDataStudy, type RealDataStudy } from "./study/realDataStudy.js";
import { DEFAULT_STUDY, runStudy, type Study, type StudyOptions } from "./study/runStudy.js";
import { studySections, summaryTiles, weightsNote } from "./study/studyTearsheet.js";

/** The demo's default fixed clock: reproducible numbers on every machine. */
export const DEMO_CLOCK = Date.UTC(2026, 10, 1);

/** Options shared by `demo`, `backtest` and `report`, as commander parses them. */
export interface StudyCliOptions {
  readonly baseUrl?: string | undefined;
  readonly seed: number;
  readonly clock?: number | undefined;
  readonly coins: readonly Coin[];
  readonly hours: number;
  readonly bar: number;
  readonly weights?: Weights | undefined;
  readonly threshold: number;
  readonly feeBps: number;
  readonly slippageBps: number;
  readonly fill: "next_close" | "next_open";
  readonly units: "fractional" | "whole";
  readonly sizing: "fixed" | "confidence";
  readonly shorts: boolean;
  readonly regimeFilter: boolean;
  readonly funding: boolean;
  readonly cash: number;
  readonly realData: boolean;
  readonly quiet: boolean;
}

/** Parse `btc,eth` (or `all`) into coins. */
export function parseCoins(raw: string): Coin[] {
  if (raw.trim().toLowerCase() === "all") return [...COINS];
  const coins: Coin[] = [];
  for (const part of raw.split(",")) {
    try {
      const coin = parseCoin(part, "coins");
      if (!coins.includes(coin)) coins.push(coin);
    } catch {
      throw new CommanderArgumentError(`coins must be a comma-separated list of ${COINS.join(", ")} (or "all"), got ${raw}`);
    }
  }
  return coins;
}

/** Parse `imbalance=0.4,funding=0.6` into validated weights (they must sum to 1). */
export function parseWeights(raw: string): Weights {
  const w: Record<string, number> = {};
  for (const part of raw.split(",")) {
    const [name, value, extra] = part.split("=").map((s) => s.trim());
    const v = Number(value);
    if (name === undefined || value === undefined || extra !== undefined || value === "" || !Number.isFinite(v)) {
      throw new CommanderArgumentError(`weights must look like imbalance=0.3,funding=0.25,... got ${raw}`);
    }
    if (!(COMPONENT_NAMES as readonly string[]).includes(name)) {
      throw new CommanderArgumentError(`weights: unknown component ${JSON.stringify(name)}; components are ${COMPONENT_NAMES.join(", ")}`);
    }
    w[name] = v;
  }
  try {
    return validateWeights(w, "weights");
  } catch (err) {
    throw new CommanderArgumentError(err instanceof Error ? err.message : String(err));
  }
}

/** Add the data-source and strategy options to a command. */
export function addStudyOptions(cmd: Command): Command {
  const d = DEFAULT_STUDY;
  return cmd
    .option("--base-url <url>", "use a live service instead of the embedded replay server [env MI_BASE_URL]; key from env MI_API_KEY")
    .option("--seed <n>", "simulator seed of the embedded replay server", integerOption("seed", 0, 2 ** 31 - 1), 42)
    .option("--clock <time>", 'end of the period on the embedded server: ISO date/time (UTC), epoch ms, or "now"', timeOption("clock"), DEMO_CLOCK)
    .option("--coins <list>", `coins, comma-separated, or "all"`, parseCoins, [...d.coins])
    .option("--hours <n>", "history window in hours, up to the service's 720", integerOption("hours", 2, 720), 720)
    .option("--bar <minutes>", "bar size in minutes: the signal is read and positions set at each bar's close", integerOption("bar", 1, 1440), d.barMinutes)
    .option("--weights <list>", "composite weights, e.g. imbalance=0.4,funding=0.3,basis_spread=0.3 (sum 1) [the service's]", parseWeights)
    .option("--threshold <x>", "|composite| below this is neutral (flat)", numberOption("threshold", 0, 1), d.threshold)
    .option("--fee-bps <x>", "taker fee per side, bps of traded notional", numberOption("fee-bps", 0, 1000), d.feeBps)
    .option("--slippage-bps <x>", "slippage per side, bps of traded notional", numberOption("slippage-bps", 0, 1000), d.slippageBps)
    .addOption(new Option("--fill <mode>", "fill at the decision bar's close (next_close) or the next bar's open").argParser(choiceOption("fill", ["next_close", "next_open"] as const)).default(d.fill))
    .addOption(new Option("--units <mode>", "fractional or whole coins").argParser(choiceOption("units", ["fractional", "whole"] as const)).default(d.units))
    .addOption(new Option("--sizing <mode>", "fixed (full size) or confidence (size x the composite's confidence)").argParser(choiceOption("sizing", ["fixed", "confidence"] as const)).default(d.sizing))
    .option("--no-shorts", "sell signals go flat instead of short")
    .option("--no-regime-filter", "trade through extreme volatility too")
    .option("--no-funding", "do not charge perpetual funding")
    .option("--cash <x>", "starting cash", numberOption("cash", 1, 1e12), d.initialCash)
    .option("--no-real-data", "skip the section on real Coinbase + Hyperliquid data")
    .option("-q, --quiet", "no progress bar", false);
}

/** Study options from parsed CLI options. */
export function toStudyOptions(o: StudyCliOptions): StudyOptions {
  return {
    ...DEFAULT_STUDY,
    coins: o.coins,
    barMinutes: o.bar,
    weights: o.weights,
    threshold: o.threshold,
    feeBps: o.feeBps,
    slippageBps: o.slippageBps,
    fill: o.fill,
    units: o.units,
    sizing: o.sizing,
    shorts: o.shorts,
    regimeFilter: o.regimeFilter,
    funding: o.funding,
    initialCash: o.cash,
  };
}

/** What a study run produced, with where its data came from. */
export interface StudyRun {
  readonly study: Study;
  readonly real: RealDataStudy | undefined;
  /** Human description of the data source (never the API key). */
  readonly source: string;
  readonly live: boolean;
  readonly seed: number | undefined;
  readonly requests: number;
  readonly loadMs: number;
  readonly computeMs: number;
}

/**
 * Run the composite study end to end: start the embedded replay server (or use
 * the live service), load the history, replay, backtest and evaluate, and the
 * real-data study unless turned off.
 */
export async function runStudyJob(o: StudyCliOptions, progress: Progress): Promise<StudyRun> {
  const baseUrl = o.baseUrl ?? process.env["MI_BASE_URL"];
  const clockMs = o.clock;
  const server =
    baseUrl === undefined
      ? await startReplayServer({ seed: o.seed, rateLimitPerMinute: 0, ...(clockMs !== undefined ? { clock: () => clockMs } : {}) })
      : undefined;
  try {
    const total = studyMetricIds(o.coins).length;
    let done = 0;
    progress.step("loading history", total);
    const client = createClient({
      baseUrl: server?.url ?? baseUrl,
      apiKey: process.env["MI_API_KEY"],
      ...(server !== undefined ? { rateLimitPerMinute: 100_000 } : {}),
      onEvent: (e) => {
        if (e.type === "response" || e.type === "cache-hit") progress.update(++done);
      },
    });
    const t0 = performance.now();
    const data = await loadStudyData(client, o.coins, o.hours);
    const t1 = performance.now();
    for (const w of data.warnings ?? []) {
      progress.stop();
      process.stderr.write(`milab: warning: ${w}\n`);
    }
    progress.step("backtesting", 2);
    const study = runStudy(data, toStudyOptions(o));
    progress.update(1);
    const real = o.realData ? runRealDataStudy(toStudyOptions(o)) : undefined;
    progress.update(2);
    const t2 = performance.now();
    progress.stop();
    return {
      study,
      real,
      source: server === undefined ? `live service ${client.baseUrl}` : `embedded replay server (simulator seed ${o.seed})`,
      live: server === undefined,
      seed: server === undefined ? undefined : o.seed,
      requests: data.requests,
      loadMs: t1 - t0,
      computeMs: t2 - t1,
    };
  } finally {
    progress.stop();
    await server?.close();
  }
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}

/** The tearsheet of a study run: scorecard, portfolio, signal evaluation, each coin, real data. */
export function studyReportInput(run: StudyRun): TearsheetInput {
  const s = run.study;
  const o = s.options;
  const bar = o.barMinutes % 60 === 0 ? `${o.barMinutes / 60}h` : `${o.barMinutes}m`;
  const { summary, sections } = studySections(s);
  const all = [...sections];
  const r = run.real;
  if (r !== undefined) {
    let long = 0;
    let short = 0;
    for (const w of r.result.positions) (w > 0 ? long++ : w < 0 ? short++ : 0);
    const share = (k: number): string => `${((100 * k) / r.time.length).toFixed(0)}%`;
    all.push({
      title: "Real data: BTC 4h (Coinbase) with Hyperliquid funding",
      id: "real-data",
      intro: `Coinbase BTC-USD 4-hour candles, ${day(r.time[0] as number)} to ${day(r.time[r.time.length - 1] as number)} UTC (${r.time.length} bars), with Hyperliquid's real hourly BTC funding (mean ${(r.meanFunding * 1e4).toFixed(3)} bps/h) charged on positions. Only funding, basis (Hyperliquid mark vs Coinbase spot) and momentum (last 4h return) can be derived from these public feeds; imbalance and gas are missing and their weight is renormalised away. Same threshold and costs as above. The signal was long ${share(long)} and short ${share(short)} of the bars; funding was positive (longs paying, which the composite reads as bearish) on ${(100 * r.positiveFundingShare).toFixed(0)}% of them. Data: MIT / BSD-3-Clause, see fixtures/real/README.md.`,
      metrics: summaryTiles(r.summary, r.feesPaid, r.fundingPaid),
      equity: { time: r.time, series: { strategy: r.result.equity, "buy & hold": r.buyHold } },
      signal: { time: r.time, price: r.close, score: r.replay.composite, trades: r.result.trades, thresholds: { buy: o.threshold, sell: -o.threshold }, priceTitle: "BTC-USD (Coinbase)", scoreTitle: "composite (3 of 5)" },
      icDecay: {
        horizon: r.ic.columns["bars"] as Float64Array,
        ic: { BTC: r.ic.columns["ic"] as Float64Array },
        ciLow: { BTC: r.ic.columns["ciLow"] as Float64Array },
        ciHigh: { BTC: r.ic.columns["ciHigh"] as Float64Array },
        title: "IC decay (shaded: 95% interval)",
        horizonTitle: "horizon (4h bars)",
      },
      trades: r.result.trades,
      maxTrades: 30,
    });
  }
  return {
    title: `Composite signal backtest: ${o.coins.join(", ")}`,
    subtitle: `The Market Intelligence composite replayed on ${bar} bars and traded with fees, slippage and funding`,
    notes: [
      `data: ${run.source}`,
      `period ${day(s.time[0] as number)} to ${day(s.time[s.time.length - 1] as number)} UTC, ${s.time.length} bars of ${bar}`,
      weightsNote(s),
      `threshold ±${o.threshold}`,
      `costs ${o.feeBps} bps fee + ${o.slippageBps} bps slippage per side`,
      o.funding ? "funding charged" : "no funding",
      `fill ${o.fill}, ${o.units} units, ${o.sizing} sizing${o.shorts ? "" : ", long only"}`,
      o.regimeFilter ? "flat in extreme volatility" : "no regime filter",
      `starting cash ${o.initialCash.toLocaleString("en-US")}`,
    ],
    summary,
    sections: all,
  };
}
