/**
 * What assessSweep costs on notebook 07's inputs (`npx tsx test/bench/assessProfile.ts`): the four coins'
 * sweeps of 3,003 variants (simplex at 0.1 x thresholds 0.05, 0.1, 0.2) over 30 days of 15-minute bars from
 * the replay server (seed 7), then `assessSweep(sweep, { splits: 12, walkForward: 10 d / 5 d })` per coin,
 * timed in process CPU time (robust on a shared machine), best and median of BENCH_ASSESS_REPS runs (default 1).
 *
 *   --write FILE    the assessments as JSON (typed arrays as arrays, non-finite numbers and -0 as strings: snapshot.ts)
 *   --compare FILE  exit 1 unless this run's JSON is byte-identical to FILE's
 *   --coins BTC,ETH restrict the coins
 *
 * Run under `node --cpu-prof --import tsx` to see where the time goes.
 *
 * Measured 2026-11-28 (load 7-9, 2 cores shared), the four coins' assessSweep, process CPU s: before effectiveTrials'
 * packed Gram rows best 19.16 / median 20.15-20.70; after best 17.02-17.67 / median 17.94-18.03; JSON byte-identical.
 * Where the time goes (per coin, same load): SPA ~1.6-2.1 s (its WebAssembly loop reads 32 bytes of prefix sums per
 * run and variant from a 1 MiB tile: L2-bound, a 4-lane register-blocked loop measured no faster), recomputing the
 * 3,003 return series ~1.0-1.3 s, PBO ~0.4 s, effectiveTrials ~0.3 s (was ~0.7 s), walk-forward ~0.1 s.
 */
import { parseArgs } from "node:util";
import { startReplayServer } from "../../src/server/index.js";
import { COMPONENT_NAMES, assessSweep, createClient, fromDataFrame, fundingPerBar, loadAnalyticsQuery, simplexGrid, sweepComposite, type SweepAssessment } from "../../src/index.js";
import { writeOrCompare } from "./snapshot.js";

const { values: args } = parseArgs({ options: { write: { type: "string" }, compare: { type: "string" }, coins: { type: "string", default: "BTC,ETH,SOL,HYPE" } } });
const reps = Number(process.env["BENCH_ASSESS_REPS"] ?? 1);
const NOW = Date.UTC(2026, 10, 1, 0, 0);
const DAY = 86_400_000;
const ALL = ["BTC", "ETH", "SOL", "HYPE"];
const COINS = (args.coins as string).split(",");
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const server = await startReplayServer({ seed: 7, clock: () => NOW, rateLimitPerMinute: 0 });
const client = createClient({ baseUrl: server.url, clock: () => NOW });
const span = { interval: "15m" as const, start: NOW - 30 * DAY, end: NOW };
const comp = fromDataFrame(await loadAnalyticsQuery(client, { dataset: "composite", coin: ALL, ...span }));
const mkt = fromDataFrame(
  await loadAnalyticsQuery(client, { dataset: "metrics", metricId: ALL.flatMap((c) => [`${c.toLowerCase()}_price`, `${c.toLowerCase()}_funding_rate`]), ...span }),
);
await server.close();
const time = mkt.time;
const grid = simplexGrid(COMPONENT_NAMES, 0.1);
const out: Record<string, SweepAssessment> = {};
const times: number[][] = [];
for (const coin of COINS) {
  const p = coin.toLowerCase();
  const columns: Record<string, Float64Array> = { time, close: mkt.columns[`${p}_price`] as Float64Array };
  for (const c of COMPONENT_NAMES) columns[c] = comp.columns[`${p}_${c}_value`] as Float64Array;
  const sweep = await sweepComposite(columns, { weights: grid, thresholds: [0.05, 0.1, 0.2], feeBps: 4.5, slippageBps: 1, barFunding: fundingPerBar(time, mkt.columns[`${p}_funding_rate`] as Float64Array) });
  const mine: number[] = [];
  for (let r = 0; r < reps; r++) {
    const t = cpu();
    out[coin] = assessSweep(sweep, { splits: 12, walkForward: { time, trainMs: 10 * DAY, testMs: 5 * DAY } });
    mine.push(cpu() - t);
  }
  times.push(mine);
}
const total = Array.from({ length: reps }, (_, r) => times.reduce((s, m) => s + (m[r] as number), 0)).sort((a, b) => a - b);
console.log(`assessSweep, ${COINS.join(" ")} (${grid.length * 3} variants x ${time.length} bars each), ${reps} run(s), process CPU s:`);
console.log(`  best ${total[0]?.toFixed(2)}  median ${total[total.length >> 1]?.toFixed(2)}  per coin (first run) ${times.map((m) => m[0]?.toFixed(2)).join(" ")}`);

writeOrCompare(out, args);
