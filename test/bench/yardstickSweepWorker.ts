/**
 * One fresh process of yardsticks.bench.ts's sweep figures:
 * `tsx yardstickSweepWorker.ts MODE FILE N REPS SPEC`, MODE = "sweep" (sweepComposite
 * on the calling thread), "sweep2" (on 2 worker threads, wall time) or "sma"
 * (sweepStrategy of the guide's smaCross function over SPEC's fast x slow grid) or "sma-shared"
 * (the same rule written the guide's way for a grid: each rolling mean once per length, `shared`).
 * Prints one JSON line: the process's first run apart (`compileSeconds`: V8's compile of the generated loops and
 * of the strategy function, their priming, one run; as yardsticks_numba.py times numba's first call, its JIT
 * compile and one run, apart), then each of REPS runs' seconds (process CPU time; wall for sweep2), and every
 * variant's six metrics as exact decimal strings.
 */
import { readFileSync } from "node:fs";
import { randomSimplex, sweepComposite, sweepStrategy, type SweepResult } from "../../src/index.js";
import { FEE_BPS, SLIPPAGE_BPS, readBars } from "./backtestData.js";
import { smaCross, smaCrossShared } from "../support/smaCross.js";

const [mode, file, nArg, repsArg, specPath] = process.argv.slice(2);
const n = Number(nArg);
const reps = Number(repsArg ?? 3);
const spec = JSON.parse(readFileSync(specPath as string, "utf8")) as { seed: number; vectors: number; thresholds: number[]; fast: number[]; slow: number[]; periodsPerYear: number };
const bars = readBars(file as string, n);
const METRICS = ["totalReturn", "sharpeRatio", "maxDrawdown", "trades", "turnover", "exposure"] as const;


const run = async (): Promise<SweepResult> => {
  if (mode === "sma" || mode === "sma-shared") {
    return sweepStrategy(mode === "sma" ? smaCross : smaCrossShared, {
      data: { close: bars.close },
      grid: { fast: spec.fast, slow: spec.slow },
      feeBps: FEE_BPS,
      slippageBps: SLIPPAGE_BPS,
      funding: bars.funding_bar,
      periodsPerYear: spec.periodsPerYear,
      workers: 0,
    });
  }
  const input = { close: bars.close, imbalance: bars.imbalance, funding: bars.funding, basis_spread: bars.basis_spread, momentum_5m: bars.momentum_5m, gas: bars.gas };
  return sweepComposite(input, {
    weights: randomSimplex(spec.vectors, { seed: spec.seed }),
    thresholds: spec.thresholds,
    feeBps: FEE_BPS,
    slippageBps: SLIPPAGE_BPS,
    barFunding: bars.funding_bar,
    periodsPerYear: spec.periodsPerYear,
    workers: mode === "sweep2" ? 2 : 0,
  });
};

const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const clock = mode === "sweep2" ? () => performance.now() / 1e3 : cpu;
const times: number[] = [];
const f0 = clock();
let result: SweepResult | undefined = await run();
const compileSeconds = clock() - f0;
for (let r = 0; r < reps; r++) {
  const t0 = clock();
  result = await run();
  times.push(clock() - t0);
}
const cols = (result as SweepResult).columns as Record<string, ArrayLike<number>>;
const metrics: string[][] = [];
const count = (cols["totalReturn"] as ArrayLike<number>).length;
for (let v = 0; v < count; v++) metrics.push(METRICS.map((m) => String((cols[m] as ArrayLike<number>)[v])));
console.log(JSON.stringify({ impl: `ours-${mode as string}`, n, compileSeconds, times, metrics }));
process.exit(0);
